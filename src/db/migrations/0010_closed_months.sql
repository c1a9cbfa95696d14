-- Closed months (issue 15, docs/registry.md): once a month is closed, nothing changes its figures but an applied
-- correction. A closing is itself a registry fact (a chain entry per employee) and is never undone.
create table registry_months (
  company_id uuid not null references companies (id) on delete cascade,
  month date not null check (extract(day from month) = 1),
  closed_at timestamptz(3) not null,
  closed_by_type text not null check (closed_by_type in ('api_key', 'admin', 'employee', 'system')),
  closed_by_id text not null,
  primary key (company_id, month)
);
create trigger registry_months_append_only before update or delete on registry_months
  for each row execute function jornada_registry_append_only();
