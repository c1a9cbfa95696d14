-- jornada: expand-only
-- Issue 41: payroll variables. A company's concept maps say how the `payroll_variables` report is laid out for
-- its payroll program: the code of each concept, the worker identifier, the columns and their headers.
create table payroll_concept_maps (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null,
  preset text not null check (preset in ('generic')),
  worker_identifier text not null check (worker_identifier in ('external_id', 'national_id', 'naf')),
  codes jsonb not null default '{}',
  absence_codes jsonb not null default '{}',
  columns jsonb not null,
  headers jsonb not null default '{}',
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id)
);
-- The sync listing (GET /v1/payroll/concept-maps): by updated_at, then id.
create index payroll_concept_maps_sync on payroll_concept_maps (company_id, updated_at, id);

-- The new report type. Widening the check is expand-only: the previous release never writes it.
alter table reports drop constraint reports_type_check;
alter table reports add constraint reports_type_check
  check (type in ('time_registry_monthly', 'check_ins_export', 'time_registry_worker_monthly', 'payroll_variables'));

-- Issue 41: who listens to a sandbox's event feed (`jornada listen`): each caller's last poll, so that a sample
-- event can say how many listeners will forward it. One row per caller, updated by each poll.
create table sandbox_listeners (
  company_id uuid not null references companies (id) on delete cascade,
  listener text not null,
  last_poll_at timestamptz(3) not null,
  primary key (company_id, listener)
);
