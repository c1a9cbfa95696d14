import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { serviceRefusal, type Tenant, tenantOf } from '../../platform/auth.ts';
import { IdParams, NoBody } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { SCOPES } from '../../platform/scopes.ts';
import {
  clearSessionCookie,
  DASHBOARD_OPERATION,
  requireSession,
  type SessionCookie,
  sessionCredential,
  sessionGate,
  setSessionCookie,
} from '../../platform/sessions.ts';
import { getCompany, loadAccount } from '../companies/companies.service.ts';
import { throttledLogin } from '../logins/logins.service.ts';
import { passkeyRoutes } from '../passkeys/passkeys.routes.ts';
import {
  Admin,
  CreateAdminBody,
  LoginBody,
  SessionView,
  UpdateAdminBody,
  UpdateMeBody,
} from './admins.schemas.ts';
import {
  authenticateAdmin,
  authenticateAdminWithPasskey,
  createAdmin,
  dashboardLanguage,
  disableAdmin,
  listAdmins,
  setAdminLanguage,
  updateAdmin,
} from './admins.service.ts';
import { allowedOperations, checkRecordReach, reachOf, roleAllows, roleForbidden } from './roles.ts';
import {
  createSession,
  deleteSession,
  findSession,
  SESSION_COOKIE,
  SESSION_SECONDS,
  type Session,
} from './sessions.ts';

/** The operator's: add an administrator to a company. */
export function adminsAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const CompanyParams = IdParams;
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'POST',
      url: '/admin/v1/companies/:id/admins',
      operationId: 'adminCreateAdmin',
      summary: 'Create a company administrator (a dashboard login)',
      description:
        'Emails are unique in the deployment (409 otherwise). The password is stored as a scrypt hash.',
      params: CompanyParams,
      body: CreateAdminBody,
      errors: ['conflict'],
      responses: { 201: { description: 'The administrator.', schema: Admin } },
    },
    async (request, reply) =>
      reply.code(201).send(await createAdmin(deps, { companyId: request.params.id }, request.body, 'owner')),
  );
}

/** The dashboard's: a company's administrators (list, add, disable). */
export function adminsDashboardRoutes(api: FastifyInstance, deps: AppDeps): void {
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/dashboard/api/admins',
      operationId: 'dashboardListAdmins',
      summary: 'The company’s administrators',
      scope: null,
      responses: {
        200: { description: 'Administrators.', schema: Type.Object({ data: Type.Array(Admin) }) },
      },
    },
    async (request) => listAdmins(deps, { companyId: requireSession(request).company_id }),
  );
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/dashboard/api/admins',
      operationId: 'dashboardCreateAdmin',
      summary: 'Add an administrator (email and a first password of 12 characters or more)',
      scope: null,
      body: CreateAdminBody,
      responses: { 201: { description: 'The administrator.', schema: Admin } },
    },
    async (request, reply) => {
      reply.code(201);
      return await createAdmin(
        deps,
        { companyId: requireSession(request).company_id },
        request.body,
        'admin',
      );
    },
  );
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'PATCH',
      url: '/dashboard/api/admins/:id',
      operationId: 'dashboardUpdateAdmin',
      summary: "Change another administrator's role, and a team lead's units (owners only)",
      scope: null,
      params: IdParams,
      body: UpdateAdminBody,
      errors: ['conflict', 'role_forbidden'],
      responses: { 200: { description: 'The administrator.', schema: Admin } },
    },
    async (request) => {
      const session = requireSession(request);
      return await updateAdmin(
        deps,
        { companyId: session.company_id },
        request.params.id,
        request.body,
        session.admin_id,
      );
    },
  );
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/dashboard/api/admins/:id/disable',
      operationId: 'dashboardDisableAdmin',
      summary: 'Disable another administrator (no login, sessions end; the record stays for the registry)',
      scope: null,
      params: IdParams,
      body: NoBody,
      responses: { 204: { description: 'Disabled.', schema: null } },
    },
    async (request, reply) => {
      const session = requireSession(request);
      await disableAdmin(deps, { companyId: session.company_id }, request.params.id, session.admin_id);
      return reply.code(204).send();
    },
  );
}

