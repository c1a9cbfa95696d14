import type { Executor } from '../../db/database.ts';

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
