import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { PasskeyChallengesTable, PasskeysTable } from '../../db/schema.ts';

export type PasskeyOwnerType = 'employee' | 'admin';

const COLUMNS = [
  'company_id',
  'id',
  'owner_type',
  'owner_id',
  'credential_id',
  'public_key',
  'counter',
  'transports',
  'name',
  'created_at',
  'last_used_at',
] as const;

export async function insertPasskey(db: Executor, row: Insertable<PasskeysTable>): Promise<void> {
  await db.insertInto('passkeys').values(row).execute();
}

/** An owner's passkeys that are not removed, oldest first. */
export async function selectPasskeys(
  db: Executor,
  companyId: string,
  ownerType: PasskeyOwnerType,
  ownerId: string,
) {
  return await db
    .selectFrom('passkeys')
    .select(COLUMNS)
    .where('company_id', '=', companyId)
    .where('owner_type', '=', ownerType)
    .where('owner_id', '=', ownerId)
    .where('removed_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A sign-in precedes tenancy: the passkey is found by its credential id alone (unique in the deployment). */
export async function findPasskeyByCredentialId(db: Executor, credentialId: string) {
  return await db
    .selectFrom('passkeys')
    .select(COLUMNS)
    .where('credential_id', '=', credentialId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

export async function touchPasskey(
  db: Executor,
  companyId: string,
  id: string,
  counter: number,
  at: Date,
): Promise<void> {
  await db
    .updateTable('passkeys')
    .set({ counter: String(counter), last_used_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/**
 * Removes one of an owner's passkeys, or every one (a reset of a worker's access): stamps removed_at, the key
 * stays for the approvals it signed. The ids removed.
 */
export async function markPasskeysRemoved(
  db: Executor,
  owner: { companyId: string; type: PasskeyOwnerType; id: string },
  at: Date,
  passkeyId?: string,
): Promise<string[]> {
  let query = db
    .updateTable('passkeys')
    .set({ removed_at: at })
    .where('company_id', '=', owner.companyId)
    .where('owner_type', '=', owner.type)
    .where('owner_id', '=', owner.id)
    .where('removed_at', 'is', null);
  if (passkeyId !== undefined) query = query.where('id', '=', passkeyId);
  return (await query.returning('id').execute()).map((row) => row.id);
}

export async function insertChallenge(db: Executor, row: PasskeyChallengesTable): Promise<void> {
  await db.insertInto('passkey_challenges').values(row).execute();
}

/** Uses an unexpired challenge once: one caller wins. */
export async function takeChallenge(
  db: Executor,
  challenge: string,
  purpose: PasskeyChallengesTable['purpose'],
  audience: PasskeyChallengesTable['audience'],
  now: Date,
) {
  return await db
    .deleteFrom('passkey_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('audience', '=', audience)
    .where('expires_at', '>', now)
    .returning(['company_id', 'owner_id'])
    .executeTakeFirst();
}

/** Maintenance: challenges past their five minutes, across tenants. */
export async function deleteExpiredChallenges(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom('passkey_challenges').where('expires_at', '<', now).execute();
}