/** The dashboard's session cookie: HttpOnly, SameSite=Strict, for /dashboard alone, 12 hours. */
export const DASHBOARD_SESSION: SessionCookie = {
  name: SESSION_COOKIE,
  path: '/dashboard',
  maxAgeSeconds: SESSION_SECONDS,
};

/**
 * The dashboard surface's gate for /dashboard/api (but its logins): the session, CSRF, the person's window, and
 * the administrator's role (roles.ts), decided here for every route before anything runs.
 */
export function dashboardGate(deps: AppDeps) {
  const gate = sessionGate(deps, DASHBOARD_SESSION, 'dashboard', (token) =>
    findSession(deps.db, deps.clock, token),
  );
  return async (request: FastifyRequest): Promise<void> => {
    const session = await gate(request);
    if (!session) return;
    request.session = session;
    const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    if (operationId && !roleAllows(session.role, operationId, modeOfUrl(request.routeOptions.url))) {
      throw roleForbidden(session.role);
    }
  };
}

const modeOfUrl = (url: string | undefined) =>
  url?.startsWith('/dashboard/api/live/') ? 'live' : url?.startsWith('/dashboard/api/test/') ? 'test' : null;

/** A team lead's call on a record of another unit's employee is a 404 (roles.ts), once the id is valid. */
export function dashboardReachGate(deps: AppDeps) {
  return async (request: FastifyRequest): Promise<void> => {
    const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    const id = (request.params as { id?: string } | undefined)?.id;
    if (operationId && request.tenant) await checkRecordReach(deps.db, request.tenant, operationId, id);
  };
}

/**
 * The session as a tenant of the chosen mode, under the same gate as /v1: addon_disabled, then
 * subscription_inactive (except the routes that revoke). An administrator holds every scope.
 */
export function dashboardTenantGate(deps: AppDeps, mode: 'live' | 'test') {
  return async (request: FastifyRequest): Promise<void> => {
    request.tenant = await sessionTenant(deps, request, mode);
  };
}

async function sessionTenant(deps: AppDeps, request: FastifyRequest, mode: 'live' | 'test'): Promise<Tenant> {
  const session = requireSession(request);
  const { account, sandbox } = await loadAccount(deps.db, session.company_id);
  const refusal = serviceRefusal(account, request.routeOptions.config.access);
  if (refusal) throw refusal;
  // With the addon on, the sandbox exists (addon.ts keeps the two together under the account's lock).
  const tenant = mode === 'live' ? account : sandbox;
  if (!tenant) throw new Error(`company ${account.id} has the addon on but no sandbox`);
  return tenantOf({
    companyId: tenant.id,
    accountId: account.id,
    mode,
    sandbox: mode === 'test',
    apiKeyId: null,
    actor: { type: 'admin', id: session.admin_id },
    scopes: new Set(SCOPES),
    timezone: account.timezone,
    activeEmployees: tenant.active_employee_count,
    reach: await reachOf(deps.db, account.id, session),
  });
}

async function sessionView(deps: AppDeps, session: Session) {
  const company = await getCompany(deps.db, session.company_id);
  return {
    admin: {
      id: session.admin_id,
      email: session.email,
      language: session.language,
      role: session.role,
      unit_ids: session.unit_ids,
    },
    can: allowedOperations(session.role),
    language: dashboardLanguage(session.language, company.timezone),
    company,
    csrf_token: session.csrf_token,
  };
}

/** The dashboard's login (a password or a passkey), the current session, the administrator's language, logout. */
export function adminsSessionRoutes(api: FastifyInstance, deps: AppDeps): void {
  const openSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    admin: Parameters<typeof createSession>[2],
    passkeyId?: string,
  ) => {
    const { token, session } = await createSession(deps.db, deps.clock, admin, passkeyId);
    setSessionCookie(deps, request, reply, DASHBOARD_SESSION, token);
    return await sessionView(deps, session);
  };
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
      clearSessionCookie(reply, DASHBOARD_SESSION);
      return reply.code(204).send();
    },
  );
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
      return sessionCredential(session, SESSION_SECONDS);
    },
    signIn: async (request, reply, response) => {
      const { admin, passkeyId } = await authenticateAdminWithPasskey(deps, response);
      return await openSession(request, reply, admin, passkeyId);
    },
    sessionSchema: SessionView,
  });
}
