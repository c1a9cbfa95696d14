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

/**
 * The layout of a bound's advisory-lock key (issue 37: one company's writers never hold back another's sync).
 * A key is a company's bucket in the high bits and the bound in milliseconds since 2020 in the low 43 bits
 * (278 years). Buckets are 1 to 2^20 − 1, from a hash of the company id: two companies that share a bucket only
 * wait for each other's writers, which withholds records a little longer and never loses one. Bucket 0 is the
 * layout of releases before 0.37, whose key is the bound itself in epoch milliseconds and holds every company
 * back; this release still publishes it beside the company's keys so that an older node's listings see this
 * node's writers during a rolling upgrade (expand/contract), and its readers ignore a bucket-0 key whose
 * transaction also holds company keys.
 */
const BOUND_BITS = 43n;
/** The layout's constants as SQL literals (they are the code's, never input). */
const SQL_BITS = sql.lit(Number(BOUND_BITS));
const SQL_MASK = sql.raw(`${(1n << BOUND_BITS) - 1n}::bigint`);
const BUCKETS = (1 << 20) - 1;
const KEY_EPOCH_MS = 1_577_836_800_000; // 2020-01-01T00:00:00Z

/** A company's bucket, 1 to 2^20 − 1: FNV-1a of its id, the same on every node. */
export function syncBucket(companyId: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < companyId.length; index += 1) {
    hash ^= companyId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 1 + (hash % BUCKETS);
}

function boundKeys(companyIds: readonly string[], bound: number): string[] {
  const buckets = new Set(companyIds.map(syncBucket));
  const offset = BigInt(bound - KEY_EPOCH_MS);
  return [String(bound), ...[...buckets].map((bucket) => String((BigInt(bucket) << BOUND_BITS) | offset))];
}

type Published = { stamp: Temporal.Instant; buckets: ReadonlySet<number> };
const stamps = new WeakMap<Tx, Published>();

/** The companies whose records a write transaction stamps: one, or several for a write that spans them. */
export type StampedCompanies = string | readonly string[];

function idsOf(companies: StampedCompanies): readonly string[] {
  return typeof companies === 'string' ? [companies] : companies;
}

/**
 * The instant a write transaction stamps on synced records (`updated_at`), the same for the whole transaction.
 * The first call publishes the transaction's bound for the companies it names; the guard on the synced tables
 * refuses a stamp below it, so an instant read from the clock before this call cannot be written as
 * `updated_at`. A later call may not name a company the first did not: its readers may have read a horizon
 * past the stamp already, so it throws instead of losing that company's records.
 */
export async function syncStamp(
  tx: Tx,
  clock: Clock,
  companies: StampedCompanies,
): Promise<Temporal.Instant> {
  const ids = idsOf(companies);
  const known = stamps.get(tx);
  if (known !== undefined) {
    const missing = ids.find((id) => !known.buckets.has(syncBucket(id)));
    if (missing !== undefined)
      throw new Error(`the transaction's sync stamp was not published for company ${missing}`);
    return known.stamp;
  }
  const bound = clock.now().epochMilliseconds;
  await sql`select set_config(${FLOOR_SETTING}, ${String(bound)}, true),
                   (select count(pg_advisory_xact_lock_shared(key)) from unnest(${boundKeys(ids, bound)}::bigint[]) key)`.execute(
    tx,
  );
  const now = clock.now();
  const stamp = now.epochMilliseconds >= bound ? now : Temporal.Instant.fromEpochMilliseconds(bound);
  stamps.set(tx, { stamp, buckets: new Set(ids.map(syncBucket)) });
  return stamp;
}

/** A write of synced records as one transaction: the stamp is taken inside it, after the bound is published. */
export async function withSyncStamp<T>(
  db: Db,
  clock: Clock,
  companies: StampedCompanies,
  write: (tx: Tx, stamp: Temporal.Instant) => Promise<T>,
): Promise<T> {
  // Inside a caller's transaction (an import that writes many records all or nothing), the write joins it.
  if (db.isTransaction) return await write(db as Tx, await syncStamp(db as Tx, clock, companies));
  return await db.transaction().execute(async (tx) => await write(tx, await syncStamp(tx, clock, companies)));
}

/**
 * For bulk loads outside the service (the bench's generator, a restore): lets the transaction stamp any instant.
 * Nothing may list the tables while it runs, or a client may miss what it writes.
 */
export async function allowAnySyncStamp(tx: Executor): Promise<void> {
  await sql`select set_config(${FLOOR_SETTING}, 'any', true)`.execute(tx);
}

/** The sync horizon of some companies' listings (SyncHorizonReader in src/platform/pagination.ts). */
export type ScopedHorizon = { readonly latest: number; read(): Promise<number> };

/**
 * The sync horizons of one process, per company. A horizon once read stays valid for every later query (it only
 * withholds more than needed as time goes on), so the latest of each company is kept and a listing reads a new
 * one only when its page reaches past it.
 */
export class SyncHorizon {
  readonly #latest = new Map<string, number>();
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** The horizon of a listing of these companies' records. */
  of(companies: StampedCompanies): ScopedHorizon {
    const ids = idsOf(companies);
    const latest = this.#latest;
    const read = async (): Promise<number> => {
      const horizon = await readSyncHorizon(this.#db, this.#clock, ids);
      for (const id of ids)
        if (horizon > (latest.get(id) ?? Number.NEGATIVE_INFINITY)) latest.set(id, horizon);
      return horizon;
    };
    return {
      get latest() {
        return Math.min(...ids.map((id) => latest.get(id) ?? Number.NEGATIVE_INFINITY));
      },
      read,
    };
  }
}

/**
 * The sync horizon now, in epoch milliseconds: the smallest bound published for these companies (every
 * company's when none is named), or the clock read before looking, whichever is earlier.
 */
export async function readSyncHorizon(
  db: Executor,
  clock: Clock,
  companies?: StampedCompanies,
): Promise<number> {
  const clockBefore = clock.now().epochMilliseconds;
  const buckets = companies === undefined ? null : [...new Set(idsOf(companies).map(syncBucket))].map(String);
  const { rows } = await sql<{ bound: string | null }>`
    with held as (
      select (l.classid::bigint << 32) | l.objid::bigint as key, l.virtualtransaction as vt
        from pg_locks l
       where l.locktype = 'advisory' and l.objsubid = 1 and l.mode = 'ShareLock'
         and l.database = (select oid from pg_database where datname = current_database())
    )
    select min(case when h.key >> ${SQL_BITS} = 0 then h.key
                    else (h.key & ${SQL_MASK}) + ${sql.raw(`${KEY_EPOCH_MS}::bigint`)} end)::text as bound
      from held h
     where case when h.key >> ${SQL_BITS} = 0
                then not exists (select 1 from held o where o.vt = h.vt and o.key >> ${SQL_BITS} <> 0)
                else ${buckets}::bigint[] is null or h.key >> ${SQL_BITS} = any(${buckets}::bigint[]) end`.execute(
    db,
  );
  const bound = rows[0]?.bound;
  return bound === null || bound === undefined ? clockBefore : Math.min(clockBefore, Number(bound));
}
