import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ApiKeysTable } from '../../db/schema.ts';

export type RevokeReason = 'revoked_by_api' | 'revoked_by_admin' | 'revoked_by_dashboard' | 'addon_disabled';

/**
 * Revokes the still-active keys that match: one key (optionally within a tenant), or every key of some
 * tenants. A key revoked before keeps its first revocation.
 */
export async function revokeKeys(
  db: Executor,
  now: Date,
  match: { id: string; companyId?: string } | { companyIds: string[] },
  reason: RevokeReason,
): Promise<void> {
  let query = db
    .updateTable('api_keys')
    .set({ revoked_at: now, revoked_reason: reason, updated_at: now })
    .where('revoked_at', 'is', null);
  if ('companyIds' in match) {
    query = query.where('company_id', 'in', match.companyIds);
  } else {
    query = query.where('id', '=', match.id);
    if (match.companyId !== undefined) query = query.where('company_id', '=', match.companyId);
  }
  await query.execute();
}

const KEY_COLUMNS = [
  'id',
  'name',
  'mode',
  'company_id',
  'scopes',
  'secret_prefix',
  'kind',
  'expires_at',
  'revoked_at',
  'revoked_reason',
  'last_used_at',
  'last_used_ip',
  'created_at',
  'updated_at',
] as const;

/** A key as the service reads it: everything but the secret's hash. */
export type KeyRow = Omit<Selectable<ApiKeysTable>, 'secret_hash'>;

/** The keys of some tenants, explicit columns; listings page it with syncPage. */
export const selectKeys = (db: Executor, companyIds: string[]) =>
  db.selectFrom('api_keys').select(KEY_COLUMNS).where('company_id', 'in', companyIds);

/** Keys of the tenants neither revoked nor expired at `now`. */
export async function countActiveKeys(db: Executor, companyIds: string[], now: Date): Promise<number> {
  const active = await db
    .selectFrom('api_keys')
    .select(sql<number>`count(*)`.as('count'))
    .where('company_id', 'in', companyIds)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(active.count);
}

export async function insertKey(db: Executor, row: KeyRow, secretHash: Buffer): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({ ...row, secret_hash: secretHash })
    .execute();
}

/** A key's name and secret prefix, how a person tells it apart (null: no such key in the tenant). */
export async function findKeyName(db: Executor, companyId: string, id: string) {
  return await db
    .selectFrom('api_keys')
    .select(['name', 'secret_prefix'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Whether the key exists (within the tenant, when one is given: operators revoke by id alone). */
/** The company of a key, if there is such a key (of that company, when one is named). */
export async function keyCompany(db: Executor, id: string, companyId?: string): Promise<string | undefined> {
  let query = db.selectFrom('api_keys').select('company_id').where('id', '=', id);
  if (companyId !== undefined) query = query.where('company_id', '=', companyId);
  return (await query.executeTakeFirst())?.company_id;
}
