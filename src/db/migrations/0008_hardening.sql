-- Retention: finished deliveries and old events are swept in batches by the maintenance job.
-- Cross-tenant by design, like every sweep (docs/architecture.md).
create index webhook_deliveries_retention on webhook_deliveries (updated_at) where status <> 'pending';
create index events_retention on events (created_at);
-- An event's deliveries: the sweep keeps an event while any delivery of it is left, and deleting an event
-- cascades to its deliveries through this foreign key.
create index webhook_deliveries_company_event on webhook_deliveries (company_id, event_id);

-- The per-tenant delivery queue, for claims that take turns across tenants.
create index webhook_deliveries_company_due on webhook_deliveries (company_id, next_attempt_at)
  where status = 'pending';
-- The per-tenant report queue: the cap on pending reports and the fair claim read it.
create index reports_company_due on reports (company_id, run_at) where status = 'processing';

-- Whose turn it is in a shared queue: the last time a tenant's work was claimed. The oldest turn goes first.
create table queue_turns (
  queue text not null,
  company_id uuid not null references companies (id) on delete cascade,
  last_claimed_at timestamptz(3) not null,
  primary key (queue, company_id)
);

-- Failed logins (dashboard, and the workers' portal later), by subject: 'email:<address>' or 'ip:<address>'.
-- Login precedes tenancy, so the table is cross-tenant; rows older than the throttling window are swept.
create table login_failures (
  subject text not null,
  failed_at timestamptz(3) not null
);
create index login_failures_subject on login_failures (subject, failed_at);
create index login_failures_failed_at on login_failures (failed_at);
