import type { FastifyRequest } from 'fastify';
import { admitToWindow } from './auth.repo.ts';
import { rateLimited, windowOf } from './auth.ts';
import type { AppDeps } from './deps.ts';
import { ApiError } from './errors.ts';
import { safeEqual } from './secrets.ts';
import { RATE_LIMIT_PER_MINUTE } from './service-state.ts';

/** Session cookies are Secure when the service is reached, or published, over https. */
export function secureCookies(deps: Pick<AppDeps, 'publicUrl'>, request: FastifyRequest): boolean {
  return request.protocol === 'https' || deps.publicUrl.startsWith('https://');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A person's requests per minute through their sessions (the dashboard's and the portal's): five times the live key limit,
 * because a screen is several requests (the team calendar's month is seven, more with paging) and a person
 * moves between screens quickly (docs/decisions/0007-hardening.md).
 */
export const SESSION_RATE_LIMIT_PER_MINUTE = RATE_LIMIT_PER_MINUTE.live * 5;

/**
 * The gate of a cookie session (the dashboard's, the portal's): the session, then the CSRF token on a
 * state-changing call, then the session's per-minute window. A cross-site page can neither read the token nor
 * (SameSite=Strict) send the cookie; logins accept only JSON, which a cross-site form cannot send without a CORS
 * preflight that this service never grants. Metered per person (the administrator or the worker, across all
 * their sessions), never counted toward the monthly quota (docs/decisions/0007-hardening.md).
 */
export async function admitSession<
  S extends { id: string; company_id: string; csrf_token: string; admin_id?: string; employee_id?: string },
>(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  request: FastifyRequest,
  session: S | null,
  where: string,
): Promise<S> {
  if (!session) throw new ApiError('unauthenticated', `Log in to the ${where} first.`);
  if (!SAFE_METHODS.has(request.method)) {
    const presented = request.headers['x-csrf-token'];
    if (
      typeof presented !== 'string' ||
      !safeEqual(Buffer.from(presented), Buffer.from(session.csrf_token))
    ) {
      throw new ApiError('unauthenticated', 'The X-CSRF-Token header is missing or does not match.', {
        status: 403,
        errors: { csrf_token: ['is missing or does not match the session'] },
      });
    }
  }
  const now = deps.clock.now();
  const window = windowOf(now);
  // The window is the person's (the administrator's, the worker's), shared by all their sessions: four sessions
  // of one administrator used to get four windows (issue 35).
  const admitted = await admitToWindow(deps.db, {
    companyId: session.company_id,
    subjectId: session.admin_id ?? session.employee_id ?? session.id,
    windowStart: window.windowStart,
    limit: SESSION_RATE_LIMIT_PER_MINUTE,
  });
  if (admitted === null) throw rateLimited(SESSION_RATE_LIMIT_PER_MINUTE, window, now);
  return session;
}
