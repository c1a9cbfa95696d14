import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { CompanyStatus, KeyMode, SubscriptionStatus } from '../db/schema.ts';
import { MONTHLY_QUOTA, RATE_LIMIT_PER_MINUTE } from './service-state.ts';

export type KeyRecord = {
  api_key_id: string;
  company_id: string;
  account_id: string;
  mode: KeyMode;
  scopes: string[];
  sandbox: boolean;
  timezone: string;
  active_employee_count: number;
  company_status: CompanyStatus;
  subscription_status: SubscriptionStatus;
  addon_enabled: boolean;
};

/**
 * What one request's authentication found: `unauthenticated` (no such key, another mode's prefix, revoked or
 * expired: nothing else is returned), `refused` (the service is closed to it: counted nowhere), or the admission's
 * outcome; with the usage counts for the rate-limit headers.
 */
export type Authentication =
  | { outcome: 'unauthenticated' }
  | (KeyRecord & {
      outcome: 'refused' | 'admitted' | 'rate_limited' | 'quota_exceeded';
      window_count: number;
      quota_count: number;
    });

export type AuthenticationInput = {
  secretHash: Buffer;
  mode: KeyMode;
  now: Date;
  windowStart: Date;
  month: string;
  ip: string;
  allowInactiveService: boolean;
};

/**
 * The key lookups and the admissions of several requests in one round trip and one transaction
 * (jornada_authenticate_many, migration 0026): each key found by the SHA-256 of the presented secret (a global
 * unique index), with the state of its company and account (a sandbox shares its account's), and each request
 * counted in its key's minute window and its tenant's monthly quota when the key is valid and the service open
 * to it. The results are in the order of `inputs`.
 */
export async function authenticateMany(
  db: Db,
  inputs: readonly AuthenticationInput[],
): Promise<Authentication[]> {
  const column = <T>(pick: (input: AuthenticationInput) => T): T[] => inputs.map(pick);
  const result = await sql<Authentication & { item: number; api_key_id: string | null }>`
    select * from jornada_authenticate_many(
      ${column((input) => input.secretHash)}::bytea[], ${column((input) => input.mode)}::text[],
      ${column((input) => input.now)}::timestamptz[], ${column((input) => input.windowStart)}::timestamptz[],
      ${column((input) => input.month)}::date[], ${column((input) => input.ip)}::text[],
      ${column((input) => input.allowInactiveService)}::boolean[],
      ${RATE_LIMIT_PER_MINUTE.live}::int, ${RATE_LIMIT_PER_MINUTE.test}::int, ${MONTHLY_QUOTA.test}::int,
      ${MONTHLY_QUOTA.liveBase}::int, ${MONTHLY_QUOTA.livePerEmployee}::int, ${MONTHLY_QUOTA.liveMax}::int)`.execute(
    db,
  );
  const byItem: Authentication[] = new Array(inputs.length);
  for (const { item, ...row } of result.rows) byItem[item - 1] = row;
  for (let index = 0; index < inputs.length; index += 1) {
    if (!byItem[index]) throw new Error(`jornada_authenticate_many returned no row for item ${index + 1}`);
  }
  return byItem;
}

/**
 * A key found by the SHA-256 of its secret, with its company's state and the month's quota used, counting
 * nothing (the listen budget counts its requests apart: auth.ts). Undefined when no key has that secret.
 */
export async function findKeyUncounted(
  db: Db,
  secretHash: Buffer,
  month: string,
): Promise<
  (KeyRecord & { revoked_at: Date | null; expires_at: Date | null; quota_count: number }) | undefined
> {
  const result = await sql<
    KeyRecord & { revoked_at: Date | null; expires_at: Date | null; quota_count: number }
  >`
    select k.id as api_key_id, k.company_id, a.id as account_id, k.mode::text as mode, k.scopes,
           t.sandbox_of is not null as sandbox, a.timezone, t.active_employee_count,
           a.company_status::text as company_status, a.subscription_status::text as subscription_status,
           a.addon_enabled, k.revoked_at, k.expires_at,
           coalesce((select q.request_count from quota_usage q
                      where q.company_id = k.company_id and q.month = ${month}::date), 0)::int as quota_count
      from api_keys k
      join companies t on t.id = k.company_id
      join companies a on a.id = coalesce(t.sandbox_of, t.id)
     where k.secret_hash = ${secretHash}`.execute(db);
  return result.rows[0];
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
