import type { Executor } from '../../db/database.ts';

const SETTING = 'fake_clock_offset_ms';

/** The shared fake clock offset in milliseconds, or null when it was never moved. */
export async function readFakeClockOffset(db: Executor): Promise<number | null> {
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('name', '=', SETTING)
    .executeTakeFirst();
  return row ? Number(row.value) : null;
}

/**
 * Adds `milliseconds` to the stored offset (creating it from `initial` + `milliseconds`) in one statement, so
 * concurrent advances from several nodes all count. Returns the new offset.
 */
export async function addToFakeClockOffset(
  db: Executor,
  initial: number,
  milliseconds: number,
): Promise<number> {
  const row = await db
    .insertInto('instance_settings')
    .values({ name: SETTING, value: String(initial + milliseconds) })
    .onConflict((conflict) =>
      conflict.column('name').doUpdateSet((eb) => ({
        value: eb.cast(eb(eb.cast('instance_settings.value', 'bigint'), '+', milliseconds), 'text'),
      })),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}
