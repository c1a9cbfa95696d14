-- Issue 19 (decision 0021): which tenants have new first attempts, without a probe per tenant. A claim used to
-- probe every tenant's cursor for deliveries after it; on a table holding 30 days of deliveries PostgreSQL turned
-- that into a scan of the whole table at every claim (about 30 ms with 200,000 finished rows and nothing due).
-- Now each transaction whose fan-out makes deliveries also writes one row here: its tenant and the greatest id it
-- made (it is never updated, so concurrent transactions of one tenant do not wait for each other). A claim finds
-- the tenants with new work by a loose scan of this table's key, and deletes a tenant's rows once its cursor has
-- passed their last id (or, when nothing of the tenant is left to take below the sync horizon, those before it).
create table webhook_new_deliveries (
  company_id uuid not null references companies (id) on delete cascade,
  last_id uuid not null,
  primary key (company_id, last_id)
);

-- The first attempts made since migration 0031, not yet claimed.
insert into webhook_new_deliveries (company_id, last_id)
select c.company_id, n.last_id
from webhook_delivery_cursors c
cross join lateral (
  select d.id as last_id from webhook_deliveries d
  where d.company_id = c.company_id and d.id > c.after_id and d.status = 'pending' and d.next_attempt_at is null
  order by d.id desc limit 1
) n;
