import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';

/**
 * Claims a key for a request atomically: a new key, an expired one, or an in-flight one whose lease ended (with
 * the same fingerprint) is (re)claimed. False when another request holds it or it has a stored answer.
 */
export async function claimIdempotencyKey(
  db: Executor,
  companyId: string,
  key: string,
  fingerprint: string,
  at: { now: Date; lockedUntil: Date; expiresAt: Date },
): Promise<boolean> {
  const claimed = await sql<{ claimed: boolean }>`
    insert into idempotency_keys as i
      (company_id, idempotency_key, fingerprint, state, locked_until, created_at, expires_at)
    values (${companyId}, ${key}, ${fingerprint}, 'in_flight', ${at.lockedUntil}, ${at.now}, ${at.expiresAt})
    on conflict (company_id, idempotency_key) do update
      set fingerprint = excluded.fingerprint, state = 'in_flight', locked_until = excluded.locked_until,
          created_at = excluded.created_at, expires_at = excluded.expires_at,
          response_status = null, response_headers = null, response_body = null
      where i.expires_at <= ${at.now}
         or (i.state = 'in_flight' and i.locked_until <= ${at.now} and i.fingerprint = excluded.fingerprint)
    returning true as claimed`.execute(db);
  return claimed.rows.length > 0;
}

export async function findIdempotencyRecord(db: Executor, companyId: string, key: string) {
  return await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'state', 'response_status', 'response_headers', 'response_body'])
    .where('company_id', '=', companyId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

/** Renews the lease of a claim still in flight (its node is alive and the request runs). */
export async function renewIdempotencyLease(
  db: Executor,
  companyId: string,
  key: string,
  lockedUntil: Date,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ locked_until: lockedUntil })
    .where('company_id', '=', companyId)
    .where('idempotency_key', '=', key)
    .where('state', '=', 'in_flight')
    .execute();
}

/** Forgets a claim (the answer is not stored: the client may fix the request and retry). */
export async function releaseIdempotencyKey(db: Executor, companyId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('company_id', '=', companyId)
    .where('idempotency_key', '=', key)
    .execute();
}

export async function completeIdempotencyKey(
  db: Executor,
  companyId: string,
  key: string,
  answer: { status: number; headers: string; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      state: 'completed',
      locked_until: null,
      response_status: answer.status,
      response_headers: answer.headers,
      response_body: answer.body,
    })
    .where('company_id', '=', companyId)
    .where('idempotency_key', '=', key)
    .execute();
}

/** Maintenance: records past their 24 hours, across tenants. */
export async function deleteExpiredIdempotencyRecords(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('expires_at', '<', now).execute();
}
