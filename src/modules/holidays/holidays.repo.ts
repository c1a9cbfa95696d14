import type { Executor } from '../../db/database.ts';
import { newId } from '../../platform/ids.ts';

/** Inserts a company holiday; undefined when the company already has one on that date. */
export async function insertHoliday(
  db: Executor,
  companyId: string,
  input: { date: string; name: string },
  now: Date,
) {
  return await db
    .insertInto('holidays')
    .values({
      company_id: companyId,
      id: newId(),
      date: input.date,
      name: input.name,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.columns(['company_id', 'date']).doNothing())
    .returning(['id', 'date', 'name', 'created_at', 'updated_at'])
    .executeTakeFirst();
}

/** A company's holidays from `from` to `to` (inclusive), by date. */
export async function selectHolidays(db: Executor, companyId: string, from: string, to: string) {
  return await db
    .selectFrom('holidays')
    .select(['id', 'date', 'name', 'created_at', 'updated_at'])
    .where('company_id', '=', companyId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .orderBy('date')
    .execute();
}

/** Deletes a company holiday; its date, or undefined when the company has no such holiday. */
export async function deleteHolidayRow(db: Executor, companyId: string, id: string) {
  const row = await db
    .deleteFrom('holidays')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returning('date')
    .executeTakeFirst();
  return row?.date;
}

/** The date of a company holiday, or undefined. */
export async function findHolidayDate(db: Executor, companyId: string, id: string) {
  const row = await db
    .selectFrom('holidays')
    .select('date')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.date;
}
