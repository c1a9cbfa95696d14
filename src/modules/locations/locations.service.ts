import type { Db, Executor } from '../../db/database.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { type CursorCodec, mapPage, type Page, type SyncQuery, syncPage } from '../../platform/pagination.ts';
import { type Clock, formatInstant, toDate } from '../../time/clock.ts';
import { loadAccount, requireTimeZone } from '../companies/companies.service.ts';

export type LocationView = {
  id: string;
  name: string;
  timezone: string;
  created_at: string;
  updated_at: string;
};

type LocationRow = { id: string; name: string; timezone: string; created_at: Date; updated_at: Date };

const toView = (row: LocationRow): LocationView => ({
  id: row.id,
  name: row.name,
  timezone: row.timezone,
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

const selectLocations = (db: Executor, companyId: string) =>
  db
    .selectFrom('locations')
    .select(['id', 'name', 'timezone', 'created_at', 'updated_at'])
    .where('company_id', '=', companyId);

export async function createLocation(
  db: Db,
  clock: Clock,
  companyId: string,
  input: { name: string; timezone?: string | undefined },
): Promise<LocationView> {
  const { account } = await loadAccount(db, companyId);
  const timezone = requireTimeZone(input.timezone ?? account.timezone);
  const now = toDate(clock.now());
  const row = { id: newId(), name: input.name, timezone, created_at: now, updated_at: now };
  await db
    .insertInto('locations')
    .values({ company_id: companyId, ...row })
    .execute();
  return toView(row);
}

export async function getLocation(db: Executor, companyId: string, id: string): Promise<LocationView> {
  const row = await selectLocations(db, companyId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Location');
  return toView(row);
}

export async function locationExists(db: Executor, companyId: string, id: string): Promise<boolean> {
  return (await selectLocations(db, companyId).where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function listLocations(
  db: Db,
  codec: CursorCodec,
  companyId: string,
  query: SyncQuery,
): Promise<Page<LocationView>> {
  const page = await syncPage(selectLocations(db, companyId), {
    codec,
    listing: 'locations',
    query,
  });
  return mapPage(page, toView);
}
