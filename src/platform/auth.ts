import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { CompanyStatus, SubscriptionStatus } from '../db/schema.ts';
import { type Clock, toDate } from '../time/clock.ts';
import {
  type AuthenticationInput,
  admitToWindow,
  authenticateMany,
  findKeyUncounted,
  type KeyRecord,
} from './auth.repo.ts';
import { groupAdmission } from './batched-authentication.ts';
import { ApiError } from './errors.ts';
import { admissionBatches } from './metrics.ts';
import type { Scope } from './scopes.ts';
import { sha256 } from './secrets.ts';
import { hasActiveService, monthlyQuota, quotaMonth, RATE_LIMIT_PER_MINUTE } from './service-state.ts';
import type { Tenant } from './tenant.ts';

export { requireScope, type Tenant } from './tenant.ts';

export type RouteAccess = {
  /** 'public' routes need no key. Otherwise the scope the key must hold; null means any valid key. */
  scope: Scope | null | 'public';
  /** Revocation routes keep working while the company has no active service. */
  allowInactiveService?: boolean;
  /**
   * A scope that still admits the call until LEGACY_SCOPE_SUNSET, with Deprecation and Sunset headers (issue 35:
   * month closes and access grants moved to org:registro:write from org:fichajes:write).
   */
  legacyScope?: Scope;
  /**
   * `listen`: the sandbox's event feed, which `jornada listen` long-polls for as long as it runs (issue 41: on the
   * key's budget a listener left running spent a sandbox's monthly quota in about 30 hours). Its requests are not
   * counted in the key's rate limit nor the monthly quota, but in a window of their own: LISTEN_PER_MINUTE.
   */
  budget?: 'listen';
};

/** The feed requests a key may make a minute (a listener makes 3 when idle, one per 100 events when busy). */
export const LISTEN_PER_MINUTE = 60;

/** The id of a key's listen window in rate_limit_windows: a uuid derived from the key's, never another key's. */
export function listenWindowId(apiKeyId: string): string {
  const hex = sha256(`listen-window:${apiKeyId}`).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Until when a legacy scope still admits a call (announced 12 months ahead, as the contract's deprecations). */
export const LEGACY_SCOPE_SUNSET = 'Tue, 30 Nov 2027 00:00:00 GMT';
const LEGACY_SCOPE_DEPRECATED_AT = Date.parse('2026-11-27T00:00:00Z') / 1000;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** 'never' keeps the response out of the idempotency store (webhook creation returns a secret). */
    idempotency?: 'store' | 'never';
  }
  interface FastifyRequest {
    tenant: Tenant | null;
    /**
     * The tenant of the key presented, once the key is known to be valid, also when the request is then refused
     * (a limit, the service state, a scope): the sandbox's request log records those too.
     */
    caller: Tenant | null;
  }
}

/** The most requests one admission statement carries. */
const ADMISSION_BATCH = 128;

const KEY_PATTERN = /^jrn_(live|test)_[0-9A-Za-z]{40,64}$/;

export function requireTenant(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new ApiError('unauthenticated', 'An API key is required.');
  return request.tenant;
}

