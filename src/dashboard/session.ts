import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LoginBody } from '../modules/admins/admins.schemas.ts';
import {
  authenticateAdmin,
  authenticateAdminWithPasskey,
  dashboardLanguage,
  setAdminLanguage,
} from '../modules/admins/admins.service.ts';
import {
  createSession,
  deleteSession,
  findSession,
  SESSION_COOKIE,
  SESSION_SECONDS,
  type Session,
} from '../modules/admins/sessions.ts';
import { getCompany } from '../modules/companies/companies.service.ts';
import { throttledLogin } from '../modules/logins/logins.service.ts';
import { passkeyRoutes } from '../modules/passkeys/passkeys.routes.ts';
import type { AppDeps } from '../platform/deps.ts';
import { ApiError } from '../platform/errors.ts';
import { route } from '../platform/operation.ts';
import { admitSession, secureCookies } from '../platform/session-gate.ts';
import { DASHBOARD_OPERATION, SessionView, UpdateMeBody } from './dashboard.schemas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
}

export function requireSession(request: FastifyRequest): Session {
  if (!request.session) throw new ApiError('unauthenticated', 'Log in to the dashboard first.');
  return request.session;
}

async function sessionView(deps: AppDeps, session: Session) {
  const company = await getCompany(deps.db, session.company_id);
  return {
    admin: { id: session.admin_id, email: session.email, language: session.language },
    language: dashboardLanguage(session.language, company.timezone),
    company,
    csrf_token: session.csrf_token,
  };
}

export { SESSION_RATE_LIMIT_PER_MINUTE } from '../platform/session-gate.ts';

/** The session gate of every /dashboard/api call but login (platform/session-gate.ts). */
export function registerSessionGate(api: FastifyInstance, deps: AppDeps): void {
  api.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.access?.scope === 'public') return;
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await findSession(deps.db, deps.clock, token) : null;
    request.session = await admitSession(deps, request, session, 'dashboard');
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
      const admin = await throttledLogin(deps.db, deps.clock, attempt, () =>
        authenticateAdmin(deps, request.body),
      );
      return await openSession(request, reply, admin);
    },
  );
  const openSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    admin: Parameters<typeof createSession>[2],
    passkeyId?: string,
  ) => {
    const { token, session } = await createSession(deps.db, deps.clock, admin, passkeyId);
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/dashboard',
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookies(deps, request),
      maxAge: SESSION_SECONDS,
    });
    return await sessionView(deps, session);
  };
  // An administrator's passkeys (issue 35): a locked password does not lock them out.
  passkeyRoutes(api, deps, {
    audience: 'dashboard',
    prefix: '/dashboard/api',
    operation: DASHBOARD_OPERATION,
    idPrefix: 'dashboard',
    owner: async (request) => {
      const session = requireSession(request);
      return { companyId: session.company_id, type: 'admin', id: session.admin_id, userName: session.email };
    },
    credential: (request) => {
      const session = requireSession(request);
      const startedAt = (session.created_at ?? new Date()).toISOString();
      return session.credential_kind === 'passkey' && session.passkey_id
        ? { kind: 'passkey', session_started_at: startedAt, passkey_id: session.passkey_id }
        : { kind: 'password', session_started_at: startedAt };
    },
    signIn: async (request, reply, response) => {
      const { admin, passkeyId } = await authenticateAdminWithPasskey(deps, response);
      return await openSession(request, reply, admin, passkeyId);
    },
    sessionSchema: SessionView,
  });
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
      method: 'PATCH',
      url: '/dashboard/api/me',
      operationId: 'dashboardUpdateMe',
      summary: "The administrator's own preferences: the dashboard's language",
      scope: null,
      body: UpdateMeBody,
      responses: { 200: { description: 'The session, in the chosen language.', schema: SessionView } },
    },
    async (request) => {
      const session = requireSession(request);
      await setAdminLanguage(deps, session, request.body.language);
      return await sessionView(deps, { ...session, language: request.body.language });
    },
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
