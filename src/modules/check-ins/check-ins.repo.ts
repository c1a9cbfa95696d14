import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { CheckInsTable } from '../../db/schema.ts';

export type CheckInRow = Omit<Selectable<CheckInsTable>, 'company_id'>;

const selectCheckIns = (db: Executor, companyId: string) =>
  db
    .selectFrom('check_ins')
    .select(['id', 'employee_id', 'type', 'timestamp', 'source', 'created_at', 'updated_at'])
    .where('company_id', '=', companyId);

export async function findCheckIn(
  db: Executor,
  companyId: string,
  id: string,
): Promise<CheckInRow | undefined> {
  return await selectCheckIns(db, companyId).where('id', '=', id).executeTakeFirst();
}

/**
 * A tenant's check-ins for a listing: optionally one employee's, at or after `from` (only where the listing's
 * order allows it as a plain condition), and before `before`.
 */
export function selectCheckInsMatching(
  db: Executor,
  companyId: string,
  filters: { employeeId?: string | undefined; from?: Date | undefined; before?: Date | undefined },
) {
  let query = selectCheckIns(db, companyId);
  if (filters.employeeId !== undefined) query = query.where('employee_id', '=', filters.employeeId);
  if (filters.before) query = query.where('timestamp', '<', filters.before);
  if (filters.from) query = query.where('timestamp', '>=', filters.from);
  return query;
}

/**
 * Inserts a check-in unless one of the same employee, timestamp and type exists (the duplicate rule, enforced by
 * a unique index). Returns whether it was inserted.
 */
export async function insertCheckIn(db: Executor, companyId: string, row: CheckInRow): Promise<boolean> {
  const inserted = await db
    .insertInto('check_ins')
    .values({ company_id: companyId, ...row })
    .onConflict((conflict) =>
      conflict.columns(['company_id', 'employee_id', 'timestamp', 'type']).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The timeline listing's first-page bound, as a condition keysetPage applies only without a cursor. */
export const timestampAtOrAfter = (from: Date) => sql<boolean>`timestamp >= ${from}`;
