import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { mapPage, type Page, type SyncQuery, syncPage } from '../../platform/pagination.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { loadAccount, requireTimeZone } from '../companies/companies.service.ts';
import { findLocation, insertLocation, type LocationRow, selectLocations } from './locations.repo.ts';
import type { CreateLocationBody, Location } from './locations.schemas.ts';

export type LocationView = Static<typeof Location>;

const toView = (row: LocationRow): LocationView => ({
  id: row.id,
  name: row.name,
  timezone: row.timezone,
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
  const now = toDate(clock.now());
  const row = { id: newId(), name: input.name, timezone, created_at: now, updated_at: now };
  await insertLocation(db, companyId, row);
  return toView(row);
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
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  tenant: CompanyScope,
  query: SyncQuery,
): Promise<Page<LocationView>> {
  const { db, cursors: codec } = deps;
  const { companyId } = tenant;
  const page = await syncPage(selectLocations(db, companyId), {
    codec,
    listing: 'locations',
    query,
  });
  return mapPage(page, toView);
}
