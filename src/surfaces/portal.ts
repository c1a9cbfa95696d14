import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import { checkInsPortalRoutes } from '../modules/check-ins/check-ins.routes.ts';
import { correctionsPortalRoutes } from '../modules/corrections/corrections.routes.ts';
import { kiosksPortalRoutes } from '../modules/kiosks/kiosks.routes.ts';
import { notificationsPortalRoutes } from '../modules/notifications/notifications.routes.ts';
import { offlinePunchesPortalRoutes } from '../modules/offline-punches/offline-punches.routes.ts';
import { portalGate, portalRoutes } from '../modules/portal/portal.routes.ts';
import { acknowledgementsPortalRoutes } from '../modules/registry-access/acknowledgements.routes.ts';
import { shiftsPortalRoutes } from '../modules/shifts/shifts.routes.ts';
import { timeOffPortalRoutes } from '../modules/time-off/time-off.routes.ts';
import { workSummariesPortalRoutes } from '../modules/work-summaries/work-summaries.routes.ts';
import type { AppDeps } from '../platform/deps.ts';
import { registerPortalPage } from './pages.ts';

/** The portal's route modules (at /portal/api), each acting as the session's worker. */
const PORTAL_ROUTE_MODULES = [
  portalRoutes,
  checkInsPortalRoutes,
  workSummariesPortalRoutes,
  shiftsPortalRoutes,
  timeOffPortalRoutes,
  notificationsPortalRoutes,
  correctionsPortalRoutes,
  acknowledgementsPortalRoutes,
  kiosksPortalRoutes,
  offlinePunchesPortalRoutes,
] as const;

/**
 * The workers' portal (docs/registry.md): the page at /portal and its JSON API at /portal/api, like the
 * dashboard's: an HttpOnly, SameSite=Strict session cookie (path /portal), X-CSRF-Token on every state-changing
 * call, a per-person rate window, and throttled logins. A session acts as its employee, on that employee's data
 * alone: the employee id never comes from the request.
 */
export async function portalSurface(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(fastifyCookie);
  app.decorateRequest('portalSession', null);
  app.decorateRequest('worker', null);
  app.addHook('onRequest', portalGate(deps));
  for (const routes of PORTAL_ROUTE_MODULES) routes(app, deps);
  registerPortalPage(app);
}
