-- Read-only access to the registry for the Inspección and the workers' representatives (issue 16,
-- docs/registry.md): a grant is a secret link (only its SHA-256 is kept), and every use of it is logged.
create table registry_access_grants (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  kind text not null check (kind in ('inspection', 'representatives')),
  label text not null check (char_length(label) between 1 and 200),
  from_date date not null,
  to_date date not null,
  employee_ids uuid[],
  token_hash bytea not null,
  created_by_type text not null check (created_by_type in ('api_key', 'admin', 'system')),
  created_by_id text not null,
  created_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  revoked_at timestamptz(3),
  primary key (company_id, id),
  check (to_date >= from_date)
);
create unique index registry_access_grants_token_hash on registry_access_grants (token_hash);
create index registry_access_grants_company_created on registry_access_grants (company_id, created_at, id);

create table registry_accesses (
  company_id uuid not null,
  id uuid not null,
  grant_id uuid not null,
  at timestamptz(3) not null,
  ip text not null,
  what text not null,
  outcome text not null check (outcome in ('ok', 'revoked', 'expired')),
  primary key (company_id, id),
  foreign key (company_id, grant_id) references registry_access_grants (company_id, id) on delete cascade
);
create index registry_accesses_company_grant on registry_accesses (company_id, grant_id, at, id);
