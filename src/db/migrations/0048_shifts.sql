-- jornada: expand-only
-- Issue 38: planned time. A shift is dated, with local start and end times in the employee's zone of its date (an
-- end at or before the start ends the next day), a break, a kind (work, or on-call availability) and a status:
-- a draft is the planner's, a published shift is the worker's, and only published shifts plan expected minutes.
create table shift_templates (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null,
  start_time text not null check (start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  end_time text not null check (end_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  break_minutes integer not null default 0 check (break_minutes >= 0),
  kind text not null default 'work' check (kind in ('work', 'on_call')),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id)
);
create index shift_templates_company_updated on shift_templates (company_id, updated_at, id);

create table shifts (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  employee_id uuid not null,
  date date not null,
  start_time text not null check (start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  end_time text not null check (end_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  break_minutes integer not null default 0 check (break_minutes >= 0),
  -- The work it plans, computed when written in the employee's zone of its date: end − start − break (0 on call).
  planned_minutes integer not null check (planned_minutes >= 0),
  location_id uuid,
  work_mode text check (work_mode in ('on_site', 'remote')),
  kind text not null default 'work' check (kind in ('work', 'on_call')),
  status text not null check (status in ('draft', 'published')),
  note text,
  template_id uuid,
  -- Its end as an instant, computed when written in the employee's zone of its date: a shift still open 4 hours
  -- after a published end is a probable missed clock-out.
  ends_at timestamptz(3) not null,
  published_at timestamptz(3),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  foreign key (company_id, employee_id) references employees (company_id, id),
  foreign key (company_id, location_id) references locations (company_id, id)
);
-- An employee's shifts by date (consolidation, overlaps, the portal); the planner's week by date; sync listings.
create index shifts_company_employee_date on shifts (company_id, employee_id, date);
create index shifts_company_date on shifts (company_id, date);
create index shifts_company_updated on shifts (company_id, updated_at, id);

-- A rota pattern: a cycle of days, each a template or rest (null), applied to employees from a date.
create table rota_patterns (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null,
  cycle jsonb not null check (jsonb_typeof(cycle) = 'array'),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id)
);
create index rota_patterns_company_updated on rota_patterns (company_id, updated_at, id);

-- When the worker last looked at their shifts in the portal: a published change after it is a badge.
alter table employees add column shifts_seen_at timestamptz(3);

-- Legal-limit alerts (issue 38): what the rules of src/time/compliance.ts find in an employee's record, kept
-- current by the owner of day writes for the dates each write reaches. One alert per employee, date and rule.
create table compliance_alerts (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  employee_id uuid not null,
  date date not null,
  rule text not null,
  minutes integer not null,
  limit_minutes integer not null,
  law text not null,
  status text not null default 'open' check (status in ('open', 'acknowledged')),
  acknowledged_at timestamptz(3),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  unique (company_id, employee_id, date, rule),
  foreign key (company_id, employee_id) references employees (company_id, id)
);
create index compliance_alerts_company_updated on compliance_alerts (company_id, updated_at, id);
create index compliance_alerts_company_status_date on compliance_alerts (company_id, status, date);

-- A worker to tell, by e-mail, that their published shifts changed (issue 38): one row per worker, however many
-- shifts changed, due a short while after the last change so that a week's planning is one message.
create table shift_notices (
  company_id uuid not null references companies (id) on delete cascade,
  employee_id uuid not null,
  due_at timestamptz(3) not null,
  primary key (company_id, employee_id),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);
create index shift_notices_due on shift_notices (due_at);