function presentedSecret(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

export function windowOf(now: Temporal.Instant): { windowStart: Date; resetSeconds: number; month: string } {
  const seconds = Math.floor(now.epochMilliseconds / 1000);
  const start = seconds - (seconds % 60);
  return { windowStart: new Date(start * 1000), resetSeconds: start + 60, month: quotaMonth(now) };
}

function setUsageHeaders(
  reply: FastifyReply,
  tenant: Tenant,
  windowCount: number,
  quotaCount: number,
  reset: number,
) {
  reply.header('X-RateLimit-Limit', String(tenant.rateLimitPerMinute));
  reply.header('X-RateLimit-Remaining', String(Math.max(0, tenant.rateLimitPerMinute - windowCount)));
  reply.header('X-RateLimit-Reset', String(reset));
  reply.header('X-Service-Quota-Remaining', String(Math.max(0, tenant.monthlyQuota - quotaCount)));
}

/** The 429 of a full per-minute window, with Retry-After until the window ends. */
export function rateLimited(
  limit: number,
  window: { resetSeconds: number },
  now: Temporal.Instant,
): ApiError {
  const retryAfter = Math.max(1, window.resetSeconds - Math.floor(now.epochMilliseconds / 1000));
  return new ApiError('rate_limited', `Rate limit of ${limit} requests per minute exceeded.`, {
    headers: { 'Retry-After': String(retryAfter) },
  });
}

/**
 * The monthly quota is spent: it resets at the next month's start (UTC, as quotaMonth counts), which the answer
 * gives as `Retry-After` and `errors.resets_at` (issue 41: it said nothing of when).
 */
export function quotaExceeded(quota: number, now: Temporal.Instant): ApiError {
  const resets = Temporal.PlainYearMonth.from(quotaMonth(now).slice(0, 7))
    .add({ months: 1 })
    .toPlainDate({ day: 1 })
    .toZonedDateTime('UTC')
    .toInstant();
  const seconds = Math.max(1, Math.ceil((resets.epochMilliseconds - now.epochMilliseconds) / 1000));
  return new ApiError(
    'quota_exceeded',
    `The monthly quota of ${quota} requests is exhausted; it resets at ${resets.toString()}.`,
    { headers: { 'Retry-After': String(seconds) }, errors: { resets_at: resets.toString() } },
  );
}

/** A tenant with its mode's limits: the rate limit per key and the monthly quota of its active employees. */
export function tenantOf(caller: Omit<Tenant, 'rateLimitPerMinute' | 'monthlyQuota'>): Tenant {
  return {
    ...caller,
    rateLimitPerMinute: RATE_LIMIT_PER_MINUTE[caller.mode],
    monthlyQuota: monthlyQuota(caller.mode, caller.activeEmployees),
  };
}

function toTenant(key: KeyRecord): Tenant {
  return tenantOf({
    companyId: key.company_id,
    accountId: key.account_id,
    mode: key.mode,
    sandbox: key.sandbox,
    apiKeyId: key.api_key_id,
    actor: { type: 'api_key', id: key.api_key_id },
    scopes: new Set(key.scopes),
    timezone: key.timezone,
    activeEmployees: key.active_employee_count,
  });
}

/**
 * Authentication order for every /v1 route that is not public (issue 2):
 * 401 unauthenticated → 403 addon_disabled → 403 subscription_inactive → 429 rate/quota → 403 invalid_scope.
 * Runs in onRequest, before the body is read, so refused requests cost no parsing.
 */
export function registerAuth(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  app.decorateRequest('tenant', null);
  app.decorateRequest('caller', null);
  // The requests that arrive while an admission is in flight are admitted together (platform/batched-authentication.ts).
  const authenticate = groupAdmission(
    (inputs: readonly AuthenticationInput[]) => {
      admissionBatches.observe(inputs.length);
      return authenticateMany(deps.db, inputs);
    },
    {
      maxBatch: ADMISSION_BATCH,
    },
  );
  app.addHook('onRequest', async (request, reply) => {
    const access: RouteAccess = request.routeOptions.config.access ?? { scope: null };
    if (access.scope === 'public') return;

    const secret = presentedSecret(request);
    if (secret === null || !KEY_PATTERN.test(secret)) {
      throw new ApiError('unauthenticated', 'Send a valid API key as "Authorization: Bearer <key>".');
    }
    const now = deps.clock.now();
    const window = windowOf(now);
    const tenant =
      access.budget === 'listen'
        ? await admitOnListenBudget(deps.db, request, reply, access, { secret, now, window })
        : await admitCounted(request, reply, access, { secret, now, window });
    request.tenant = tenant;
    if (access.scope !== null && !tenant.scopes.has(access.scope)) {
      const legacy =
        access.legacyScope !== undefined &&
        tenant.scopes.has(access.legacyScope) &&
        now.epochMilliseconds < Date.parse(LEGACY_SCOPE_SUNSET);
      if (!legacy) {
        throw new ApiError('invalid_scope', `This operation requires the scope ${access.scope}.`, {
          errors: { required_scope: access.scope },
        });
      }
      // Admitted by the scope it used to need, until the sunset: the headers tell the client to move.
      reply.header('Deprecation', `@${LEGACY_SCOPE_DEPRECATED_AT}`);
      reply.header('Sunset', LEGACY_SCOPE_SUNSET);
    }
  });

  /** The usual admission: the key, its company's state, and the request counted in its window and the quota. */
  async function admitCounted(
    request: FastifyRequest,
    reply: FastifyReply,
    access: RouteAccess,
    input: Presented,
  ): Promise<Tenant> {
    const { secret, now, window } = input;
    // One round trip, shared with the requests admitted at the same time: the key, its company's state, and the
    // request counted when the service is open to it.
    const key = await authenticate({
      secretHash: sha256(secret),
      mode: modeOf(secret),
      now: toDate(now),
      windowStart: window.windowStart,
      month: window.month,
      ip: request.ip,
      allowInactiveService: access.allowInactiveService === true,
    });
    if (key.outcome === 'unauthenticated') {
      throw new ApiError('unauthenticated', 'The API key is invalid, revoked or expired.');
    }
    const tenant = toTenant(key);
    request.caller = tenant;
    setUsageHeaders(reply, tenant, key.window_count, key.quota_count, window.resetSeconds);
    if (key.outcome === 'refused') {
      throw serviceRefusal(key, access) ?? new Error('jornada_authenticate refused an open service');
    }
    if (key.outcome === 'rate_limited') throw rateLimited(tenant.rateLimitPerMinute, window, now);
    if (key.outcome === 'quota_exceeded') throw quotaExceeded(tenant.monthlyQuota, now);
    return tenant;
  }
}

/** A presented key and the instant and window its request is admitted in. */
type Presented = { secret: string; now: Temporal.Instant; window: ReturnType<typeof windowOf> };

const modeOf = (secret: string) => (secret.startsWith('jrn_live_') ? ('live' as const) : ('test' as const));

/**
 * A request of the listen budget: the key authenticated as any other (401, then the service's state), then
 * counted in its own minute window (exact across nodes: a row of rate_limit_windows), never in the key's window
 * nor the quota; the headers show that window and the quota left. The scope is checked after, as for any request.
 */
async function admitOnListenBudget(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  access: RouteAccess,
  input: Presented,
): Promise<Tenant> {
  const { secret, now, window } = input;
  const key = await findKeyUncounted(db, sha256(secret), window.month);
  if (
    !key ||
    key.mode !== modeOf(secret) ||
    key.revoked_at !== null ||
    (key.expires_at !== null && key.expires_at.getTime() <= now.epochMilliseconds)
  ) {
    throw new ApiError('unauthenticated', 'The API key is invalid, revoked or expired.');
  }
  const tenant = toTenant(key);
  request.caller = tenant;
  const refusal = serviceRefusal(key, access);
  const counted =
    refusal === null
      ? await admitToWindow(db, {
          companyId: key.company_id,
          subjectId: listenWindowId(key.api_key_id),
          windowStart: window.windowStart,
          limit: LISTEN_PER_MINUTE,
        })
      : 0;
  const listenTenant = { ...tenant, rateLimitPerMinute: LISTEN_PER_MINUTE };
  setUsageHeaders(reply, listenTenant, counted ?? LISTEN_PER_MINUTE, key.quota_count, window.resetSeconds);
  if (refusal) throw refusal;
  if (counted === null) throw rateLimited(LISTEN_PER_MINUTE, window, now);
  return tenant;
}

/**
 * The gate of every tenant call, from a key or a dashboard session: the account's addon must be on
 * (403 addon_disabled), then its service active (403 subscription_inactive) unless the route revokes.
 */
export function serviceRefusal(
  account: { addon_enabled: boolean; company_status: CompanyStatus; subscription_status: SubscriptionStatus },
  access: Pick<RouteAccess, 'allowInactiveService'> | undefined,
): ApiError | null {
  if (!account.addon_enabled) {
    return new ApiError('addon_disabled', 'The public API addon is not active for this company.');
  }
  if (!hasActiveService(account) && !access?.allowInactiveService) {
    return new ApiError('subscription_inactive', 'The company has no active service.');
  }
  return null;
}
