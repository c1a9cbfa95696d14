import type { FastifyInstance } from 'fastify';
import { registryAccessLinkRoutes } from '../modules/registry-access/link.routes.ts';
import type { AppDeps } from '../platform/deps.ts';
import { registerAccessPage } from './pages.ts';

/**
 * The read-only registry behind an access grant's link (docs/registry.md): no login; the link's token is the
 * credential, and each route opens the grant again (which logs the access).
 */
export function registryAccessSurface(app: FastifyInstance, deps: AppDeps): void {
  registerAccessPage(app);
  registryAccessLinkRoutes(app, deps);
}
