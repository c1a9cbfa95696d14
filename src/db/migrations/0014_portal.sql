-- The workers' portal (issue 15, docs/registry.md): invitations, worker accounts and their sessions.

-- A single-use link the company gives a worker to set a password. Only the token's SHA-256 is stored.
create table portal_invitations (
  company_id uuid not null,
  id uuid not null,
  employee_id uuid not null,
  token_hash bytea not null,
  created_by_type text not null check (created_by_type in ('api_key', 'admin', 'system')),
  created_by_id text not null,
  created_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  used_at timestamptz(3),
  primary key (company_id, id),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);
create unique index portal_invitations_token_hash on portal_invitations (token_hash);
create index portal_invitations_company_employee on portal_invitations (company_id, employee_id);

-- A worker's login. The email is the employee's at acceptance, unique across the deployment (a login names no
-- company).
create table portal_accounts (
  company_id uuid not null,
  employee_id uuid not null,
  email_key text not null,
  password_hash text not null,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, employee_id),
  foreign key (company_id, employee_id) references employees (company_id, id) on delete cascade
);
create unique index portal_accounts_email_key on portal_accounts (email_key);

create table portal_sessions (
  company_id uuid not null,
  id uuid not null,
  employee_id uuid not null,
  token_hash bytea not null,
  csrf_token text not null,
  created_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  primary key (company_id, id),
  foreign key (company_id, employee_id) references portal_accounts (company_id, employee_id) on delete cascade
);
create unique index portal_sessions_token_hash on portal_sessions (token_hash);
create index portal_sessions_expires_at on portal_sessions (expires_at);
