-- Issue 34: a time zone is effective-dated like a contract. A company's zone (employee_id null; its sandbox
-- follows it) and an employee's own zone (null: the company's again) each apply from a local date on; a change
-- never reaches a date in or before a closed month. The first change of a company or an employee also records
-- the zone it had until then, from 0001-01-01. Append-only; each period is a chain entry too.
create table timezone_periods (
  company_id uuid not null references companies (id) on delete cascade,
  employee_id uuid,
  effective_from date not null,
  timezone text,
  recorded_at timestamptz(3) not null,
  recorded_by_type text not null check (recorded_by_type in ('api_key', 'admin', 'employee', 'system', 'operator')),
  recorded_by_id text not null,
  check (employee_id is not null or timezone is not null),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);
create unique index timezone_periods_key on timezone_periods
  (company_id, coalesce(employee_id, '00000000-0000-0000-0000-000000000000'::uuid), effective_from);
create trigger timezone_periods_append_only before update or delete on timezone_periods
  for each row execute function jornada_registry_append_only();
