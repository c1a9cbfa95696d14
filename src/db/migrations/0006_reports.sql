-- Reports: generated files (the monthly time registry, check-in exports). The report row is the job: workers claim
-- due rows with FOR UPDATE SKIP LOCKED. The file lives in the report store (the filesystem by default).
create table reports (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  type text not null check (type in ('time_registry_monthly', 'check_ins_export')),
  format text not null check (format in ('csv', 'xlsx')),
  params jsonb not null,
  status text not null check (status in ('processing', 'completed', 'failed', 'expired')),
  -- Generation attempts started. A claim increments it; it fences a stale worker's late completion.
  attempts integer not null default 0,
  -- While processing: when generation is due, or, while a worker generates, when its lease ends.
  run_at timestamptz(3),
  storage_key text,
  row_count bigint,
  error_code text,
  error_message text,
  created_at timestamptz(3) not null,
  updated_at timestamptz(3) not null,
  completed_at timestamptz(3),
  -- When the file is deleted (completed_at + 7 days); the report then answers status expired.
  file_expires_at timestamptz(3),
  primary key (company_id, id),
  check ((status = 'processing') = (run_at is not null))
);
-- The signed download finds its report by id alone: the signature is the credential, before any tenancy.
create unique index reports_id on reports (id);
-- The generation queue and the retention sweep, across tenants.
create index reports_due on reports (run_at) where status = 'processing';
create index reports_retention on reports (file_expires_at) where status = 'completed';

-- Used download nonces: a signed URL is single use. The row is inserted on first use (atomically), so a second
-- use, even concurrent, finds it.
create table report_downloads (
  company_id uuid not null,
  report_id uuid not null,
  nonce text not null,
  used_at timestamptz(3) not null,
  url_expires_at timestamptz(3) not null,
  primary key (company_id, report_id, nonce),
  foreign key (company_id, report_id) references reports (company_id, id) on delete cascade
);
-- Used nonces are swept once their URL has expired anyway.
create index report_downloads_url_expires on report_downloads (url_expires_at);
