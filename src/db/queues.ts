import { sql } from 'kysely';
import type { Db } from './database.ts';

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
      from webhook_deliveries where status = 'pending' and next_attempt_at <= ${now}
        and (leased_until is null or leased_until <= ${now})
    union all
    select 'reports', count(*)::text, extract(epoch from ${now}::timestamptz - min(run_at))::text
      from reports where status = 'processing' and run_at <= ${now}`.execute(db);
  return result.rows;
}
