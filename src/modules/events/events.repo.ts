import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { NIL_ID } from '../../platform/ids.ts';

/**
 * Inserts events into the outbox and, in the same statement, one pending delivery (due now) per event and active
 * webhook endpoint of the tenant subscribed to its type. `now` is the transaction's sync stamp: each delivery's id
 * is a UUIDv7 at or after it (PostgreSQL's uuidv7, shifted from its clock to the stamp), so the claim's cursor
 * can end at the sync horizon (migration 0031); with no next_attempt_at, the delivery is due through the cursor.
 * The greatest id made is recorded for the claim to find the tenant (webhook_new_deliveries, migration 0032).
 */
export async function insertEventsWithDeliveries(
  db: Executor,
  companyId: string,
  now: Date,
  events: Array<{ id: string; type: string; data: unknown }>,
): Promise<void> {
  await sql`
    with recorded as (
      insert into events (company_id, id, type, data, created_at)
      select ${companyId}, event.id, event.type, event.data, ${now}
      from unnest(${events.map((event) => event.id)}::uuid[], ${events.map((event) => event.type)}::text[],
                  ${events.map((event) => JSON.stringify(event.data))}::jsonb[]) as event (id, type, data)
      returning id, type
    ), made as (
      insert into webhook_deliveries
        (company_id, id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
      select endpoint.company_id, uuidv7(${now}::timestamptz - clock_timestamp()), endpoint.id, recorded.id,
             'pending', null, ${now}, ${now}
      from recorded
      join webhook_endpoints endpoint
        on endpoint.company_id = ${companyId} and endpoint.status = 'active' and recorded.type = any (endpoint.events)
      returning company_id, id
    ), cursor as (
      -- The tenant's cursor is made with its first endpoint, so that fan-outs only read its key here. This only
      -- makes sure, since deliveries without a cursor would never be claimed. (Made here alone, it would be an
      -- uncommitted insert that the tenant's concurrent fan-outs wait for.)
      insert into webhook_delivery_cursors (company_id, after_id)
      select distinct company_id, ${NIL_ID}::uuid from made
      on conflict (company_id) do nothing
    )
    -- The claim finds the tenants with new first attempts here (migration 0032).
    insert into webhook_new_deliveries (company_id, last_id)
    select company_id, (array_agg(id order by id desc))[1] from made group by company_id
  `.execute(db);
}

/** Deletes up to `batch` events created before `before` that have no delivery left; returns how many. */
export async function deleteEventsWithoutDeliveries(
  db: Executor,
  before: Date,
  batch: number,
): Promise<number> {
  const result = await sql`
    delete from events e using (
      select o.company_id, o.id from events o
      where o.created_at < ${before}
        and not exists (select from webhook_deliveries d where d.company_id = o.company_id and d.event_id = o.id)
      order by o.created_at
      limit ${batch}
    ) old
    where e.company_id = old.company_id and e.id = old.id`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
