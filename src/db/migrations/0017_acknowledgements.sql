-- The worker's acknowledgement of a closed month's registry (issue 16, docs/registry.md): once per worker and
-- month, never withdrawn; it is a chain entry too.
create table registry_acknowledgements (
  company_id uuid not null,
  employee_id uuid not null,
  month date not null check (extract(day from month) = 1),
  acknowledged_at timestamptz(3) not null,
  primary key (company_id, month, employee_id),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);
create trigger registry_acknowledgements_append_only before update or delete on registry_acknowledgements
  for each row execute function jornada_registry_append_only();
