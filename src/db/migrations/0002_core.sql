-- Core resources: employees, check-ins, absences, and the outbox of domain events.
-- Same conventions as 0001: (company_id, id) keys, composite foreign keys, company_id-first indexes,
-- timestamps written from the application Clock.

create table employees (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  first_name text not null,
  last_name text not null,
  email text not null,
  -- Uniqueness of email is per company and case-insensitive.
  email_key text generated always as (lower(email)) stored,
  external_id text,
  status text not null check (status in ('active', 'terminated')),
  hire_date date not null,
  termination_date date,
  location_id uuid,
  unit_id uuid,
  timezone text,
  -- Minutes per ISO weekday, Monday first.
  work_schedule integer[] not null
    check (array_length(work_schedule, 1) = 7 and 0 <= all (work_schedule) and 1440 >= all (work_schedule)),
  vacation_days_per_year numeric(5, 1) not null check (vacation_days_per_year between 0 and 366),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  foreign key (company_id, location_id) references locations (company_id, id),
  foreign key (company_id, unit_id) references units (company_id, id),
  check (termination_date is null or termination_date >= hire_date),
  check ((status = 'terminated') = (termination_date is not null))
);
create unique index employees_company_email on employees (company_id, email_key);
create unique index employees_company_external_id on employees (company_id, external_id);
create index employees_company_updated on employees (company_id, updated_at, id);
create index employees_company_status_updated on employees (company_id, status, updated_at, id);
create index employees_company_location_updated on employees (company_id, location_id, updated_at, id);
create index employees_company_unit_updated on employees (company_id, unit_id, updated_at, id);

-- Clock events. Immutable: the legal registry needs an untampered record (no update, no delete).
create table check_ins (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  employee_id uuid not null,
  type text not null check (type in ('in', 'out', 'break_start', 'break_end')),
  timestamp timestamptz(0) not null,
  source text not null check (source in ('api', 'dashboard', 'kiosk', 'import')),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  foreign key (company_id, employee_id) references employees (company_id, id)
);
-- An exact duplicate (same employee, type and instant) is refused; the index also serves an employee's
-- timeline, which the time engine reads in timestamp order.
create unique index check_ins_company_employee_timestamp on check_ins (company_id, employee_id, timestamp, type);
-- The sync listing, with and without employee_id.
create index check_ins_company_updated on check_ins (company_id, updated_at, id);
create index check_ins_company_employee_updated on check_ins (company_id, employee_id, updated_at, id);
-- The from/to listing and company-wide range reads (reports).
create index check_ins_company_timestamp on check_ins (company_id, timestamp, id);

create index absence_types_company_updated on absence_types (company_id, updated_at, id);

create table absences (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  employee_id uuid not null,
  absence_type_id uuid not null,
  start_date date not null,
  end_date date not null,
  half_day boolean not null default false,
  status text not null check (status in ('requested', 'approved', 'denied', 'cancelled')),
  days_count numeric(6, 1) not null check (days_count >= 0),
  note text,
  denial_reason text,
  decided_at timestamptz(3),
  cancelled_at timestamptz(3),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  foreign key (company_id, employee_id) references employees (company_id, id),
  foreign key (company_id, absence_type_id) references absence_types (company_id, id),
  check (end_date >= start_date),
  check (not half_day or start_date = end_date)
);
create index absences_company_updated on absences (company_id, updated_at, id);
create index absences_company_employee_updated on absences (company_id, employee_id, updated_at, id);
-- Overlap checks and the time engine: an employee's absences by date.
create index absences_company_employee_dates on absences (company_id, employee_id, start_date, end_date);

-- The transactional outbox: every change writes its domain event in the same transaction as the change.
-- The public id is evt_ followed by the hex of id.
create table events (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  type text not null,
  data jsonb not null,
  created_at timestamptz(3) not null,
  primary key (company_id, id)
);
create index events_company_created on events (company_id, created_at, id);
