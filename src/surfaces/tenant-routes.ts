import type { FastifyInstance } from 'fastify';
import { absenceTypesDashboardRoutes } from '../modules/absence-types/absence-types.routes.ts';
import { absencesRoutes } from '../modules/absences/absences.routes.ts';
import { apiKeysDashboardRoutes, apiKeysRoutes } from '../modules/api-keys/api-keys.routes.ts';
import { checkInsRoutes } from '../modules/check-ins/check-ins.routes.ts';
import { correctionsRoutes } from '../modules/corrections/corrections.routes.ts';
import { employeesDashboardRoutes, employeesRoutes } from '../modules/employees/employees.routes.ts';
import { holidaysDashboardRoutes, holidaysRoutes } from '../modules/holidays/holidays.routes.ts';
import { locationsRoutes } from '../modules/locations/locations.routes.ts';
import { organizationRoutes } from '../modules/organization/organization.routes.ts';
import { payrollRoutes } from '../modules/payroll/payroll.routes.ts';
import { portalInvitationRoutes } from '../modules/portal/portal.routes.ts';
import { registryRoutes } from '../modules/registry/registry.routes.ts';
import { registryAccessRoutes } from '../modules/registry-access/access.routes.ts';
import { reportsDashboardRoutes, reportsRoutes } from '../modules/reports/reports.routes.ts';
import { requestLogDashboardRoutes } from '../modules/request-log/request-log.routes.ts';
import { sandboxRoutes } from '../modules/sandbox/sandbox.routes.ts';
import { shiftsRoutes } from '../modules/shifts/shifts.routes.ts';
import { todayDashboardRoutes } from '../modules/today/today.routes.ts';
import { unitsRoutes } from '../modules/units/units.routes.ts';
import { vacationBalancesRoutes } from '../modules/vacation-balances/vacation-balances.routes.ts';
import { webhooksRoutes } from '../modules/webhooks/webhooks.routes.ts';
import { workSummariesRoutes } from '../modules/work-summaries/work-summaries.routes.ts';
import {
  complianceAlertsDashboardRoutes,
  complianceAlertsRoutes,
} from '../modules/workdays/compliance-alerts.routes.ts';
import { forceMajeureRoutes } from '../modules/workdays/force-majeure.routes.ts';
import type { AppDeps } from '../platform/deps.ts';
import type { RouteSurface } from '../platform/operation.ts';

export type TenantRouteModule = (app: FastifyInstance, deps: AppDeps, surface: RouteSurface) => void;

/**
 * The one list of tenant route modules. The public API mounts them under /v1 and the dashboard under
 * /dashboard/api/live|test, so the two surfaces cannot drift apart: a module added here is on both.
 */
export const TENANT_ROUTE_MODULES: readonly TenantRouteModule[] = [
  organizationRoutes,
  apiKeysRoutes,
  locationsRoutes,
  unitsRoutes,
  employeesRoutes,
  portalInvitationRoutes,
  checkInsRoutes,
  correctionsRoutes,
  absencesRoutes,
  holidaysRoutes,
  shiftsRoutes,
  workSummariesRoutes,
  complianceAlertsRoutes,
  forceMajeureRoutes,
  vacationBalancesRoutes,
  registryRoutes,
  registryAccessRoutes,
  reportsRoutes,
  payrollRoutes,
  webhooksRoutes,
  sandboxRoutes,
];

export function registerTenantRoutes(app: FastifyInstance, deps: AppDeps, surface: RouteSurface): void {
  for (const routes of TENANT_ROUTE_MODULES) routes(app, deps, surface);
}

/** What only the dashboard's tenant API has (live and test): the home, searches, holidays, issuing keys… */
export const DASHBOARD_TENANT_ROUTE_MODULES: ReadonlyArray<
  (app: FastifyInstance, deps: AppDeps, mode: 'live' | 'test') => void
> = [
  requestLogDashboardRoutes,
  holidaysDashboardRoutes,
  absenceTypesDashboardRoutes,
  todayDashboardRoutes,
  complianceAlertsDashboardRoutes,
  apiKeysDashboardRoutes,
  employeesDashboardRoutes,
  reportsDashboardRoutes,
];
