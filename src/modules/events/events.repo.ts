import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/**
 * Inserts events into the outbox and, in the same statement, one pending delivery (due now) per event and active
 * webhook endpoint of the tenant subscribed to its type.
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
    )
    insert into webhook_deliveries
      (company_id, id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
    select endpoint.company_id, uuidv7(), endpoint.id, recorded.id, 'pending', ${now}, ${now}, ${now}
    from recorded
    join webhook_endpoints endpoint
      on endpoint.company_id = ${companyId} and endpoint.status = 'active' and recorded.type = any (endpoint.events)
  `.execute(db);
}
