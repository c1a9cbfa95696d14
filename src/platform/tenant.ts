import type { Reach, ReachScope } from '../db/reach.ts';
import type { KeyMode } from '../db/schema.ts';
import { ApiError } from './errors.ts';
import type { Scope } from './scopes.ts';

/** Who recorded a fact of the registry (docs/registry.md). */
export type Actor = { type: 'api_key' | 'admin' | 'employee' | 'system'; id: string };

/** Who is calling: the tenant a key acts on, and the key's limits. */
export type Tenant = {
  companyId: string;
  accountId: string;
  mode: KeyMode;
  sandbox: boolean;
  /** The calling key; null for a dashboard session (src/dashboard). */
  apiKeyId: string | null;
  /** Who records what this caller writes (registry facts name it): the key, or the dashboard's administrator. */
  actor: Actor;
  scopes: ReadonlySet<string>;
  timezone: string;
  activeEmployees: number;
  rateLimitPerMinute: number;
  monthlyQuota: number;
  /** Whose records the caller reaches; absent or null: the whole company (platform/reach.ts). */
  reach?: Reach;
};

export type { Reach, ReachScope };

/**
 * What services need of the tenant: the company the data belongs to, its account (the live company, whose
 * settings govern the sandbox too) and the account's time zone. A Tenant is one; so is what a job builds from a
 * claimed row.
 */
export type TenantScope = Pick<Tenant, 'companyId' | 'accountId' | 'timezone'>;

/**
 * How a worker proved who they were for an approval made in the portal (issue 35): the credential and when its
 * session started. The approvals' chain entries record it.
 */
export type Credential = {
  /** How the session was opened. */
  kind: 'password' | 'passkey';
  session_started_at: string;
  /** The passkey that opened the session (kind passkey). */
  passkey_id?: string;
};

/** A tenant with who acts in it: what a service that records a registry fact needs. */
export type ActingTenant = TenantScope & Pick<Tenant, 'actor'> & { credential?: Credential };

/** What a service needs of the tenant when the company alone scopes it (a read by id, an operator's write). */
export type CompanyScope = Pick<Tenant, 'companyId'>;

/** For operations whose scope depends on the target (e.g. a key may always revoke itself). */
export function requireScope(tenant: Tenant, scope: Scope): void {
  if (!tenant.scopes.has(scope)) {
    throw new ApiError('invalid_scope', `This operation requires the scope ${scope}.`, {
      errors: { required_scope: scope },
    });
  }
}
