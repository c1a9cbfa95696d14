import type { Executor } from '../../db/database.ts';
import type { HolidayScope } from '../../db/schema.ts';
import { newId } from '../../platform/ids.ts';

export type HolidayInput = {
  date: string;
  name: string;
  location_id: string | null;
  scope: HolidayScope;
  name_local: string | null;
};

const HOLIDAY_COLUMNS = [
  'id',
  'date',
  'name',
  'name_local',
  'scope',
  'location_id',
  'created_at',
  'updated_at',
] as const;

/** Inserts a company holiday; undefined when the company already has one on that date. */
export async function insertHoliday(db: Executor, companyId: string, input: HolidayInput, now: Date) {
  return await db
    .insertInto('holidays')
    .values({
      company_id: companyId,
      id: newId(),
      date: input.date,
      name: input.name,
      location_id: input.location_id,
      scope: input.scope,
      name_local: input.name_local,
      created_at: now,
      updated_at: now,
    })
    // One company-wide holiday a date, one per work centre a date (two partial unique indexes).
    .onConflict((conflict) => conflict.doNothing())
    .returning(HOLIDAY_COLUMNS)
    .executeTakeFirst();
}

/** A company's holidays from `from` to `to` (inclusive), by date, company-wide before local ones. */
export async function selectHolidays(db: Executor, companyId: string, from: string, to: string) {
  return await db
    .selectFrom('holidays')
    .select(HOLIDAY_COLUMNS)
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
    .select(['id', 'date', 'name', 'location_id', 'scope'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The company's holidays drawn from the shipped calendar (national, regional) after a date. */
export async function selectShippedHolidays(db: Executor, companyId: string, after: string) {
  return await db
    .selectFrom('holidays')
    .select(['id', 'date', 'name', 'location_id', 'scope'])
    .where('company_id', '=', companyId)
    .where('scope', 'in', ['national', 'regional'])
    .where('date', '>', after)
    .orderBy('date')
    .orderBy('id')
    .execute();
}

/** Whether the company has this work centre. */
export async function locationExists(db: Executor, companyId: string, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('locations')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** The company's default region and its work centres' own regions (null: none of their own). */
export async function regionsOf(db: Executor, companyId: string) {
  const company = await db
    .selectFrom('companies')
    .select('default_region')
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  const locations = await db
    .selectFrom('locations')
    .select(['id', 'region'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return { defaultRegion: company.default_region, locations };
}
