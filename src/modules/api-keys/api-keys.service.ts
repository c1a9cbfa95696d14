import type { Static } from 'typebox';
import type { ApiKeyKind, KeyMode } from '../../db/schema.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { mapPage, type Page, type SyncQuery, syncPage } from '../../platform/pagination.ts';
import type { Scope } from '../../platform/scopes.ts';
import { randomBase62, sha256 } from '../../platform/secrets.ts';
import { type CompanyScope, requireScope, type Tenant } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { findCompany, findSandboxOf } from '../companies/companies.repo.ts';
import { loadAccount } from '../companies/companies.service.ts';
import {
  countActiveKeys,
  insertKey,
  type KeyRow,
  keyCompany,
  revokeKeys,
  selectKeys,
} from './api-keys.repo.ts';
import type { ApiKey } from './api-keys.schemas.ts';

export type ApiKeyView = Static<typeof ApiKey>;

/** The stored key as the service sees it: every column but the secret's hash. */

const optionalInstant = (value: Date | null) => (value === null ? null : formatInstant(value));

function toView(row: KeyRow, now: Temporal.Instant): ApiKeyView {
  const expired = row.expires_at !== null && row.expires_at.getTime() <= now.epochMilliseconds;
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    company_id: row.company_id,
    // Only scopes of the list are ever stored (the schema validates issuance).
    scopes: row.scopes as Scope[],
    prefix: row.secret_prefix,
    kind: row.kind,
    status: row.revoked_at !== null ? 'revoked' : expired ? 'expired' : 'active',
    expires_at: optionalInstant(row.expires_at),
    revoked_at: optionalInstant(row.revoked_at),
    revoked_reason: row.revoked_reason,
    last_used_at: optionalInstant(row.last_used_at),
    last_used_ip: row.last_used_ip,
    created_at: formatInstant(row.created_at),
    updated_at: formatInstant(row.updated_at),
  };
}

/** A key's secret: `jrn_<mode>_` and 43 base62 characters (256 bits from a CSPRNG). Only its SHA-256 is kept. */
export function newSecret(mode: KeyMode): string {
  return `jrn_${mode}_${randomBase62(43)}`;
}

/**
 * Issues a key for a company: live keys act on the company, test keys on its sandbox. Honours the account's
 * default_expiration_days and max_active_keys (counted over live and test keys together).
 */
export async function issueApiKey(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  input: {
    mode: KeyMode;
    scopes: Scope[];
    name?: string | undefined;
    expires_in_days?: number | undefined;
    kind?: ApiKeyKind | undefined;
  },
): Promise<ApiKeyView & { secret: string }> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const { account } = await loadAccount(db, companyId);
  const secret = newSecret(input.mode);
  return await withSyncStamp(db, clock, companyId, async (tx, now) => {
    // Serialises issuance with other issuance and with addon changes, so concurrent requests cannot exceed
    // max_active_keys, and no key is issued into a sandbox that an addon disable is removing.
    const locked = await findCompany(tx, account.id, { forUpdate: true });
    if (!locked) throw notFound('Company');
    const sandbox = await findSandboxOf(tx, account.id);
    if (!locked.addon_enabled || !sandbox) {
      throw new ApiError('addon_disabled', 'The public API addon is off for this company; enable it first.');
    }
    const tenantId = input.mode === 'live' ? account.id : sandbox.id;
    const active = await countActiveKeys(tx, [account.id, sandbox.id], toDate(now));
    if (active >= locked.max_active_keys) {
      throw new ApiError(
        'conflict',
        `The company already has ${active} active keys (max_active_keys is ${locked.max_active_keys}). Revoke one first.`,
      );
    }
    const days = input.expires_in_days ?? locked.default_expiration_days;
    const row: KeyRow = {
      id: newId(),
      name: input.name ?? null,
      mode: input.mode,
      company_id: tenantId,
      scopes: [...input.scopes],
      secret_prefix: secret.slice(0, 13),
      kind: input.kind ?? 'integration',
      expires_at: days === null ? null : toDate(now.add({ hours: 24 * days })),
      revoked_at: null,
      revoked_reason: null,
      last_used_at: null,
      last_used_ip: null,
      created_at: toDate(now),
      updated_at: toDate(now),
    };
    await insertKey(tx, row, sha256(secret));
    return { ...toView(row, now), secret };
  });
}

export async function listApiKeys(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors' | 'syncHorizon'>,
  tenants: CompanyScope[],
  query: SyncQuery,
): Promise<Page<ApiKeyView>> {
  const { db, clock, cursors: codec, syncHorizon: horizon } = deps;
  const companyIds = tenants.map((tenant) => tenant.companyId);
  const page = await syncPage(selectKeys(db, companyIds), {
    codec,
    horizon: horizon.of(companyIds),
    listing: 'api_keys',
    query,
  });
  const now = clock.now();
  return mapPage(page, (row) => toView(row, now));
}

/** Keys of a company as the admin sees them: its live keys and its sandbox's test keys. */
export async function listCompanyApiKeys(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors' | 'syncHorizon'>,
  tenant: CompanyScope,
  query: { limit?: number | undefined; cursor?: string | undefined },
): Promise<Page<ApiKeyView>> {
  const { account, sandbox } = await loadAccount(deps.db, tenant.companyId);
  const tenants = sandbox ? [account, sandbox] : [account];
  return await listApiKeys(
    deps,
    tenants.map((company) => ({ companyId: company.id })),
    query,
  );
}

/**
 * DELETE /v1/api-keys/{id} (and the dashboard's, whose session has every scope): any key may revoke itself;
 * revoking another key of the tenant needs api_keys:manage. Revoking an already revoked key succeeds again and
 * keeps the first revocation.
 */
export async function revokeApiKeyAsTenant(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: Tenant,
  id: string,
): Promise<void> {
  const { db, clock } = deps;
  if (id !== tenant.apiKeyId) requireScope(tenant, 'api_keys:manage');
  if ((await keyCompany(db, id, tenant.companyId)) === undefined) throw notFound('API key');
  const reason = tenant.apiKeyId === null ? 'revoked_by_dashboard' : 'revoked_by_api';
  await withSyncStamp(db, clock, tenant.companyId, async (tx, stamp) =>
    revokeKeys(tx, toDate(stamp), { companyId: tenant.companyId, id }, reason),
  );
}

export async function revokeApiKeyAsAdmin(deps: Pick<AppDeps, 'db' | 'clock'>, id: string): Promise<void> {
  const { db, clock } = deps;
  const companyId = await keyCompany(db, id);
  if (companyId === undefined) throw notFound('API key');
  await withSyncStamp(db, clock, companyId, async (tx, stamp) =>
    revokeKeys(tx, toDate(stamp), { id }, 'revoked_by_admin'),
  );
}
