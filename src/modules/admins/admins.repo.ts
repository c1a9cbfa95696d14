import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { CompanyAdminsTable } from '../../db/schema.ts';

export type AdminRow = Selectable<CompanyAdminsTable>;

export async function insertAdmin(db: Executor, row: Insertable<CompanyAdminsTable>): Promise<void> {
  await db.insertInto('company_admins').values(row).execute();
}

/** Login precedes tenancy: the administrator is found by email alone (emails are unique in the deployment). */
export async function findAdminByEmailKey(db: Executor, emailKey: string) {
  return await db
    .selectFrom('company_admins')
    .select(['company_id', 'id', 'email', 'password_hash', 'disabled_at', 'language', 'role', 'unit_ids'])
    .where('email_key', '=', emailKey)
    .executeTakeFirst();
}

/** An active administrator by id within the account (a passkey sign-in names one); undefined when disabled. */
export async function findActiveAdmin(db: Executor, companyId: string, id: string) {
  return await db
    .selectFrom('company_admins')
    .select(['company_id', 'id', 'email', 'language', 'role', 'unit_ids'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
}

/** An administrator's email, by id within the account (null: no such administrator). */
export async function findAdminEmail(db: Executor, companyId: string, id: string): Promise<string | null> {
  const row = await db
    .selectFrom('company_admins')
    .select('email')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.email ?? null;
}

/** A company's administrators, by email. */
export async function selectAdmins(db: Executor, companyId: string) {
  return await db
    .selectFrom('company_admins')
    .select(['id', 'company_id', 'email', 'created_at', 'disabled_at', 'role', 'unit_ids'])
    .where('company_id', '=', companyId)
    .orderBy('email')
    .execute();
}

export async function insertSession(
  db: Executor,
  row: {
    company_id: string;
    id: string;
    admin_id: string;
    csrf_token: string;
    expires_at: Date;
    token_hash: Buffer;
    created_at: Date;
    credential_kind?: 'password' | 'passkey';
    passkey_id?: string | null;
  },
): Promise<void> {
  await db.insertInto('dashboard_sessions').values(row).execute();
}

/** The unexpired session whose token hashes to `tokenHash`, with its administrator's email. */
export async function findLiveSession(db: Executor, tokenHash: Buffer, now: Date) {
  return await db
    .selectFrom('dashboard_sessions as s')
    .innerJoin('company_admins as a', (join) =>
      join.onRef('a.company_id', '=', 's.company_id').onRef('a.id', '=', 's.admin_id'),
    )
    .select([
      's.id',
      's.company_id',
      's.admin_id',
      'a.email',
      'a.language',
      'a.role',
      'a.unit_ids',
      's.csrf_token',
      's.expires_at',
      's.created_at',
      's.credential_kind',
      's.passkey_id',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('a.disabled_at', 'is', null)
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteSessionRow(db: Executor, companyId: string, id: string): Promise<void> {
  await db
    .deleteFrom('dashboard_sessions')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/** Maintenance: sessions past their expiry, across tenants. */
export async function deleteExpiredSessions(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('expires_at', '<', now).execute();
}

/**
 * Disables an administrator of the company who is not yet disabled, and ends their sessions; false when there is
 * no such active administrator.
 */
export async function disableAdminRow(
  db: Executor,
  companyId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('company_admins')
    .set({ disabled_at: now, updated_at: now })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!row) return false;
  await db
    .deleteFrom('dashboard_sessions')
    .where('company_id', '=', companyId)
    .where('admin_id', '=', id)
    .execute();
  return true;
}

/** How many owners of the company are active (not disabled), the company's row locked by the caller. */
export async function countActiveAdmins(db: Executor, companyId: string, role: 'owner'): Promise<number> {
  const row = await db
    .selectFrom('company_admins')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('company_id', '=', companyId)
    .where('disabled_at', 'is', null)
    .where('role', '=', role)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function updateAdminLanguage(
  db: Executor,
  companyId: string,
  id: string,
  language: 'es' | 'en' | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable('company_admins')
    .set({ language, updated_at: now })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/** An administrator's new role and units; the row as listed, or undefined when there is no such administrator. */
export async function updateAdminRole(
  db: Executor,
  companyId: string,
  id: string,
  role: AdminRow['role'],
  unitIds: string[],
  now: Date,
) {
  return await db
    .updateTable('company_admins')
    .set({ role, unit_ids: unitIds, updated_at: now })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returning(['id', 'company_id', 'email', 'created_at', 'disabled_at', 'role', 'unit_ids'])
    .executeTakeFirst();
}
