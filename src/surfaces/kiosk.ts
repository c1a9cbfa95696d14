import type { FastifyInstance } from 'fastify';
import { kioskGate, kiosksKioskRoutes } from '../modules/kiosks/kiosks.routes.ts';
import { offlinePunchesKioskRoutes } from '../modules/offline-punches/offline-punches.routes.ts';
import type { AppDeps } from '../platform/deps.ts';
import { registerKioskPage } from './pages.ts';

/** The kiosk's route modules (at /kiosk/api). */
const KIOSK_ROUTE_MODULES = [kiosksKioskRoutes, offlinePunchesKioskRoutes] as const;

/**
 * The shared kiosks' API (docs/security.md, "Shared kiosks"; decision 0029): a tablet enrolled for a work centre
 * signs every request with its device key, checked by the gate before anything runs.
 */
export async function kioskSurface(app: FastifyInstance, deps: AppDeps): Promise<void> {
  kioskGate(app, deps);
  for (const routes of KIOSK_ROUTE_MODULES) routes(app, deps);
  registerKioskPage(app);
}
