import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { PortalAccountsTable, PortalInvitationsTable, PortalSessionsTable } from '../../db/schema.ts';

export async function insertInvitation(db: Executor, row: Insertable<PortalInvitationsTable>): Promise<void> {
  await db.insertInto('portal_invitations').values(row).execute();
}

/** Ends an employee's unused invitations: only the newest link works. */
export async function retireInvitations(db: Executor, companyId: string, employeeId: string, at: Date) {
  await db
    .updateTable('portal_invitations')
    .set({ expires_at: at })
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .execute();
}

/** Uses the unexpired, unused invitation whose token hashes to `tokenHash`: one caller wins. */
export async function useInvitation(db: Executor, tokenHash: Buffer, at: Date) {
  return await db
    .updateTable('portal_invitations')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning(['company_id', 'employee_id', 'id', 'kind'])
    .executeTakeFirst();
}

/** A worker's login, if they have one. */
export async function findAccountOf(db: Executor, companyId: string, employeeId: string) {
  return await db
    .selectFrom('portal_accounts')
    .select(['company_id', 'employee_id'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .forUpdate()
    .executeTakeFirst();
}

/** A reset (issue 35): every session of the worker ends, and the password becomes one nobody knows. */
export async function resetAccount(
  db: Executor,
  companyId: string,
  employeeId: string,
  unusableHash: string,
  at: Date,
): Promise<void> {
  await db
    .deleteFrom('portal_sessions')
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .execute();
  await db
    .updateTable('portal_accounts')
    .set({ password_hash: unusableHash, updated_at: at })
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .execute();
}

/** Creates or replaces a worker's login (a new invitation resets the password). */
export async function upsertAccount(db: Executor, row: Insertable<PortalAccountsTable>): Promise<void> {
  await db
    .insertInto('portal_accounts')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['company_id', 'employee_id']).doUpdateSet({
        email_key: row.email_key,
        password_hash: row.password_hash,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** The logins with that email key, in every company (issue 35: a login is per company), newest first. */
export async function findAccountsByEmail(db: Executor, emailKey: string) {
  return await db
    .selectFrom('portal_accounts')
    .select(['company_id', 'employee_id', 'password_hash'])
    .where('email_key', '=', emailKey)
    .orderBy('updated_at', 'desc')
    .limit(MAX_LOGINS_PER_EMAIL)
    .execute();
}

/** The login with that email key in one company. */
export async function findAccountByEmail(db: Executor, companyId: string, emailKey: string) {
  return await db
    .selectFrom('portal_accounts')
    .select(['company_id', 'employee_id', 'password_hash'])
    .where('company_id', '=', companyId)
    .where('email_key', '=', emailKey)
    .executeTakeFirst();
}

/** How many companies' logins one email's password is checked against (a worker in a few companies at once). */
export const MAX_LOGINS_PER_EMAIL = 3;

export async function insertPortalSession(db: Executor, row: Insertable<PortalSessionsTable>): Promise<void> {
  await db.insertInto('portal_sessions').values(row).execute();
}

export async function findLivePortalSession(db: Executor, tokenHash: Buffer, now: Date) {
  return await db
    .selectFrom('portal_sessions')
    .select([
      'id',
      'company_id',
      'employee_id',
      'csrf_token',
      'expires_at',
      'created_at',
      'credential_kind',
      'passkey_id',
    ])
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function deletePortalSession(db: Executor, companyId: string, id: string): Promise<void> {
  await db.deleteFrom('portal_sessions').where('company_id', '=', companyId).where('id', '=', id).execute();
}

/** Maintenance: portal sessions past their expiry, across tenants (invitations stay: who was invited, when). */
export async function deleteExpiredPortalSessions(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom('portal_sessions').where('expires_at', '<', now).execute();
}
