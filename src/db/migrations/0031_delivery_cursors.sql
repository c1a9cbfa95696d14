-- Issue 19: a delivery's first attempt is claimed by a per-tenant cursor over the deliveries' ids, not by a lease
-- written on each row, and its success is a heap-only update (docs/performance.md, "Ninth session";
-- docs/architecture.md, "Webhook delivery").
-- - A delivery made by an event's fan-out has no next_attempt_at: it is due at once, in the order of its id (a
--   UUIDv7 at or after its transaction's sync stamp, src/db/sync-stamp.ts). webhook_delivery_cursors keeps, per
--   tenant, the last id a claim took; a claim takes the pending deliveries after it, up to the sync horizon (no
--   transaction still running can add one before that), and moves the cursor.
-- - webhook_claims: one row per claim of such deliveries, the range of ids it took and its lease. It is the
--   attempts' fence: an outcome is recorded only while its claim is there. The worker deletes it when every
--   delivery it took has an outcome; a claim whose lease ends first is deleted by the next claim, and its
--   deliveries still pending are counted as attempted and due at once (next_attempt_at).
-- - A delivery with a next_attempt_at (a retry, a manual retry, a delivery whose claim ended) is claimed as
--   before, with a lease on its row. webhook_deliveries_retry replaces webhook_deliveries_company_due: its
--   predicate reads next_attempt_at, not status, so a first attempt's success changes no indexed column.
-- - fillfactor 25: a success's new row version (with the request's headers) fits on the row's page, so it is
--   written as a heap-only update, with no new index entries. The table takes about twice the pages it took at 50.
alter table webhook_deliveries drop constraint webhook_deliveries_check;
alter table webhook_deliveries add constraint webhook_deliveries_next_attempt_check
  check (status = 'pending' or next_attempt_at is null);
create index webhook_deliveries_retry on webhook_deliveries (company_id, next_attempt_at)
  where next_attempt_at is not null;
drop index webhook_deliveries_company_due;
alter table webhook_deliveries set (fillfactor = 25);

create table webhook_delivery_cursors (
  company_id uuid primary key references companies (id) on delete cascade,
  -- The last delivery id a claim took; the next claim starts after it.
  after_id uuid not null
);
-- The deliveries made so far keep their next_attempt_at: the cursors start after them.
insert into webhook_delivery_cursors (company_id, after_id)
select w.company_id,
       coalesce((select d.id from webhook_deliveries d where d.company_id = w.company_id order by d.id desc limit 1),
                '00000000-0000-0000-0000-000000000000')
from (select distinct company_id from webhook_endpoints) w;

create table webhook_claims (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  -- The tenant's delivery ids the claim took: every pending delivery without next_attempt_at in the range.
  first_id uuid not null,
  last_id uuid not null,
  claimed_at timestamptz(3) not null,
  leased_until timestamptz(3) not null,
  primary key (company_id, id),
  check (first_id <= last_id)
);
-- A delivery's claim, for the API's view of an attempt in flight.
create index webhook_claims_company_range on webhook_claims (company_id, first_id);
