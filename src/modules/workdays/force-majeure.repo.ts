import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ForceMajeureDaysTable } from '../../db/schema.ts';

const COLUMNS = [
  'id',
  'employee_id',
  'date',
  'reason',
  'recorded_by_type',
  'recorded_by_id',
  'created_at',
  'updated_at',
] as const;

export const selectForceMajeureDays = (db: Executor, companyId: string) =>
  db.selectFrom('force_majeure_days').select(COLUMNS).where('company_id', '=', companyId);

export async function findForceMajeureDay(db: Executor, companyId: string, id: string) {
  return await selectForceMajeureDays(db, companyId).where('id', '=', id).executeTakeFirst();
}

/** Inserts a mark; false when the employee's day is marked already. */
export async function insertForceMajeureDay(
  db: Executor,
  row: Insertable<ForceMajeureDaysTable>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('force_majeure_days')
    .values(row)
    .onConflict((conflict) => conflict.columns(['company_id', 'employee_id', 'date']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Deletes a mark; the row it was, or undefined. */
export async function deleteForceMajeureDay(db: Executor, companyId: string, id: string) {
  return await db
    .deleteFrom('force_majeure_days')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
}
