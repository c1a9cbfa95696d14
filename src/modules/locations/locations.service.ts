import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import type { Geofence, PunchLocation } from '../../db/schema.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { normalizeIdentity, socialSecurityProblem } from '../../platform/identity.ts';
import { newId } from '../../platform/ids.ts';
import { mapPage, type Page, type SyncQuery, syncPage } from '../../platform/pagination.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import type { Region } from '../../time/regions.ts';
import { loadAccount, requireTimeZone } from '../companies/companies.service.ts';
import { applyRegionalCalendar } from '../holidays/holidays.service.ts';
import { chainLocation } from '../registry/registry.service.ts';
import {
  findLocation,
  insertLocation,
  type LocationRow,
  selectLocations,
  updateLocationRow,
} from './locations.repo.ts';
import type { CreateLocationBody, Location, UpdateLocationBody } from './locations.schemas.ts';

export type LocationView = Static<typeof Location>;

const toView = (row: LocationRow): LocationView => ({
  id: row.id,
  name: row.name,
  timezone: row.timezone,
  address: row.address,
  ccc: row.ccc,
  region: row.region as Region | null,
  municipality: row.municipality,
  location_capture: row.location_capture,
  geofence: row.geofence,
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

export async function createLocation(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  input: Static<typeof CreateLocationBody>,
): Promise<LocationView> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const { account } = await loadAccount(db, companyId);
  const timezone = requireTimeZone(input.timezone ?? account.timezone);
  const ccc = input.ccc === undefined || input.ccc === null ? null : requireCcc(input.ccc);
  const insert = async (tx: Executor, now: Date) => {
    const location: LocationRow = {
      id: newId(),
      name: input.name,
      timezone,
      address: input.address ?? null,
      ccc,
      region: input.region ?? null,
      municipality: input.municipality ?? null,
      location_capture: input.location_capture ?? 'off',
      geofence: input.geofence ?? null,
      created_at: now,
      updated_at: now,
    };
    await insertLocation(tx, companyId, location);
    await chainLocation(tx, companyId, location.id, now);
    return location;
  };
  // A region brings its holidays, applied in the same transaction (holidays.service.ts); so does a centre
  // without one in a company with a default region.
  const row =
    (input.region ?? account.default_region) != null
      ? ((await applyRegionalCalendar(deps, tenant, insert)).result as LocationRow)
      : await withSyncStamp(db, clock, companyId, async (tx, stamp) => await insert(tx, toDate(stamp)));
  return toView(row);
}

/** A CCC as stored: normalized, with valid control digits (422 otherwise). */
function requireCcc(text: string): string {
  const normalized = normalizeIdentity(text);
  const problem = socialSecurityProblem(normalized, 'ccc');
  if (problem) throw invalid({ ccc: problem });
  return normalized;
}

/** An operator's change to a location: name, time zone, address, CCC. */
export async function updateLocation(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  id: string,
  input: Static<typeof UpdateLocationBody>,
): Promise<LocationView> {
  const { db, clock } = deps;
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.timezone !== undefined ? { timezone: requireTimeZone(input.timezone) } : {}),
    ...(input.address !== undefined ? { address: input.address } : {}),
    ...(input.ccc !== undefined ? { ccc: input.ccc === null ? null : requireCcc(input.ccc) } : {}),
    ...(input.region !== undefined ? { region: input.region } : {}),
    ...(input.municipality !== undefined ? { municipality: input.municipality } : {}),
    ...(input.location_capture !== undefined ? { location_capture: input.location_capture } : {}),
    ...(input.geofence !== undefined
      ? { geofence: input.geofence === null ? null : JSON.stringify(input.geofence) }
      : {}),
  };
  const update = async (tx: Executor, at: Date) => {
    const changed = await updateLocationRow(tx, tenant.companyId, id, { ...changes, updated_at: at });
    if (changed) await chainLocation(tx, tenant.companyId, id, at);
    return changed;
  };
  // A new region changes the centre's holidays in the same transaction (holidays.service.ts).
  const updated =
    input.region !== undefined
      ? (await applyRegionalCalendar(deps, tenant, update)).result
      : await withSyncStamp(
          db,
          clock,
          tenant.companyId,
          async (tx, stamp) => await update(tx, toDate(stamp)),
        );
  if (!updated) throw notFound('Location');
  return await getLocation(deps, tenant, id);
}

