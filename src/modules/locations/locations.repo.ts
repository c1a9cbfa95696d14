import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { LocationsTable } from '../../db/schema.ts';

export type LocationRow = Omit<Selectable<LocationsTable>, 'company_id'>;

/** A tenant's locations, explicit columns; listings page it with syncPage. */
export const selectLocations = (db: Executor, companyId: string) =>
  db
    .selectFrom('locations')
    .select([
      'id',
      'name',
      'timezone',
      'address',
      'ccc',
      'region',
      'municipality',
      'location_capture',
      'geofence',
      'created_at',
      'updated_at',
    ])
    .where('company_id', '=', companyId);

export async function findLocation(
  db: Executor,
  companyId: string,
  id: string,
): Promise<LocationRow | undefined> {
  return await selectLocations(db, companyId).where('id', '=', id).executeTakeFirst();
}

export async function insertLocation(db: Executor, companyId: string, row: LocationRow): Promise<void> {
  await db
    .insertInto('locations')
    .values({
      company_id: companyId,
      ...row,
      geofence: row.geofence === null ? null : JSON.stringify(row.geofence),
    })
    .execute();
}

export async function updateLocationRow(
  db: Executor,
  companyId: string,
  id: string,
  changes: Updateable<LocationsTable>,
): Promise<boolean> {
  const updated = await db
    .updateTable('locations')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}
