import { type Insertable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { RequestLogTable } from '../../db/schema.ts';

/** How many requests a sandbox's log keeps. */
export const REQUEST_LOG_SIZE = 100;

/** Records a request, then drops the sandbox's requests beyond the last REQUEST_LOG_SIZE. */
export async function appendRequest(db: Executor, row: Insertable<RequestLogTable>): Promise<void> {
  await db.insertInto('request_log').values(row).execute();
  await sql`
    delete from request_log
    where company_id = ${row.company_id}
      and id < (select id from request_log where company_id = ${row.company_id}
                order by id desc offset ${REQUEST_LOG_SIZE - 1} limit 1)`.execute(db);
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
