import { sql } from 'kysely';
import type { Clock } from '../time/clock.ts';
import type { Db, Executor, Tx } from './database.ts';

/**
 * Sync stamps and the sync horizon (docs/architecture.md, "Sync without gaps").
 *
 * A client keeps a copy of a listing by asking for the records with `updated_at` after the largest one it has
 * seen. A record's `updated_at` is taken before its transaction commits, so a transaction that stamps first and
 * commits last would land behind a client that has already moved past its stamp: a record lost to the copy for
 * good. Two halves close that gap:
 *
 * - A writer publishes a lower bound of its stamps before taking one: a shared transaction-level advisory lock
 *   whose 64-bit key is that bound in epoch milliseconds. Other sessions see it in `pg_locks` at once, and it goes
 *   when the transaction ends. The stamp is read from the clock after the lock is held, so it is never below the
 *   bound.
 * - A sync listing shows only the records stamped before the horizon: the smallest bound published in this
 *   database, or the reader's clock read before it looked, whichever is earlier. A writer not yet published then
 *   will stamp later than that clock reading; one published is below the horizon's bound; every other has ended
 *   and its records are visible to the listing's query, which runs after the horizon was read.
 *
 * The stamps are the nodes' clocks, so the nodes' clocks must agree (NTP), as they must for every instant Jornada
 * records.
 */

/** The transaction-local setting that the database's guard compares each new `updated_at` with. */
const FLOOR_SETTING = 'jornada.sync_floor';

const stamps = new WeakMap<Tx, Temporal.Instant>();

/**
 * The instant a write transaction stamps on synced records (`updated_at`), the same for the whole transaction.
 * The first call publishes the transaction's bound; the guard on the synced tables refuses a stamp below it, so
 * an instant read from the clock before this call cannot be written as `updated_at`.
 */
export async function syncStamp(tx: Tx, clock: Clock): Promise<Temporal.Instant> {
  const known = stamps.get(tx);
  if (known !== undefined) return known;
  const bound = clock.now().epochMilliseconds;
  await sql`select pg_advisory_xact_lock_shared(${bound}::bigint), set_config(${FLOOR_SETTING}, ${String(bound)}, true)`.execute(
    tx,
  );
  const now = clock.now();
  const stamp = now.epochMilliseconds >= bound ? now : Temporal.Instant.fromEpochMilliseconds(bound);
  stamps.set(tx, stamp);
  return stamp;
}

/** A write of synced records as one transaction: the stamp is taken inside it, after the bound is published. */
export async function withSyncStamp<T>(
  db: Db,
  clock: Clock,
  write: (tx: Tx, stamp: Temporal.Instant) => Promise<T>,
): Promise<T> {
  return await db.transaction().execute(async (tx) => await write(tx, await syncStamp(tx, clock)));
}

/**
 * For bulk loads outside the service (the bench's generator, a restore): lets the transaction stamp any instant.
 * Nothing may list the tables while it runs, or a client may miss what it writes.
 */
export async function allowAnySyncStamp(tx: Executor): Promise<void> {
  await sql`select set_config(${FLOOR_SETTING}, 'any', true)`.execute(tx);
}

/**
 * The sync horizon of one process. A horizon once read stays valid for every later query (it only withholds
 * more than needed as time goes on), so the latest is kept and a listing reads a new one only when its page
 * reaches past it.
 */
export class SyncHorizon {
  #latest = Number.NEGATIVE_INFINITY;
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** The latest horizon read, in epoch milliseconds: every record stamped before it is visible to a new query. */
  get latest(): number {
    return this.#latest;
  }

  /** Reads the horizon now (readSyncHorizon) and keeps it. A listing's query must start after this returns. */
  async read(): Promise<number> {
    const horizon = await readSyncHorizon(this.#db, this.#clock);
    if (horizon > this.#latest) this.#latest = horizon;
    return horizon;
  }
}

/**
 * The sync horizon now, in epoch milliseconds: the smallest bound published in this database, or the clock read
 * before looking, whichever is earlier.
 */
export async function readSyncHorizon(db: Executor, clock: Clock): Promise<number> {
  const clockBefore = clock.now().epochMilliseconds;
  const { rows } = await sql<{ bound: string | null }>`
    select min((l.classid::bigint << 32) | l.objid::bigint)::text as bound
      from pg_locks l
     where l.locktype = 'advisory' and l.objsubid = 1 and l.mode = 'ShareLock'
       and l.database = (select oid from pg_database where datname = current_database())`.execute(db);
  const bound = rows[0]?.bound;
  return bound === null || bound === undefined ? clockBefore : Math.min(clockBefore, Number(bound));
}
