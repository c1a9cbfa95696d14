import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../platform/deps.ts';
import type { RouteSurface } from '../platform/operation.ts';
import { absencesRoutes } from './absences/absences.routes.ts';
import { apiKeysRoutes } from './api-keys/api-keys.routes.ts';
import { checkInsRoutes } from './check-ins/check-ins.routes.ts';
import { correctionsRoutes } from './corrections/corrections.routes.ts';
import { employeesRoutes } from './employees/employees.routes.ts';
import { locationsRoutes } from './locations/locations.routes.ts';
import { organizationRoutes } from './organization/organization.routes.ts';
import { portalInvitationRoutes } from './portal/portal.routes.ts';
import { registryRoutes } from './registry/registry.routes.ts';
import { registryAccessRoutes } from './registry-access/access.routes.ts';
import { reportsRoutes } from './reports/reports.routes.ts';
import { sandboxRoutes } from './sandbox/sandbox.routes.ts';
import { unitsRoutes } from './units/units.routes.ts';
import { vacationBalancesRoutes } from './vacation-balances/vacation-balances.routes.ts';
import { webhooksRoutes } from './webhooks/webhooks.routes.ts';
import { workSummariesRoutes } from './work-summaries/work-summaries.routes.ts';

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
  workSummariesRoutes,
  vacationBalancesRoutes,
  registryRoutes,
  registryAccessRoutes,
  reportsRoutes,
  webhooksRoutes,
  sandboxRoutes,
];

export function registerTenantRoutes(app: FastifyInstance, deps: AppDeps, surface: RouteSurface): void {
  for (const routes of TENANT_ROUTE_MODULES) routes(app, deps, surface);
}
