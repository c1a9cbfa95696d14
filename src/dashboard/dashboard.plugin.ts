import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../platform/deps.ts';
import { registerSessionGate, sessionRoutes } from './session.ts';
import { settingsRoutes } from './settings.ts';
import { registerDashboardPage } from './static.ts';
import { registerTenantApi } from './tenant-api.ts';

export { SESSION_RATE_LIMIT_PER_MINUTE } from './session.ts';
export { DASHBOARD_DIST } from './static.ts';

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
  await app.register(
    async (api) => {
      registerSessionGate(api, deps);
      sessionRoutes(api, deps);
      settingsRoutes(api, deps);
      await registerTenantApi(api, deps);
    },
    { prefix: '/dashboard/api' },
  );

  await registerDashboardPage(app);
}
