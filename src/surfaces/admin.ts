import type { FastifyInstance } from 'fastify';
import { adminsAdminRoutes } from '../modules/admins/admins.routes.ts';
import { apiKeysAdminRoutes } from '../modules/api-keys/api-keys.routes.ts';
import { clockAdminRoutes } from '../modules/clock/clock.routes.ts';
import { companiesAdminRoutes } from '../modules/companies/companies.routes.ts';
import { holidaysAdminRoutes } from '../modules/holidays/holidays.routes.ts';
import { lifecycleAdminRoutes } from '../modules/lifecycle/lifecycle.routes.ts';
import { locationsAdminRoutes } from '../modules/locations/locations.routes.ts';
import { unitsAdminRoutes } from '../modules/units/units.routes.ts';
import { verificationAdminRoutes } from '../modules/verification/verification.routes.ts';
import type { AppDeps } from '../platform/deps.ts';
import { ApiError } from '../platform/errors.ts';
import { registerOpenApi } from '../platform/openapi.ts';
import { safeEqual, sha256 } from '../platform/secrets.ts';

/** The operator's route modules, in the order their operations appear in admin-openapi-v1.json. */
const ADMIN_ROUTE_MODULES = [
  companiesAdminRoutes,
  lifecycleAdminRoutes,
  adminsAdminRoutes,
  apiKeysAdminRoutes,
  locationsAdminRoutes,
  unitsAdminRoutes,
  holidaysAdminRoutes,
  verificationAdminRoutes,
  clockAdminRoutes,
] as const;

/**
 * The operator surface at /admin/v1, enabled by JORNADA_ADMIN_TOKEN; kept out of the public OpenAPI: the admin
 * token's check, then the operator's route modules.
 */
export async function adminSurface(
  app: FastifyInstance,
  deps: AppDeps & { adminToken: string },
): Promise<void> {
  const expected = sha256(deps.adminToken);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.access?.scope === 'public') return;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !safeEqual(sha256(match[1]), expected)) {
      throw new ApiError('unauthenticated', 'Send the admin token as "Authorization: Bearer <token>".');
    }
  });
  await registerOpenApi(app, {
    surface: 'admin',
    title: 'Jornada admin API',
    description: 'Operator and dashboard surface of a Jornada deployment. Not part of the public contract.',
    routePrefix: '/admin/v1/openapi.json',
    tags: [
      {
        name: 'Admin',
        description: 'Operator routes: companies, keys, administrators, organisation data, the fake clock.',
      },
    ],
  });
  for (const routes of ADMIN_ROUTE_MODULES) routes(app, deps);
}
