import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { RegistryAccessesTable, RegistryAccessGrantsTable } from '../../db/schema.ts';

export type GrantRow = Omit<
  Selectable<RegistryAccessGrantsTable>,
  'token_hash' | 'created_by_type' | 'created_by_id'
>;

const GRANT_COLUMNS = [
  'company_id',
  'id',
  'kind',
  'label',
  'from_date',
  'to_date',
  'employee_ids',
  'created_at',
  'expires_at',
  'revoked_at',
] as const;

export async function insertGrant(db: Executor, row: Insertable<RegistryAccessGrantsTable>): Promise<void> {
  await db.insertInto('registry_access_grants').values(row).execute();
}

export const selectGrants = (db: Executor, companyId: string) =>
  db.selectFrom('registry_access_grants').select(GRANT_COLUMNS).where('company_id', '=', companyId);

export async function findGrant(db: Executor, companyId: string, id: string): Promise<GrantRow | undefined> {
  return await selectGrants(db, companyId).where('id', '=', id).executeTakeFirst();
}

/** The grant a link's token names, in whatever state (the caller logs and refuses a revoked or expired one). */
export async function findGrantByToken(db: Executor, tokenHash: Buffer): Promise<GrantRow | undefined> {
  return await db
    .selectFrom('registry_access_grants')
    .select(GRANT_COLUMNS)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function revokeGrantRow(
  db: Executor,
  companyId: string,
  id: string,
  at: Date,
): Promise<boolean> {
  const revoked = await db
    .updateTable('registry_access_grants')
    .set({ revoked_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return revoked !== undefined;
}

export async function insertAccess(db: Executor, row: Insertable<RegistryAccessesTable>): Promise<void> {
  await db.insertInto('registry_accesses').values(row).execute();
}

export const selectAccesses = (db: Executor, companyId: string, grantId: string) =>
  db
    .selectFrom('registry_accesses')
    .select(['id', 'at', 'ip', 'what', 'outcome'])
    .where('company_id', '=', companyId)
    .where('grant_id', '=', grantId);
