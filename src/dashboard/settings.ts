import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../db/database.ts';
import { Admin, CreateAdminBody } from '../modules/admins/admins.schemas.ts';
import { createAdmin, disableAdmin, listAdmins } from '../modules/admins/admins.service.ts';
import { companyView, loadAccount } from '../modules/companies/companies.service.ts';
import { changeCompany } from '../modules/lifecycle/lifecycle.service.ts';
import { Location, UpdateLocationBody } from '../modules/locations/locations.schemas.ts';
import { updateLocation } from '../modules/locations/locations.service.ts';
import { quotaUsed } from '../platform/auth.repo.ts';
import { quotaMonth } from '../platform/auth.ts';
import { IdParams, NoBody, Uuid } from '../platform/common.schemas.ts';
import type { AppDeps } from '../platform/deps.ts';
import { route } from '../platform/operation.ts';
import { monthlyQuota, RATE_LIMIT_PER_MINUTE } from '../platform/service-state.ts';
import type { Clock } from '../time/clock.ts';
import { DASHBOARD_OPERATION, SettingsView, UpdateSettingsBody } from './dashboard.schemas.ts';
import { requireSession } from './session.ts';

/** The integration settings screen: the company, this month's quota use per tenant, and the rate limits. */
export async function integrationSettings(db: Db, clock: Clock, companyId: string) {
  const loaded = await loadAccount(db, companyId);
  const { account, sandbox } = loaded;
  // The month the requests count toward, as jornada_authenticate_many counts them (platform/auth.ts).
  const month = quotaMonth(clock.now());
  const usage = async (tenant: { id: string; active_employee_count: number }, mode: 'live' | 'test') => {
    return {
      used: await quotaUsed(db, tenant.id, month),
      quota: monthlyQuota(mode, tenant.active_employee_count),
    };
  };
  return {
    company: companyView(loaded),
    usage: {
      month: month.slice(0, 7),
      live: await usage(account, 'live'),
      test: sandbox ? await usage(sandbox, 'test') : null,
    },
    rate_limits: { ...RATE_LIMIT_PER_MINUTE },
  };
}

/** The settings screen's API: read them, switch the addon, set the legal identity, edit a work centre. */
export function settingsRoutes(api: FastifyInstance, deps: AppDeps): void {
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
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
      ...DASHBOARD_OPERATION,
      method: 'PATCH',
      url: '/dashboard/api/settings',
      operationId: 'dashboardUpdateSettings',
      summary:
        'Switch the public API addon on or off; set the legal name, tax id, tracking start, late-record hours',
      scope: null,
      body: UpdateSettingsBody,
      responses: { 200: { description: 'The settings.', schema: SettingsView } },
    },
    async (request) => {
      const companyId = requireSession(request).company_id;
      await changeCompany(deps, { companyId }, request.body);
      return integrationSettings(deps.db, deps.clock, companyId);
    },
  );
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
      return await createAdmin(deps, { companyId: requireSession(request).company_id }, request.body);
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
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'PATCH',
      url: '/dashboard/api/locations/:locationId',
      operationId: 'dashboardUpdateLocation',
      summary: 'Change a work centre: name, time zone, address, contribution account code (CCC)',
      scope: null,
      params: Type.Object({ locationId: Uuid() }, { additionalProperties: false }),
      body: UpdateLocationBody,
      responses: { 200: { description: 'The location.', schema: Location } },
    },
    async (request) =>
      updateLocation(
        deps,
        { companyId: requireSession(request).company_id },
        request.params.locationId,
        request.body,
      ),
  );
}
