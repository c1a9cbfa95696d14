-- The time engine's stored daily table: one row per employee and local date that has expected minutes or any
-- clock activity. Rows are written by consolidation (src/modules/workdays/consolidation.ts), which recomputes a
-- date range from the source rows and replaces it, so applying it twice equals applying it once. Whether a row is
-- closed depends on "now" (the employee's local today, and a shift without an out turning incomplete after 24
-- hours); that is decided when reading, from `open_since`, so stored rows never go stale with time.
create table workdays (
  company_id uuid not null references companies (id) on delete cascade,
  employee_id uuid not null,
  date date not null,
  worked_minutes integer not null,
  break_minutes integer not null,
  night_minutes integer not null,
  expected_minutes integer not null,
  absences_minutes integer not null,
  anomalies integer not null,
  check_ins integer not null,
  incomplete_shifts integer not null,
  -- The start of a shift of this date with no out yet; incomplete once 24 hours have passed.
  open_since timestamptz(0),
  consolidated_at timestamptz(3) not null,
  primary key (company_id, employee_id, date),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);
-- Holiday changes touch one date across a company.
create index workdays_company_date on workdays (company_id, date);

-- Consolidation materialises calendar days (expected minutes, no check-ins yet) through this date.
alter table employees add column consolidated_through date;
