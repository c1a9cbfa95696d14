-- Monthly rollups of the stored workdays, so month summaries and banked balances read one row per employee and
-- month instead of every day. A rollup counts the days that are closed by their stored figures alone (no
-- incomplete shift, no shift without an out); that equals the read-time rule for a month that ended at least
-- three days ago, when every one of its dates is before every zone's today and every shift without an out is
-- more than 24 hours old. Newer months are aggregated from the days when read. Refreshed by consolidation.
create table workday_months (
  company_id uuid not null references companies (id) on delete cascade,
  employee_id uuid not null,
  month date not null,
  worked_minutes integer not null,
  break_minutes integer not null,
  night_minutes integer not null,
  overtime_minutes integer not null,
  expected_minutes integer not null,
  absences_minutes integer not null,
  source_days integer not null,
  incomplete_days integer not null,
  anomalies integer not null,
  primary key (company_id, employee_id, month),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);
