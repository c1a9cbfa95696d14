import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { RequestLogTable } from '../../db/schema.ts';

/** How many requests a sandbox's log keeps. */
export const REQUEST_LOG_SIZE = 100;

/**
 * Records a request and drops the sandbox's requests beyond the last REQUEST_LOG_SIZE, in one statement: the
 * delete does not see the row the same statement inserts, so it keeps the newest REQUEST_LOG_SIZE - 1 before it.
 */
export async function appendRequest(db: Executor, row: Insertable<RequestLogTable>): Promise<void> {
  await db
    .with('added', (query) => query.insertInto('request_log').values(row).returning('id'))
    .deleteFrom('request_log')
    .where('company_id', '=', row.company_id)
    .where('id', '<', (eb) =>
      eb
        .selectFrom('request_log')
        .select('id')
        .where('company_id', '=', row.company_id)
        .orderBy('id', 'desc')
        .offset(REQUEST_LOG_SIZE - 2)
        .limit(1),
    )
    .execute();
}

/** A sandbox's logged requests, newest first. */
export async function selectRequests(db: Executor, companyId: string) {
  return await db
    .selectFrom('request_log')
    .select(['id', 'at', 'api_key_id', 'method', 'path', 'status', 'duration_ms', 'request_id'])
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    .limit(REQUEST_LOG_SIZE)
    .execute();
}
