-- jornada: expand-only
-- Issue 38: part-time contracts (ET art. 12). A contract period says whether it is full- or part-time, its weekly
-- minutes (null: the sum of its work_schedule) and, for part-time, the percentage of a comparable full-time
-- worker's hours and the agreed limit of complementary hours (ET 12.5.c; null: 30 %). The employee row keeps the
-- latest period's values, as it does for work_schedule. A part-timer's day stores `part_time`, so that its
-- minutes beyond the day's contracted ones are complementary (ET 12.4.c, 12.5), never overtime, and a closed day
-- keeps what it was when it was settled.
alter table employee_contracts
  add column contract_type text not null default 'full_time' check (contract_type in ('full_time', 'part_time')),
  add column weekly_minutes integer check (weekly_minutes between 0 and 10080),
  add column part_time_percentage numeric(5, 2) check (part_time_percentage > 0 and part_time_percentage < 100),
  add column complementary_limit_percentage smallint check (complementary_limit_percentage between 0 and 90),
  add constraint employee_contracts_part_time_terms check (
    (contract_type = 'part_time' and part_time_percentage is not null)
    or (contract_type = 'full_time' and part_time_percentage is null and complementary_limit_percentage is null));

alter table employees
  add column contract_type text not null default 'full_time' check (contract_type in ('full_time', 'part_time')),
  add column weekly_minutes integer check (weekly_minutes between 0 and 10080),
  add column part_time_percentage numeric(5, 2) check (part_time_percentage > 0 and part_time_percentage < 100),
  add column complementary_limit_percentage smallint check (complementary_limit_percentage between 0 and 90);

alter table workdays add column part_time boolean not null default false;
alter table workday_months add column complementary_minutes integer not null default 0;

-- Overtime compensation (ET art. 35.1, 35.2): overtime is paid, or compensated with rest (time off, the default:
-- it goes to the banked balance, as every extra minute did before). The company chooses; a contract period may
-- override it (null: the company's). The company's choice is effective-dated per tenant (a change applies from
-- the first day after its latest closed month), so that recomputing any day gives what it was settled with; a
-- stored day with overtime remembers whether it was paid, and a closed month's banked balance and counted
-- overtime never move.
alter table companies
  add column overtime_compensation text not null default 'time_off' check (overtime_compensation in ('paid', 'time_off'));
alter table employee_contracts
  add column overtime_compensation text check (overtime_compensation in ('paid', 'time_off'));
alter table employees
  add column overtime_compensation text check (overtime_compensation in ('paid', 'time_off'));
create table overtime_compensation_periods (
  company_id uuid not null references companies (id) on delete cascade,
  effective_from date not null,
  compensation text not null check (compensation in ('paid', 'time_off')),
  recorded_at timestamptz(3) not null,
  primary key (company_id, effective_from)
);
alter table workdays add column overtime_paid boolean not null default false;
alter table workday_months add column overtime_counted_minutes integer not null default 0;

-- Worked holidays, reported apart (issue 38): a stored day remembers whether it is a holiday of the employee's
-- calendar, so that the work summaries can sum its worked minutes as `holiday_worked_minutes`. Days stored before
-- get the flag here, by the rule consolidation applies (the company's holidays without a work centre, but for a
-- default region's, which reach only the employees without a centre; and those of the employee's own centre), so
-- that verification's recomputation of a closed month finds what is stored.
alter table workdays add column holiday boolean not null default false;
alter table workday_months add column holiday_worked_minutes integer not null default 0;
update workdays w set holiday = true
from employees e
where e.company_id = w.company_id and e.id = w.employee_id
  and exists (
    select 1 from holidays h
    where h.company_id = w.company_id and h.date = w.date
      and (case when e.location_id is null then h.location_id is null
                else (h.location_id is null and h.scope <> 'regional') or h.location_id = e.location_id end));
update workday_months m set holiday_worked_minutes = coalesce((
  select sum(w.worked_minutes) from workdays w
  where w.company_id = m.company_id and w.employee_id = m.employee_id and w.holiday
    and w.incomplete_shifts = 0 and w.open_since is null
    and w.date >= m.month and w.date < (m.month + interval '1 month')::date), 0);

-- Overtime worked to prevent or repair damage (ET art. 35.3): the company marks an employee's day, with its
-- reason; that day's overtime is compensated as any other but does not count towards the 80 hours a year. A stored
-- day with overtime remembers the mark, so a closed month's counted overtime never moves.
create table force_majeure_days (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  employee_id uuid not null,
  date date not null,
  reason text not null check (length(reason) between 1 and 500),
  recorded_by_type text not null,
  recorded_by_id text not null,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  unique (company_id, employee_id, date),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);
create index force_majeure_days_company_updated on force_majeure_days (company_id, updated_at, id);
alter table workdays add column force_majeure boolean not null default false;
