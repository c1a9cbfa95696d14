import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AbsenceTypeRef, CreateAbsenceTypeBody } from '../modules/absence-types/absence-types.schemas.ts';
import { createAbsenceType } from '../modules/absence-types/absence-types.service.ts';
import { ApiKeyWithSecret } from '../modules/api-keys/api-keys.schemas.ts';
import { issueApiKey } from '../modules/api-keys/api-keys.service.ts';
import { loadAccount } from '../modules/companies/companies.service.ts';
import { Employee } from '../modules/employees/employees.schemas.ts';
import { listEmployees } from '../modules/employees/employees.service.ts';
import { CreateHolidayBody, Holiday, ListHolidaysQuery } from '../modules/holidays/holidays.schemas.ts';
import { createHoliday, deleteHoliday, listHolidays } from '../modules/holidays/holidays.service.ts';
import { downloadSigner } from '../modules/reports/reports.routes.ts';
import { Report } from '../modules/reports/reports.schemas.ts';
import { listRecentReports } from '../modules/reports/reports.service.ts';
import { RequestLog } from '../modules/request-log/request-log.schemas.ts';
import { listRequestLog } from '../modules/request-log/request-log.service.ts';
import { registerTenantRoutes } from '../modules/tenant-routes.ts';
import { Charts, Today } from '../modules/today/today.schemas.ts';
import { charts, today } from '../modules/today/today.service.ts';
import { requireTenant, serviceRefusal, type Tenant, tenantOf } from '../platform/auth.ts';
import { IdParams } from '../platform/common.schemas.ts';
import type { AppDeps } from '../platform/deps.ts';
import { route } from '../platform/operation.ts';
import { ListOf } from '../platform/pagination.ts';
import { SCOPES } from '../platform/scopes.ts';
import { DASHBOARD_OPERATION, DashboardCreateKeyBody, EmployeeSearchQuery } from './dashboard.schemas.ts';
import { requireSession } from './session.ts';

const MODES = ['live', 'test'] as const;

/**
 * The tenant routes under /dashboard/api/live and /test: the /v1 route modules themselves, with the session
 * standing in for an API key (one copy of every business rule), and what only the dashboard does.
 */
export async function registerTenantApi(api: FastifyInstance, deps: AppDeps): Promise<void> {
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
    actor: { type: 'admin', id: session.admin_id },
    scopes: new Set(SCOPES),
    timezone: account.timezone,
    activeEmployees: tenant.active_employee_count,
  });
}

function tenantRoutes(app: FastifyInstance, deps: AppDeps, mode: 'live' | 'test'): void {
  registerTenantRoutes(app, deps, 'dashboard');

  // What only the dashboard does: issue keys, search employees, list the latest reports, today at a glance, the
  // holidays of a calendar, the sandbox's request log.
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/request-log',
      operationId: `dashboard${mode}RequestLog`,
      summary: 'The last 100 requests of the sandbox’s test keys (test mode only; live: 404)',
      scope: null,
      responses: { 200: { description: 'The requests, newest first.', schema: RequestLog } },
    },
    async (request) => listRequestLog(deps, requireTenant(request)),
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/holidays',
      operationId: `dashboard${mode}Holidays`,
      summary: 'The company’s holidays from one date to another (at most a year)',
      scope: null,
      querystring: ListHolidaysQuery,
      responses: { 200: { description: 'Holidays.', schema: Type.Object({ data: Type.Array(Holiday) }) } },
    },
    async (request) => listHolidays(deps, requireTenant(request), request.query),
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/holidays',
      operationId: `dashboard${mode}CreateHoliday`,
      summary: 'Add a company holiday (nobody is expected to work that date)',
      scope: null,
      body: CreateHolidayBody,
      responses: { 201: { description: 'The holiday.', schema: Holiday } },
    },
    async (request, reply) => {
      reply.code(201);
      return await createHoliday(deps, requireTenant(request), request.body);
    },
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'DELETE',
      url: '/holidays/:id',
      operationId: `dashboard${mode}DeleteHoliday`,
      summary: 'Remove a company holiday (its date is a working day again; refused in a closed month)',
      scope: null,
      params: IdParams,
      responses: { 204: { description: 'Removed.', schema: null } },
    },
    async (request, reply) => {
      await deleteHoliday(deps, requireTenant(request), request.params.id);
      return reply.code(204).send();
    },
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/absence-types',
      operationId: `dashboard${mode}CreateAbsenceType`,
      summary: 'Add an absence type (a key and a label)',
      scope: null,
      body: CreateAbsenceTypeBody,
      responses: { 201: { description: 'The absence type.', schema: AbsenceTypeRef } },
    },
    async (request, reply) => {
      reply.code(201);
      return await createAbsenceType(deps, requireTenant(request), request.body);
    },
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/today',
      operationId: `dashboard${mode}Today`,
      summary: 'Today at a glance: who is in, pending approvals, problem days, the month so far',
      scope: null,
      responses: { 200: { description: 'Today.', schema: Today } },
    },
    async (request) => today(deps, requireTenant(request)),
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/charts',
      operationId: `dashboard${mode}Charts`,
      summary:
        'The home page’s charts: weeks worked against expected, the month’s overtime, the year’s absences',
      scope: null,
      responses: { 200: { description: 'Charts.', schema: Charts } },
    },
    async (request) => charts(deps, requireTenant(request)),
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
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
      const key = await issueApiKey(deps, { companyId: tenant.accountId }, { ...request.body, mode });
      return reply.code(201).send(key);
    },
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/employees/search',
      operationId: `dashboardSearch${mode}Employees`,
      summary: 'Employees by name, email or external id, and status',
      scope: null,
      querystring: EmployeeSearchQuery,
      responses: { 200: { description: 'A page of employees.', schema: ListOf(Employee) } },
    },
    async (request) =>
      listEmployees(deps, requireTenant(request), {
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
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/reports',
      operationId: `dashboardList${mode}Reports`,
      summary: 'The latest 20 reports, newest first',
      scope: null,
      responses: { 200: { description: 'Reports.', schema: Type.Object({ data: Type.Array(Report) }) } },
    },
    async (request) => ({
      data: await listRecentReports({ ...deps, signer }, requireTenant(request), 20),
    }),
  );
}
