import { type RawBuilder, sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * When a webhook delivery is due at `at` (migration 0028): pending, its next attempt's time has come, and no
 * attempt holds a live lease on it. The claim and the metrics read it; `table` is the name or alias the
 * statement gives webhook_deliveries.
 */
export function deliveryDue(table: string, at: Date): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  return sql<boolean>`${column('status')} = 'pending' and ${column('next_attempt_at')} <= ${at}
    and (${column('leased_until')} is null or ${column('leased_until')} <= ${at})`;
}

/**
 * What the two work queues have due now, across every company (for the operator's metrics): how many items,
 * and how many seconds the oldest has waited past its due time, at the service clock's `now`. Both read the
 * partial "due" indexes.
 */
export async function dueWork(
  db: Db,
  now: Date,
): Promise<Array<{ queue: string; due: string; oldest: string | null }>> {
  const result = await sql<{ queue: string; due: string; oldest: string | null }>`
    select 'webhook_deliveries' as queue, count(*)::text as due,
           extract(epoch from ${now}::timestamptz - min(next_attempt_at))::text as oldest
      from webhook_deliveries where ${deliveryDue('webhook_deliveries', now)}
    union all
    select 'reports', count(*)::text, extract(epoch from ${now}::timestamptz - min(run_at))::text
      from reports where status = 'processing' and run_at <= ${now}`.execute(db);
  return result.rows;
}
