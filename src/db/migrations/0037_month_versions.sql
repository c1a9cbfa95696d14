-- Issue 34: a correction applied into a closed month makes a new version of the affected worker's month (what
-- changed and why: the correction), keeps the earlier one, and asks the worker to acknowledge again. Version 1 is
-- the month as it closed; each later version is a row here (append-only, and a chain entry).
create table registry_month_versions (
  company_id uuid not null,
  employee_id uuid not null,
  month date not null check (extract(day from month) = 1),
  version integer not null check (version >= 2),
  -- What made it: the applied correction, or the check-in the worker answered.
  cause_id uuid not null,
  reason text not null,
  created_at timestamptz(3) not null,
  primary key (company_id, employee_id, month, version),
  foreign key (company_id, employee_id) references employees (company_id, id)
);
create trigger registry_month_versions_append_only before update or delete on registry_month_versions
  for each row execute function jornada_registry_append_only();

-- An acknowledgement is of one version of the month; a worker acknowledges each new version again.
alter table registry_acknowledgements add column version integer not null default 1 check (version >= 1);
alter table registry_acknowledgements drop constraint registry_acknowledgements_pkey;
alter table registry_acknowledgements add primary key (company_id, month, employee_id, version);
