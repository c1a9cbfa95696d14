import { type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ActorType, RegistryAccessesTable, RegistryAccessGrantsTable } from '../../db/schema.ts';

export type GrantRow = Omit<Selectable<RegistryAccessGrantsTable>, 'token_hash'>;

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
  'created_by_type',
  'created_by_id',
  'revoked_by_type',
  'revoked_by_id',
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
  by: { type: ActorType; id: string },
): Promise<boolean> {
  const revoked = await db
    .updateTable('registry_access_grants')
    .set({ revoked_at: at, revoked_by_type: by.type, revoked_by_id: by.id })
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
    .select(['id', 'at', 'ip', 'what', 'outcome', 'repeats'])
    .where('company_id', '=', companyId)
    .where('grant_id', '=', grantId);

/** Counts a request in a subject's window (an address's, a token's); null when the window is full. */
export async function admitAccessRequest(db: Executor, subject: string, windowStart: Date, limit: number) {
  const result = await sql<{ request_count: number }>`
    insert into access_link_windows as w (subject, window_start, request_count)
    values (${subject}, ${windowStart}, 1)
    on conflict (subject, window_start)
    do update set request_count = w.request_count + 1 where w.request_count < ${limit}
    returning w.request_count`.execute(db);
  return result.rows[0]?.request_count ?? null;
}

/** Maintenance: the windows that ended, across tenants. */
export async function deleteAccessWindowsBefore(db: Executor, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('access_link_windows')
    .where('window_start', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Counts a refusal as a repeat of the same refusal logged within `since` (same grant, address, request and
 * outcome); false when there is none, and the refusal is logged on its own.
 */
export async function countRepeat(
  db: Executor,
  row: { company_id: string; grant_id: string; ip: string; what: string; outcome: string },
  since: Date,
): Promise<boolean> {
  // One refusal of a run at a time: a flood's parallel requests would each find no earlier one and log a row.
  await sql`select pg_advisory_xact_lock(hashtextextended(${`access:${row.grant_id}:${row.ip}`}, 0))`.execute(
    db,
  );
  const result = await sql`
    update registry_accesses set repeats = repeats + 1
    where (company_id, id) = (
      select company_id, id from registry_accesses
      where company_id = ${row.company_id} and grant_id = ${row.grant_id} and ip = ${row.ip}
        and what = ${row.what} and outcome = ${row.outcome} and at >= ${since}
      order by at desc limit 1
      for update)`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}
