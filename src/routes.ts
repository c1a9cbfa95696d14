import type { FastifyInstance } from 'fastify';
import { absencesRoutes } from './modules/absences/absences.routes.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { checkInsRoutes } from './modules/check-ins/check-ins.routes.ts';
import { employeesRoutes } from './modules/employees/employees.routes.ts';
import { locationsRoutes } from './modules/locations/locations.routes.ts';
import { organizationRoutes } from './modules/organization/organization.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { unitsRoutes } from './modules/units/units.routes.ts';
import { vacationBalancesRoutes } from './modules/vacation-balances/vacation-balances.routes.ts';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.ts';
import { workSummariesRoutes } from './modules/work-summaries/work-summaries.routes.ts';
import type { AppDeps } from './platform/deps.ts';

/** Where a tenant route module is mounted: the public API (/v1) or the dashboard's JSON API. */
export type RouteSurface = 'api' | 'dashboard';

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
  checkInsRoutes,
  absencesRoutes,
  workSummariesRoutes,
  vacationBalancesRoutes,
  reportsRoutes,
  webhooksRoutes,
];

export function registerTenantRoutes(app: FastifyInstance, deps: AppDeps, surface: RouteSurface): void {
  for (const routes of TENANT_ROUTE_MODULES) routes(app, deps, surface);
}
