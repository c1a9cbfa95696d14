import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { CompanyStatus, KeyMode, SubscriptionStatus } from '../db/schema.ts';

export type KeyRecord = {
  api_key_id: string;
  company_id: string;
  account_id: string;
  mode: KeyMode;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  sandbox: boolean;
  timezone: string;
  active_employee_count: number;
  company_status: CompanyStatus;
  subscription_status: SubscriptionStatus;
  addon_enabled: boolean;
};

/**
 * The one lookup that precedes tenancy: by the SHA-256 of the presented secret (a global unique index).
 * Service state and settings come from the account (the live company); a sandbox shares its account's.
 */
export async function findKeyBySecretHash(db: Db, secretHash: Buffer): Promise<KeyRecord | undefined> {
  return await db
    .selectFrom('api_keys as k')
    .innerJoin('companies as t', 't.id', 'k.company_id')
    .innerJoin('companies as a', (join) => join.on('a.id', '=', sql`coalesce(t.sandbox_of, t.id)`))
    .select([
      'k.id as api_key_id',
      'k.company_id',
      'a.id as account_id',
      'k.mode',
      'k.scopes',
      'k.expires_at',
      'k.revoked_at',
      sql<boolean>`t.sandbox_of is not null`.as('sandbox'),
      'a.timezone',
      't.active_employee_count',
      'a.company_status',
      'a.subscription_status',
      'a.addon_enabled',
    ])
    .where('k.secret_hash', '=', secretHash)
    .executeTakeFirst();
}

export type Admission = {
  outcome: 'admitted' | 'rate_limited' | 'quota_exceeded';
  window_count: number;
  quota_count: number;
};

export async function admitRequest(
  db: Db,
  input: {
    companyId: string;
    apiKeyId: string;
    windowStart: Date;
    rateLimit: number;
    month: string;
    quota: number;
    now: Date;
    ip: string;
  },
): Promise<Admission> {
  const result = await sql<Admission>`
    select outcome, window_count, quota_count from jornada_admit_request(
      ${input.companyId}::uuid, ${input.apiKeyId}::uuid, ${input.windowStart}::timestamptz, ${input.rateLimit}::int,
      ${input.month}::date, ${input.quota}::int, ${input.now}::timestamptz, ${input.ip}::text)`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('jornada_admit_request returned no row');
  return row;
}

/** Current usage without counting a request (for refusals answered before admission). */
export async function peekUsage(
  db: Db,
  input: { companyId: string; apiKeyId: string; windowStart: Date; month: string },
): Promise<{ window_count: number; quota_count: number }> {
  const result = await sql<{ window_count: number; quota_count: number }>`
    select
      coalesce((select request_count from rate_limit_windows
                where company_id = ${input.companyId} and api_key_id = ${input.apiKeyId}
                  and window_start = ${input.windowStart}), 0) as window_count,
      coalesce((select request_count from quota_usage
                where company_id = ${input.companyId} and month = ${input.month}::date), 0) as quota_count`.execute(
    db,
  );
  return result.rows[0] ?? { window_count: 0, quota_count: 0 };
}

/**
 * Counts one request in a per-minute window that is not a key's (a dashboard session's): the count, or null when
 * the window is already full. Such windows live in rate_limit_windows beside the keys' (the session id in
 * api_key_id) and are swept with them; they never touch the monthly quota.
 */
export async function admitToWindow(
  db: Db,
  input: { companyId: string; subjectId: string; windowStart: Date; limit: number },
): Promise<number | null> {
  const result = await sql<{ request_count: number }>`
    insert into rate_limit_windows as w (company_id, api_key_id, window_start, request_count)
    values (${input.companyId}::uuid, ${input.subjectId}::uuid, ${input.windowStart}, 1)
    on conflict (company_id, api_key_id, window_start)
    do update set request_count = w.request_count + 1 where w.request_count < ${input.limit}
    returning w.request_count`.execute(db);
  return result.rows[0]?.request_count ?? null;
}

/** The requests a tenant has made toward its monthly quota in `month` (YYYY-MM-01). */
export async function quotaUsed(db: Db, companyId: string, month: string): Promise<number> {
  const row = await db
    .selectFrom('quota_usage')
    .select('request_count')
    .where('company_id', '=', companyId)
    .where('month', '=', month)
    .executeTakeFirst();
  return Number(row?.request_count ?? 0);
}

/** Maintenance: rate-limit windows that ended before `before`, across tenants. */
export async function deleteWindowsBefore(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('rate_limit_windows').where('window_start', '<', before).execute();
}
