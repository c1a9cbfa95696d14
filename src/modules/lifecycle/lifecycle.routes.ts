import type { FastifyInstance } from 'fastify';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { DASHBOARD_OPERATION, requireSession } from '../../platform/sessions.ts';
import { mayChangeAddon, roleForbidden } from '../admins/roles.ts';
import { Company, UpdateCompanyBody } from '../companies/companies.schemas.ts';
import { SettingsView, UpdateSettingsBody } from './lifecycle.schemas.ts';
import { changeCompany, integrationSettings } from './lifecycle.service.ts';

/** The operator's: change a company (fields, service state, key and vacation policy). */
export function lifecycleAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const CompanyParams = IdParams;
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'PATCH',
      url: '/admin/v1/companies/:id',
      operationId: 'adminUpdateCompany',
      summary: 'Change company fields, service state, key policy and vacation policy',
      params: CompanyParams,
      body: UpdateCompanyBody,
      responses: { 200: { description: 'The company.', schema: Company } },
    },
    async (request) => changeCompany(deps, { companyId: request.params.id }, request.body),
  );
}

/** The dashboard's settings screen: read them, switch the addon, set the legal identity and registry settings. */
export function lifecycleDashboardRoutes(api: FastifyInstance, deps: AppDeps): void {
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
      errors: ['role_forbidden'],
      responses: { 200: { description: 'The settings.', schema: SettingsView } },
    },
    async (request) => {
      const session = requireSession(request);
      const companyId = session.company_id;
      // Switching the addon off revokes every key: only an owner may (admins/roles.ts).
      if (request.body.addon_enabled !== undefined && !mayChangeAddon(session.role)) {
        throw roleForbidden(session.role);
      }
      await changeCompany(deps, { companyId }, request.body);
      return integrationSettings(deps.db, deps.clock, companyId);
    },
  );
}
