import { type RawBuilder, sql } from 'kysely';
import type { Db, Executor } from './database.ts';

/**
 * A delivery with a due time that has come and no live lease (a retry, a manual retry, a ping, a first attempt
 * whose claim ended; migrations 0028, 0031): what a claim leases on its row. The `next_attempt_at is not null`
 * lets PostgreSQL read webhook_deliveries_retry. `table` is the name or alias the statement gives
 * webhook_deliveries.
 */
export function leaseDue(table: string, at: Date): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  return sql<boolean>`${column('next_attempt_at')} is not null and ${column('next_attempt_at')} <= ${at}
    and (${column('leased_until')} is null or ${column('leased_until')} <= ${at})`;
}

/**
 * A first attempt not yet recorded (migration 0031): pending, with no due time, taken through its tenant's
 * cursor and fenced by its claim. `table` as in leaseDue.
 */
export function awaitingFirstAttempt(table: string): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${table}.${name}`);
  return sql<boolean>`${column('status')} = 'pending' and ${column('next_attempt_at')} is null`;
}

/**
 * What the two work queues have due now, across every company (for the operator's metrics): how many items,
 * and how many seconds the oldest has waited past its due time, at the service clock's `now`. They read the
 * partial indexes of due work and, for first attempts, the deliveries after the cursor of each tenant with new
 * ones.
 */
export async function dueWork(
  db: Db,
  now: Date,
): Promise<Array<{ queue: string; due: string; oldest: string | null }>> {
  const result = await sql<{ queue: string; due: string; oldest: string | null }>`
    select 'webhook_deliveries' as queue, count(*)::text as due,
           extract(epoch from ${now}::timestamptz - min(due_at))::text as oldest
      from (
        -- Retries and attempts whose lease ended, due at next_attempt_at (leased on their row, migration 0028)
        select d.next_attempt_at as due_at from webhook_deliveries d where ${leaseDue('d', now)}
        union all
        -- First attempts not yet claimed, due since they were made: after the cursor of a tenant with new ones
        -- (migrations 0031, 0032)
        select d.created_at
        from (select distinct company_id from webhook_new_deliveries) n
        join webhook_delivery_cursors c on c.company_id = n.company_id
        cross join lateral (
          select d.created_at from webhook_deliveries d
          where d.company_id = c.company_id and d.id > c.after_id and ${awaitingFirstAttempt('d')}
          offset 0
        ) d
      ) due
    union all
    select 'reports', count(*)::text, extract(epoch from ${now}::timestamptz - min(run_at))::text
      from reports where status = 'processing' and run_at <= ${now}`.execute(db);
  return result.rows;
}

/**
 * Queues sealed documents to make (migration 0038; modules/month-documents makes them): a worker's month version,
 * or (employee null) a new edition of the company's CSV. Here, below the modules, because the registry queues them
 * at a close and the module that makes them depends on the registry.
 */
export async function insertDocumentWork(
  db: Executor,
  rows: ReadonlyArray<{
    id: string;
    company_id: string;
    employee_id: string | null;
    month: string;
    version: number;
    created_at: Date;
  }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('registry_document_work')
    .values([...rows])
    .execute();
}
