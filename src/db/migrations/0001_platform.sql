-- Platform foundation: companies (tenants), API keys, rate-limit and quota counters, idempotency records,
-- instance settings, and the organisation data created through the admin API.
--
-- Conventions
-- * Every timestamp is timestamptz(3) and is written by the application from its Clock (never now()),
--   so fake-clock deployments and keyset cursors agree to the millisecond.
-- * Tenant-data tables are keyed (company_id, id); foreign keys between them are composite, so a row can never
--   point at another company's row. Every index of a tenant-data table leads with company_id. The few
--   cross-tenant indexes are listed in docs/architecture.md and checked by test/schema.test.ts.

create table instance_settings (
  name text primary key,
  value text not null
);

create table companies (
  id uuid primary key,
  -- Set on a sandbox company: the live company it belongs to. A live company has exactly one sandbox.
  sandbox_of uuid references companies (id) on delete cascade,
  name text not null check (length(name) between 1 and 200),
  timezone text not null,
  seats integer not null check (seats >= 0),
  default_expiration_days integer check (default_expiration_days > 0),
  max_active_keys integer not null default 10 check (max_active_keys >= 0),
  company_status text not null default 'active'
    check (company_status in ('active', 'suspended', 'archived')),
  subscription_status text not null default 'active'
    check (subscription_status in ('active', 'trialing', 'trial_expired', 'suspended', 'canceled', 'expired', 'none')),
  addon_enabled boolean not null default true,
  vacation_carry_over_max_days numeric(6, 1) not null default 0 check (vacation_carry_over_max_days >= 0),
  vacation_carry_over_expiry text not null default '03-31' check (vacation_carry_over_expiry ~ '^\d\d-\d\d$'),
  -- Kept incrementally by the employee service; feeds the seat check and the live monthly quota.
  active_employee_count integer not null default 0 check (active_employee_count >= 0),
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create unique index companies_sandbox_of_key on companies (sandbox_of);

create table api_keys (
  id uuid primary key,
  -- The tenant the key acts on: the live company for live keys, its sandbox for test keys.
  company_id uuid not null references companies (id) on delete cascade,
  mode text not null check (mode in ('live', 'test')),
  name text,
  scopes text[] not null,
  secret_hash bytea not null,
  secret_prefix text not null,
  expires_at timestamptz(3),
  revoked_at timestamptz(3),
  revoked_reason text,
  last_used_at timestamptz(3),
  last_used_ip text,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null
);
create unique index api_keys_secret_hash_key on api_keys (secret_hash);
create index api_keys_company_updated on api_keys (company_id, updated_at, id);

-- Fixed one-minute windows per key. A row per key and minute; old rows are swept by the maintenance job.
create table rate_limit_windows (
  company_id uuid not null,
  api_key_id uuid not null,
  window_start timestamptz(0) not null,
  request_count integer not null,
  primary key (company_id, api_key_id, window_start)
);

-- Monthly quota per tenant and calendar month (UTC).
create table quota_usage (
  company_id uuid not null,
  month date not null,
  request_count integer not null,
  primary key (company_id, month)
);

create table idempotency_keys (
  company_id uuid not null references companies (id) on delete cascade,
  idempotency_key text not null,
  fingerprint text not null,
  state text not null check (state in ('in_flight', 'completed')),
  -- An in-flight record whose request died is taken over after this instant.
  locked_until timestamptz(3),
  response_status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz(3) not null,
  expires_at timestamptz(3) not null,
  primary key (company_id, idempotency_key)
);
-- Retention sweep across tenants (a documented exception to company_id-first indexes).
create index idempotency_keys_expires_at on idempotency_keys (expires_at);

create table locations (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null,
  timezone text not null,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id)
);
create index locations_company_updated on locations (company_id, updated_at, id);

create table units (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  name text not null,
  parent_id uuid,
  location_id uuid,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  foreign key (company_id, parent_id) references units (company_id, id),
  foreign key (company_id, location_id) references locations (company_id, id)
);
create index units_company_updated on units (company_id, updated_at, id);

create table absence_types (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  key text not null,
  label text not null,
  built_in boolean not null default false,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  unique (company_id, key)
);

create table holidays (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  date date not null,
  name text not null,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  primary key (company_id, id),
  unique (company_id, date)
);

-- Admits one request for a key: counts it in the key's minute window and the tenant's monthly quota, in one
-- round trip. The conditional upserts make a burst of concurrent requests admit exactly the limit. A request
-- refused by the quota gives its window slot back, so refused requests consume neither.
create function jornada_admit_request(
  p_company_id uuid, p_api_key_id uuid, p_window_start timestamptz, p_rate_limit integer,
  p_month date, p_quota integer, p_now timestamptz, p_ip text,
  out outcome text, out window_count integer, out quota_count integer
) language plpgsql as $$
begin
  insert into rate_limit_windows as w (company_id, api_key_id, window_start, request_count)
  values (p_company_id, p_api_key_id, p_window_start, 1)
  on conflict (company_id, api_key_id, window_start)
  do update set request_count = w.request_count + 1 where w.request_count < p_rate_limit
  returning w.request_count into window_count;

  if window_count is null then
    outcome := 'rate_limited';
    window_count := p_rate_limit;
    select coalesce((select q.request_count from quota_usage q
                     where q.company_id = p_company_id and q.month = p_month), 0) into quota_count;
    return;
  end if;

  insert into quota_usage as q (company_id, month, request_count)
  values (p_company_id, p_month, 1)
  on conflict (company_id, month)
  do update set request_count = q.request_count + 1 where q.request_count < p_quota
  returning q.request_count into quota_count;

  if quota_count is null then
    update rate_limit_windows w set request_count = w.request_count - 1
    where w.company_id = p_company_id and w.api_key_id = p_api_key_id and w.window_start = p_window_start
    returning w.request_count into window_count;
    outcome := 'quota_exceeded';
    quota_count := p_quota;
    return;
  end if;

  -- Usage is recorded at most once a minute per key (or when the address changes) to keep writes cheap.
  update api_keys k set last_used_at = p_now, last_used_ip = p_ip
  where k.id = p_api_key_id
    and (k.last_used_at is null or k.last_used_at < p_now - interval '1 minute'
         or k.last_used_ip is distinct from p_ip);
  outcome := 'admitted';
end;
$$;
