import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LoginBody } from '../modules/admins/admins.schemas.ts';
import { authenticateAdmin } from '../modules/admins/admins.service.ts';
import {
  createSession,
  deleteSession,
  findSession,
  SESSION_COOKIE,
  SESSION_SECONDS,
  type Session,
} from '../modules/admins/sessions.ts';
import { getCompany } from '../modules/companies/companies.service.ts';
import { assertLoginAllowed, recordLoginOutcome } from '../modules/logins/logins.service.ts';
import { admitToWindow } from '../platform/auth.repo.ts';
import { rateLimited, windowOf } from '../platform/auth.ts';
import type { AppDeps } from '../platform/deps.ts';
import { ApiError } from '../platform/errors.ts';
import { route } from '../platform/operation.ts';
import { safeEqual } from '../platform/secrets.ts';
import { RATE_LIMIT_PER_MINUTE } from '../platform/service-state.ts';
import { DASHBOARD_OPERATION, SessionView } from './dashboard.schemas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function secureCookies(deps: AppDeps, request: FastifyRequest): boolean {
  return request.protocol === 'https' || deps.publicUrl.startsWith('https://');
}

export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw new ApiError('unauthenticated', 'Log in to the dashboard first.');
  return request.session;
}

async function sessionView(deps: AppDeps, session: Session) {
  return {
    admin: { id: session.admin_id, email: session.email },
    company: await getCompany(deps.db, session.company_id),
    csrf_token: session.csrf_token,
  };
}

/** A dashboard session's requests per minute: the live key limit. */
export const SESSION_RATE_LIMIT_PER_MINUTE = RATE_LIMIT_PER_MINUTE.live;

/**
 * The session gate of every /dashboard/api call but login: the session cookie, then the CSRF token on
 * state-changing calls, then the session's per-minute window.
 */
export function registerSessionGate(api: FastifyInstance, deps: AppDeps): void {
  // Session, then CSRF: a state-changing call needs the session's token in X-CSRF-Token. A cross-site page
  // can neither read the token nor (SameSite=Strict) send the cookie; login itself accepts only JSON, which a
  // cross-site form cannot send without a CORS preflight that this service never grants.
  api.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.access?.scope === 'public') return;
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await findSession(deps.db, deps.clock, token) : null;
    if (!session) throw new ApiError('unauthenticated', 'Log in to the dashboard first.');
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
    // Metered per session (a person, not an integration): the live key limit per minute, in both modes,
    // and never counted toward the monthly quota (docs/decisions/0007-hardening.md).
    const now = deps.clock.now();
    const window = windowOf(now);
    const admitted = await admitToWindow(deps.db, {
      companyId: session.company_id,
      subjectId: session.id,
      windowStart: window.windowStart,
      limit: SESSION_RATE_LIMIT_PER_MINUTE,
    });
    if (admitted === null) throw rateLimited(SESSION_RATE_LIMIT_PER_MINUTE, window, now);
    request.session = session;
  });
}

/** Login, the current session, logout. */
export function sessionRoutes(api: FastifyInstance, deps: AppDeps): void {
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/dashboard/api/login',
      operationId: 'dashboardLogin',
      summary: 'Log in with email and password; sets the session cookie',
      scope: 'public',
      body: LoginBody,
      responses: { 200: { description: 'The session.', schema: SessionView } },
    },
    async (request, reply) => {
      const attempt = { email: request.body.email, ip: request.ip };
      await assertLoginAllowed(deps.db, deps.clock, attempt);
      const admin = await authenticateAdmin(deps, request.body);
      await recordLoginOutcome(deps.db, deps.clock, attempt, admin !== null);
      if (!admin) throw new ApiError('unauthenticated', 'The email or the password is wrong.');
      const { token, session } = await createSession(deps.db, deps.clock, admin);
      reply.setCookie(SESSION_COOKIE, token, {
        path: '/dashboard',
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookies(deps, request),
        maxAge: SESSION_SECONDS,
      });
      return await sessionView(deps, session);
    },
  );
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/dashboard/api/session',
      operationId: 'dashboardSession',
      summary: 'The current session (and its CSRF token)',
      scope: null,
      responses: { 200: { description: 'The session.', schema: SessionView } },
    },
    async (request) => sessionView(deps, requireSession(request)),
  );
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/dashboard/api/logout',
      operationId: 'dashboardLogout',
      summary: 'End the session',
      scope: null,
      responses: { 204: { description: 'Logged out.', schema: null } },
    },
    async (request, reply) => {
      await deleteSession(deps.db, requireSession(request));
      reply.clearCookie(SESSION_COOKIE, { path: '/dashboard' });
      return reply.code(204).send();
    },
  );
}
