import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
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
import { ApiKeyWithSecret } from '../modules/api-keys/api-keys.schemas.ts';
import { issueApiKey } from '../modules/api-keys/api-keys.service.ts';
import { getCompany, loadAccount } from '../modules/companies/companies.service.ts';
import { Employee } from '../modules/employees/employees.schemas.ts';
import { listEmployees } from '../modules/employees/employees.service.ts';
import { changeCompany } from '../modules/lifecycle/lifecycle.service.ts';
import { assertLoginAllowed, recordLoginOutcome } from '../modules/logins/logins.service.ts';
import { downloadSigner } from '../modules/reports/reports.routes.ts';
import { Report } from '../modules/reports/reports.schemas.ts';
import { listRecentReports } from '../modules/reports/reports.service.ts';
import { registerTenantRoutes } from '../modules/tenant-routes.ts';
import { admitToWindow } from '../platform/auth.repo.ts';
import {
  rateLimited,
  requireTenant,
  serviceRefusal,
  type Tenant,
  tenantOf,
  windowOf,
} from '../platform/auth.ts';
import type { AppDeps } from '../platform/deps.ts';
import { ApiError } from '../platform/errors.ts';
import { route } from '../platform/operation.ts';
import { ListOf } from '../platform/pagination.ts';
import { SCOPES } from '../platform/scopes.ts';
import { safeEqual } from '../platform/secrets.ts';
import { RATE_LIMIT_PER_MINUTE } from '../platform/service-state.ts';
import {
  DashboardCreateKeyBody,
  EmployeeSearchQuery,
  SessionView,
  SettingsView,
  UpdateSettingsBody,
} from './dashboard.schemas.ts';
import { integrationSettings } from './settings.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
}

/** Where `npm run build` (Vite) writes the dashboard's static assets. */
export const DASHBOARD_DIST = fileURLToPath(new URL('../../dashboard/dist', import.meta.url));

const MODES = ['live', 'test'] as const;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const dashboard = { tag: 'Dashboard', surface: 'dashboard' } as const;

/** The HTML shell: no framing, no third-party anything, never cached (it names the hashed asset files). */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/**
 * The company dashboard: the Vite-built single-page app at /dashboard, and its JSON API at /dashboard/api.
 * Company administrators log in with email and password; the session is an HttpOnly, SameSite=Strict cookie
 * (Secure when the service is reached over https), and every state-changing call must carry X-CSRF-Token.
 * The tenant routes are the /v1 route modules themselves, mounted under /dashboard/api/live and /test with the
 * session standing in for an API key: one copy of every business rule.
 */
export async function dashboardPlugin(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(fastifyCookie);
  app.decorateRequest('session', null);
  await app.register(async (api) => dashboardApi(api, deps), { prefix: '/dashboard/api' });

  const index = path.join(DASHBOARD_DIST, 'index.html');
  if (existsSync(path.join(DASHBOARD_DIST, 'assets'))) {
    await app.register(fastifyStatic, {
      root: path.join(DASHBOARD_DIST, 'assets'),
      prefix: '/dashboard/assets/',
      index: false,
      immutable: true,
      maxAge: '365d',
    });
  }
  const page = async (_request: FastifyRequest, reply: FastifyReply) => {
    if (!existsSync(index)) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The dashboard is not built. Run `npm run build` (npm install does it too).\n');
    }
    return reply
      .headers(PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(await readFile(index));
  };
  // The app's own routes (#/keys, #/webhooks…) live in the URL's fragment, so the shell is one address.
  app.get('/dashboard', { schema: { hide: true } }, page);
}

function secureCookies(deps: AppDeps, request: FastifyRequest): boolean {
  return request.protocol === 'https' || deps.publicUrl.startsWith('https://');
}

function requireSession(request: FastifyRequest): Session {
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

async function dashboardApi(api: FastifyInstance, deps: AppDeps): Promise<void> {
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

  route(
    api,
    {
      ...dashboard,
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
      const admin = await authenticateAdmin(deps.db, request.body.email, request.body.password);
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
      ...dashboard,
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
      ...dashboard,
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
  route(
    api,
    {
      ...dashboard,
      method: 'GET',
      url: '/dashboard/api/settings',
      operationId: 'dashboardSettings',
      summary: 'Addon, subscription state, quota use and rate limits',
      scope: null,
      responses: { 200: { description: 'The settings.', schema: SettingsView } },
    },
    async (request) => integrationSettings(deps.db, deps.clock, requireSession(request).company_id),
  );
  route(
    api,
    {
      ...dashboard,
      method: 'PATCH',
      url: '/dashboard/api/settings',
      operationId: 'dashboardUpdateSettings',
      summary: 'Switch the public API addon on or off',
      scope: null,
      body: UpdateSettingsBody,
      responses: { 200: { description: 'The settings.', schema: SettingsView } },
    },
    async (request) => {
      const companyId = requireSession(request).company_id;
      await changeCompany(deps, companyId, { addon_enabled: request.body.addon_enabled });
      return integrationSettings(deps.db, deps.clock, companyId);
    },
  );

  for (const mode of MODES) {
    await api.register(
      async (tenantApi) => {
        tenantApi.addHook('onRequest', async (request) => {
          request.tenant = await sessionTenant(deps, request, mode);
        });
        tenantRoutes(tenantApi, deps, mode);
      },
      { prefix: `/${mode}` },
    );
  }
}

/**
 * The session as a tenant of the chosen mode, under the same gate as /v1: addon_disabled, then
 * subscription_inactive (except the routes that revoke). An administrator holds every scope.
 */
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
    scopes: new Set(SCOPES),
    timezone: account.timezone,
    activeEmployees: tenant.active_employee_count,
  });
}

function tenantRoutes(app: FastifyInstance, deps: AppDeps, mode: 'live' | 'test'): void {
  registerTenantRoutes(app, deps, 'dashboard');

  // What only the dashboard does: issue keys, search employees, list the latest reports.
  route(
    app,
    {
      ...dashboard,
      method: 'POST',
      url: '/api-keys',
      operationId: `dashboardCreate${mode}Key`,
      summary: 'Issue a key of this mode (secret shown once)',
      scope: null,
      body: DashboardCreateKeyBody,
      errors: ['conflict', 'addon_disabled'],
      responses: { 201: { description: 'The key with its secret.', schema: ApiKeyWithSecret } },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const key = await issueApiKey(deps.db, deps.clock, tenant.accountId, { ...request.body, mode });
      return reply.code(201).send(key);
    },
  );
  route(
    app,
    {
      ...dashboard,
      method: 'GET',
      url: '/employees/search',
      operationId: `dashboardSearch${mode}Employees`,
      summary: 'Employees by name, email or external id, and status',
      scope: null,
      querystring: EmployeeSearchQuery,
      responses: { 200: { description: 'A page of employees.', schema: ListOf(Employee) } },
    },
    async (request) =>
      listEmployees(deps.db, deps.cursors, requireTenant(request).companyId, {
        limit: request.query.limit,
        cursor: request.query.cursor,
        status: request.query.status,
        search: request.query.q,
      }),
  );
  const signer = downloadSigner(deps);
  route(
    app,
    {
      ...dashboard,
      method: 'GET',
      url: '/reports',
      operationId: `dashboardList${mode}Reports`,
      summary: 'The latest 20 reports, newest first',
      scope: null,
      responses: { 200: { description: 'Reports.', schema: Type.Object({ data: Type.Array(Report) }) } },
    },
    async (request) => ({
      data: await listRecentReports(deps.db, deps.clock, signer, requireTenant(request).companyId, 20),
    }),
  );
}
