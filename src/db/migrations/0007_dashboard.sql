-- Company administrators (dashboard users) and their sessions.
create table company_admins (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  email text not null,
  -- lower(email): an administrator logs in with an email alone, so it is unique across the deployment.
  email_key text not null,
  -- scrypt$N$r$p$salt$hash (base64url), see src/modules/admins/password.ts.
  password_hash text not null,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id)
);
-- Login finds the administrator by email before any tenancy is known.
create unique index company_admins_email_key on company_admins (email_key);

create table dashboard_sessions (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  admin_id uuid not null,
  -- SHA-256 of the cookie's random token; the token itself is never stored.
  token_hash bytea not null,
  -- Sent back by the dashboard in X-CSRF-Token on every state-changing call.
  csrf_token text not null,
  created_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  primary key (company_id, id),
  foreign key (company_id, admin_id) references company_admins (company_id, id) on delete cascade
);
-- The cookie is the lookup that precedes tenancy, like an API key's hash.
create unique index dashboard_sessions_token_hash on dashboard_sessions (token_hash);
-- The expiry sweep runs across tenants.
create index dashboard_sessions_expires_at on dashboard_sessions (expires_at);
