import type { Db } from '../../db/database.ts';
import type { FakeClock } from '../../time/clock.ts';

const SETTING = 'fake_clock_offset_ms';

/**
 * The fake clock's offset lives in the database so that every process on one PostgreSQL (API and worker nodes)
 * agrees on the time. Processes call syncFakeClock when they start and on every worker tick.
 */
export async function syncFakeClock(db: Db, clock: FakeClock): Promise<void> {
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('name', '=', SETTING)
    .executeTakeFirst();
  if (row) clock.setOffset(Number(row.value));
}

/** Moves the clock forward; the offset only grows, even with concurrent advances from several nodes. */
export async function advanceFakeClock(db: Db, clock: FakeClock, seconds: number): Promise<void> {
  const milliseconds = Math.round(seconds * 1000);
  const row = await db
    .insertInto('instance_settings')
    .values({ name: SETTING, value: String(clock.offsetMilliseconds + milliseconds) })
    .onConflict((conflict) =>
      conflict.column('name').doUpdateSet((eb) => ({
        value: eb.cast(eb(eb.cast('instance_settings.value', 'bigint'), '+', milliseconds), 'text'),
      })),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  clock.setOffset(Number(row.value));
}
