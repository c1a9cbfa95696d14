import type { Executor } from '../../db/database.ts';
import { newId } from '../../platform/ids.ts';

/** Inserts a company holiday; undefined when the company already has one on that date. */
export async function insertHoliday(
  db: Executor,
  companyId: string,
  input: { date: string; name: string; location_id?: string | null | undefined },
  now: Date,
) {
  return await db
    .insertInto('holidays')
    .values({
      company_id: companyId,
      id: newId(),
      date: input.date,
      name: input.name,
      location_id: input.location_id ?? null,
      created_at: now,
      updated_at: now,
    })
    // One company-wide holiday a date, one per work centre a date (two partial unique indexes).
    .onConflict((conflict) => conflict.doNothing())
    .returning(['id', 'date', 'name', 'location_id', 'created_at', 'updated_at'])
    .executeTakeFirst();
}

/** A company's holidays from `from` to `to` (inclusive), by date, company-wide before local ones. */
export async function selectHolidays(db: Executor, companyId: string, from: string, to: string) {
  return await db
    .selectFrom('holidays')
    .select(['id', 'date', 'name', 'location_id', 'created_at', 'updated_at'])
    .where('company_id', '=', companyId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .orderBy('date')
    .orderBy('location_id', (order) => order.nullsFirst())
    .orderBy('id')
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

/** A company holiday's date and work centre (null: company-wide), or undefined. */
export async function findHoliday(db: Executor, companyId: string, id: string) {
  return await db
    .selectFrom('holidays')
    .select(['id', 'date', 'name', 'location_id'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}
