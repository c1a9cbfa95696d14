import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { UnitsTable } from '../../db/schema.ts';

export type UnitRow = Omit<Selectable<UnitsTable>, 'company_id'>;

/** A tenant's units, explicit columns; listings page it with syncPage. */
export const selectUnits = (db: Executor, companyId: string) =>
  db
    .selectFrom('units')
    .select(['id', 'name', 'parent_id', 'location_id', 'created_at', 'updated_at'])
    .where('company_id', '=', companyId);

export async function findUnit(db: Executor, companyId: string, id: string): Promise<UnitRow | undefined> {
  return await selectUnits(db, companyId).where('id', '=', id).executeTakeFirst();
}

export async function insertUnit(db: Executor, companyId: string, row: UnitRow): Promise<void> {
  await db
    .insertInto('units')
    .values({ company_id: companyId, ...row })
    .execute();
}

/** A unit's changed fields; the row after, or undefined when the company has no such unit. */
export async function updateUnitRow(
  db: Executor,
  companyId: string,
  id: string,
  changes: Partial<Pick<UnitRow, 'name' | 'parent_id' | 'location_id'>> & { updated_at: Date },
): Promise<UnitRow | undefined> {
  return await db
    .updateTable('units')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returning(['id', 'name', 'parent_id', 'location_id', 'created_at', 'updated_at'])
    .executeTakeFirst();
}
