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