export async function getLocation(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<LocationView> {
  const { db } = deps;
  const { companyId } = tenant;
  const row = await findLocation(db, companyId, id);
  if (!row) throw notFound('Location');
  return toView(row);
}

export async function locationExists(db: Executor, companyId: string, id: string): Promise<boolean> {
  return (await findLocation(db, companyId, id)) !== undefined;
}

export async function listLocations(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: CompanyScope,
  query: SyncQuery,
): Promise<Page<LocationView>> {
  const { db, cursors: codec, syncHorizon: horizon } = deps;
  const { companyId } = tenant;
  const page = await syncPage(selectLocations(db, companyId), {
    codec,
    horizon: horizon.of(companyId),
    listing: 'locations',
    query,
  });
  return mapPage(page, toView);
}

/** The company's work centres by name (an import names them as people do), name → id. */
export async function locationIdsByName(db: Executor, companyId: string): Promise<Map<string, string>> {
  const rows = await selectLocations(db, companyId).orderBy('created_at').execute();
  return new Map(rows.map((row) => [row.name, row.id]));
}

/** What a punch brings of where it was made: a position from the device, or the worker's refusal. */
export type PunchPosition = 'declined' | { latitude: number; longitude: number; accuracy_m: number };

/** Metres between two points on the Earth (haversine, mean radius). */
export function metresBetween(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * What a punch keeps of its position (docs/privacy.md, "Location at the punch"): nothing unless the worker's work
 * centre asks (`at_punch`), whatever the device sent; the worker's refusal as `declined`; else the position
 * rounded to three decimals of a degree (about 100 m), its accuracy in whole metres, and, against the centre's
 * geofence, the distance (to 10 m, from the position as measured) and whether it was outside.
 */
export function punchLocation(
  centre: { location_capture: 'off' | 'at_punch'; geofence: Geofence | null } | undefined,
  position: PunchPosition | undefined,
): PunchLocation | null {
  if (centre?.location_capture !== 'at_punch' || position === undefined) return null;
  if (position === 'declined') return 'declined';
  const round = (degrees: number) => Math.round(degrees * 1000) / 1000;
  const distance = centre.geofence === null ? null : metresBetween(position, centre.geofence);
  return {
    latitude: round(position.latitude),
    longitude: round(position.longitude),
    accuracy_m: Math.round(position.accuracy_m),
    distance_m: distance === null ? null : Math.round(distance / 10) * 10,
    outside_geofence:
      distance === null || centre.geofence === null ? null : distance > centre.geofence.radius_m,
  };
}

/** The capture setting and geofence of a work centre (undefined: no centre, or not this company's). */
export async function captureOf(db: Executor, companyId: string, locationId: string | null) {
  if (locationId === null) return undefined;
  const row = await findLocation(db, companyId, locationId);
  return row === undefined ? undefined : { location_capture: row.location_capture, geofence: row.geofence };
}

/**
 * What the portal needs to ask for a position at the punch (issue 40): the work centre's setting and its name for
 * the notice; `off` when the worker has no centre.
 */
export async function punchCaptureOf(
  db: Executor,
  companyId: string,
  locationId: string | null,
): Promise<{ location_capture: 'off' | 'at_punch'; work_centre: string | null }> {
  const centre = locationId === null ? undefined : await findLocation(db, companyId, locationId);
  return { location_capture: centre?.location_capture ?? 'off', work_centre: centre?.name ?? null };
}
