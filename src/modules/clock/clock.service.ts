import type { Db } from '../../db/database.ts';
import type { FakeClock } from '../../time/clock.ts';
import { addToFakeClockOffset, readFakeClockOffset } from './clock.repo.ts';

/**
 * The fake clock's offset lives in the database so that every process on one PostgreSQL (API and worker nodes)
 * agrees on the time. Processes call syncFakeClock when they start and on every worker tick.
 */
export async function syncFakeClock(db: Db, clock: FakeClock): Promise<void> {
  const offset = await readFakeClockOffset(db);
  if (offset !== null) clock.setOffset(offset);
}

/** Moves the clock forward; the offset only grows, even with concurrent advances from several nodes. */
export async function advanceFakeClock(db: Db, clock: FakeClock, seconds: number): Promise<void> {
  clock.setOffset(await addToFakeClockOffset(db, clock.offsetMilliseconds, Math.round(seconds * 1000)));
}
