-- Effective-dated contracts (issue 15, docs/registry.md): a change of work schedule or vacation days applies from
-- a date, and the days before it keep the values they had. The employee row keeps the latest period's values.
create table employee_contracts (
  company_id uuid not null,
  employee_id uuid not null,
  effective_from date not null,
  work_schedule integer[] not null check (cardinality(work_schedule) = 7),
  vacation_days_per_year numeric(5, 1) not null check (vacation_days_per_year between 0 and 366),
  recorded_at timestamptz(3) not null,
  recorded_by_type text not null check (recorded_by_type in ('api_key', 'admin', 'employee', 'system')),
  recorded_by_id text not null,
  primary key (company_id, employee_id, effective_from),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);

-- Every existing employee has had one contract since the hire date: the values it holds today.
insert into employee_contracts (company_id, employee_id, effective_from, work_schedule, vacation_days_per_year,
                                recorded_at, recorded_by_type, recorded_by_id)
select company_id, id, hire_date, work_schedule, vacation_days_per_year, created_at, 'system', 'before-contracts'
from employees;
