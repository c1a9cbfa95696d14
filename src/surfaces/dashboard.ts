import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import {
  adminsDashboardRoutes,
  adminsSessionRoutes,
  dashboardGate,
  dashboardReachGate,
  dashboardTenantGate,
} from '../modules/admins/admins.routes.ts';
import { importsDashboardRoutes } from '../modules/imports/imports.routes.ts';
import { kiosksDashboardRoutes } from '../modules/kiosks/kiosks.routes.ts';
import { lifecycleDashboardRoutes } from '../modules/lifecycle/lifecycle.routes.ts';
import { locationsDashboardRoutes } from '../modules/locations/locations.routes.ts';
import { notificationsDashboardRoutes } from '../modules/notifications/notifications.routes.ts';
import { unitsDashboardRoutes } from '../modules/units/units.routes.ts';
import type { AppDeps } from '../platform/deps.ts';
import { registerDashboardPage } from './pages.ts';
import { DASHBOARD_TENANT_ROUTE_MODULES, registerTenantRoutes } from './tenant-routes.ts';

const MODES = ['live', 'test'] as const;

/** The dashboard's routes on the live company outside /live: the imports. */
const DASHBOARD_LIVE_ROUTE_MODULES = [importsDashboardRoutes] as const;

/** The dashboard's own route modules (at /dashboard/api): the session, the settings screen. */
const DASHBOARD_ROUTE_MODULES = [
  adminsSessionRoutes,
  lifecycleDashboardRoutes,
  adminsDashboardRoutes,
  locationsDashboardRoutes,
  notificationsDashboardRoutes,
  unitsDashboardRoutes,
  kiosksDashboardRoutes,
] as const;

/**
 * The company dashboard: the Vite-built single-page app at /dashboard, and its JSON API at /dashboard/api.
 * Company administrators log in with a password or a passkey; the session is an HttpOnly, SameSite=Strict
 * cookie, and every state-changing call must carry X-CSRF-Token (platform/sessions.ts). The tenant routes are the
 * /v1 route modules themselves, mounted under /dashboard/api/live and /test with the session standing in for an
 * API key (one copy of every business rule), and the dashboard's own tenant modules beside them.
 */
export async function dashboardSurface(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(fastifyCookie);
  app.decorateRequest('session', null);
  await app.register(
    async (api) => {
      api.addHook('onRequest', dashboardGate(deps));
      for (const routes of DASHBOARD_ROUTE_MODULES) routes(api, deps);
      // The dashboard's own work on the live company (imports), gated as its live tenant routes are.
      await api.register(async (liveApi) => {
        liveApi.addHook('onRequest', dashboardTenantGate(deps, 'live'));
        for (const routes of DASHBOARD_LIVE_ROUTE_MODULES) routes(liveApi, deps);
      });
      for (const mode of MODES) {
        await api.register(
          async (tenantApi) => {
            tenantApi.addHook('onRequest', dashboardTenantGate(deps, mode));
            tenantApi.addHook('preHandler', dashboardReachGate(deps));
            registerTenantRoutes(tenantApi, deps, 'dashboard');
            for (const routes of DASHBOARD_TENANT_ROUTE_MODULES) routes(tenantApi, deps, mode);
          },
          { prefix: `/${mode}` },
        );
      }
    },
    { prefix: '/dashboard/api' },
  );
  await registerDashboardPage(app);
}
