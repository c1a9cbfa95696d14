import { createHash } from 'node:crypto';
import { Kysely, type LogConfig, PostgresDialect, type RawBuilder, sql, type Transaction } from 'kysely';
import pg from 'pg';
import Cursor from 'pg-cursor';
import type { Database } from './schema.ts';

// Dates stay calendar strings (YYYY-MM-DD), bigint counts become numbers, numeric stays exact as a string.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Repository functions take either the pool-backed Db or an open transaction. */
export type Executor = Db | Tx;

export type DbOptions = {
  max?: number;
  /**
   * How the database names this pool's sessions (`application_name` in pg_stat_activity and the server's log):
   * which process of the service a session serves (`jornada api`, `jornada documents`, …).
   */
  applicationName?: string;
  log?: LogConfig;
  /** Milliseconds to open a connection, or to wait for a free one from the pool (0: forever). */
  connectTimeoutMs?: number;
  /**
   * Milliseconds a statement may run (0: no limit). The server cancels it then; the client gives up half a
   * second later still, so a database that stopped answering altogether fails the call too.
   */
  statementTimeoutMs?: number;
  /** Milliseconds a statement may wait for a row or table lock (0: forever). */
  lockTimeoutMs?: number;
  /** Milliseconds a transaction may sit idle before the server ends its session (0: forever). */
  idleInTransactionTimeoutMs?: number;
  /**
   * Milliseconds between the server's checks, while a statement runs, that the client is still connected
   * (`client_connection_check_interval`; 0 or unset: none): a killed report process's statement ends then,
   * instead of running, or waiting for a lock, to its end.
   */
  clientConnectionCheckMs?: number;
  /**
   * false: every statement is sent unnamed, never prepared (JORNADA_DB_PREPARED_STATEMENTS=0, for a pooler that
   * does not keep prepared statements: the first statement would otherwise fail once before the process notices).
   */
  preparedStatements?: boolean;
};

/**
 * How long an idle connection stays in the pool: five minutes, not pg's 10 s. Opening one costs a process on the
 * server and a SCRAM exchange on both sides (milliseconds of CPU each); with 10 s, the connections a burst opened
 * closed in the next lull and the next burst opened them again, all at once, every few seconds: on a two-core
 * node that stalled every request for up to half a second (`npm run bench month-close`, docs/performance.md).
 */
const IDLE_CONNECTION_MS = 300_000;

/** The client-side margin over the server's statement timeout. */
const QUERY_TIMEOUT_MARGIN_MS = 500;

/**
 * pg's client-side read timeout (query_timeout) is cleared by a query's callback, which pg-cursor never calls:
 * the timer would fire in the middle of a long streamed read (and keep a finished process alive until it did).
 * A cursor signals its submission through the callback instead, which clears the timer. The server's statement
 * timeout still spans the whole cursor (its fetches are one statement), so a long streamed read runs on a pool
 * without one or in a transaction that lifts it (`withoutStatementTimeout`).
 */
class StreamingCursor<Row> extends Cursor<Row> {
  callback = () => {};

  override submit = (connection: Parameters<Cursor<Row>['submit']>[0]) => {
    Cursor.prototype.submit.call(this, connection);
    this.callback();
  };
}

const pools = new WeakMap<Db, pg.Pool>();
const connectionErrorListeners = new Set<() => void>();

/** The pg pool behind a database handle (its connection counts, for the metrics). */
export const poolOf = (db: Db): pg.Pool | undefined => pools.get(db);

/** Called whenever a pooled connection is lost (the metrics count them). */
export function onConnectionError(listener: () => void): void {
  connectionErrorListeners.add(listener);
}
const connectionLost = () => {
  for (const listener of connectionErrorListeners) listener();
};

export function createDb(connectionString: string, options: DbOptions = {}): Db {
  const statementTimeout = options.statementTimeoutMs ?? 0;
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 20,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
    ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
    ...(statementTimeout > 0
      ? { statement_timeout: statementTimeout, query_timeout: statementTimeout + QUERY_TIMEOUT_MARGIN_MS }
      : {}),
    ...(options.lockTimeoutMs ? { lock_timeout: options.lockTimeoutMs } : {}),
    ...(options.idleInTransactionTimeoutMs
      ? { idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs }
      : {}),
    ...(options.clientConnectionCheckMs
      ? { options: `-c client_connection_check_interval=${options.clientConnectionCheckMs}` }
      : {}),
  });
  // An idle client can lose its connection (database restart); the pool replaces it on the next checkout.
  // (Counted once, by the client's own listener below, which hears it too.)
  pool.on('error', () => {});
  // A checked-out client can lose it too (the server ends an idle transaction, or restarts): the error reaches
  // the caller through its query; without a listener here it would also be thrown as an uncaught 'error' event
  // and end the process.
  pool.on('connect', (client) => {
    client.on('error', connectionLost);
    if (options.preparedStatements !== false) preparedByName(client);
  });
  if (options.preparedStatements === false) unpreparedPools.add(pool);
  const db = new Kysely<Database>({
    // Cursor lets query.stream() read large results in chunks (report generation) with flat memory.
    dialect: new PostgresDialect({ pool, cursor: StreamingCursor }),
    ...(options.log ? { log: options.log } : {}),
  });
  pools.set(db, pool);
  return db;
}

/** One round trip to the database (readiness). */
export async function ping(db: Db): Promise<void> {
  await db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
}

/**
 * Whether the database takes writes: 'read_only' on a replica (in recovery) or with transactions read-only by
 * default (a failover, an operator's maintenance), when every write would fail. For /readyz (issue 37).
 */
export async function writable(db: Db): Promise<'writable' | 'read_only'> {
  const { rows } = await sql<{ read_only: boolean }>`
    select pg_is_in_recovery() or current_setting('transaction_read_only') = 'on' as read_only`.execute(db);
  return rows[0]?.read_only ? 'read_only' : 'writable';
}

/**
 * Runs `work` in a transaction whose statement timeout is lifted: for long streamed reads on a pool that has one
 * (an operator's registry verification). The lock and idle timeouts still apply.
 */
export async function withoutStatementTimeout<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return await db.transaction().execute(async (tx) => {
    await sql`set local statement_timeout = 0`.execute(tx);
    return await work(tx);
  });
}

/** SQLSTATE classes and codes that say "the database is unavailable or overloaded", not "this request is wrong". */
const UNAVAILABLE_SQLSTATES = new Set([
  '53300', // too_many_connections
  '57014', // query_canceled (statement_timeout)
  '55P03', // lock_not_available (lock_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '25P03', // idle_in_transaction_session_timeout
  '40001', // serialization_failure
  '40P01', // deadlock_detected
  // A failover to a replica, or default_transaction_read_only (issue 37): it passes when the primary is back.
  '25006', // read_only_sql_transaction
]);
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
  'connect ECONNREFUSED',
];
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * Whether an error means the database could not serve the call (down, unreachable, too slow, shutting down):
 * a condition that passes, answered 503 with Retry-After rather than 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const failure = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof failure?.code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(failure.code) || failure.code.startsWith('08')) return true;
    if (UNAVAILABLE_ERRNOS.has(failure.code)) return true;
  }
  if (
    typeof failure?.message === 'string' &&
    UNAVAILABLE_MESSAGES.some((m) => String(failure.message).includes(m))
  )
    return true;
  // Node reports a refused connection to every address of a host name as one AggregateError.
  return Array.isArray(failure?.errors) && failure.errors.some(isDatabaseUnavailable);
}

/** The constraint a statement violated, when it failed with the given SQLSTATE (23505: unique violation). */
export function violatedConstraint(error: unknown, sqlState = '23505'): string | null {
  const pgError = error as { code?: unknown; constraint?: unknown };
  return pgError?.code === sqlState && typeof pgError.constraint === 'string' ? pgError.constraint : null;
}

/** Statement names by text: the same text always has the same name, on every connection. */
const preparedNames = new Map<string, string>();

/** A statement's name: a hash of its text, made once per text. */
function preparedName(text: string): string {
  let name = preparedNames.get(text);
  if (name === undefined) {
    name = `jornada_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    preparedNames.set(text, name);
  }
  return name;
}
/**
 * Whether statements are still prepared by name in this process. A pooler that hands each transaction to any
 * server connection without tracking prepared statements (PgBouncer in transaction mode before 1.21, or with
 * max_prepared_statements = 0) answers a prepared statement's later use with "does not exist" (26000), or its
 * preparation with "already exists" (42P05) on a server connection another client prepared it on: both before
 * anything runs. The first such answer turns naming off for the process, and the statement is sent unnamed.
 */
let preparing = true;
/** The pools made with preparedStatements: false (executePrepared sends their statements unnamed too). */
const unpreparedPools = new WeakSet<pg.Pool>();
const UNPREPARABLE_SQLSTATES = new Set(['26000', '42P05']);

/**
 * Runs a statement as a named prepared statement (issue 19): each pooled connection parses it once and, after
 * PostgreSQL's first five executions, reuses a generic plan when it costs no more than the custom ones
 * (plan_cache_mode auto) instead of planning it at every call. For the hot statements of the background jobs,
 * whose planning costs as much as a part of their execution (a webhook claim: about 0.9 ms a call). Only on the
 * pool (a transaction's statements go through Kysely); the query is built with Kysely's `sql` and compiled here,
 * so its text is one constant, and its name is a hash of it.
 */
export async function executePrepared<Row>(db: Db, query: RawBuilder<Row>): Promise<Row[]> {
  const pool = pools.get(db);
  if (!pool) return (await query.execute(db)).rows;
  return (await runPrepared(pool, query.compile(db))).rows as Row[];
}

/**
 * As executePrepared, each row as an array of its columns in the statement's order. For a statement that hands
 * many rows to a hot path (issue 19): in a process that runs many statements, pg's rows as objects cost several
 * times the arrays' CPU (a webhook claim: 11.2 against 3.4 µs a row, measured side by side in one process).
 */
export async function executePreparedArrays<Row extends unknown[]>(
  db: Db,
  query: RawBuilder<Row>,
): Promise<Row[]> {
  const pool = pools.get(db);
  if (!pool) return (await query.execute(db)).rows.map((row) => Object.values(row as object) as Row);
  return (await runPrepared(pool, query.compile(db), 'array')).rows as Row[];
}

/** A compiled statement on the pool, named while this process prepares statements (see `preparing`). */
async function runPrepared(
  pool: pg.Pool,
  compiled: { sql: string; parameters: readonly unknown[] },
  rowMode?: 'array',
): Promise<pg.QueryResult> {
  const text = compiled.sql;
  const values = compiled.parameters as unknown[];
  const mode = rowMode ? { rowMode } : {};
  if (!preparing || unpreparedPools.has(pool)) return await pool.query({ text, values, ...mode });
  const name = preparedName(text);
  try {
    return await pool.query({ name, text, values, ...mode });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !UNPREPARABLE_SQLSTATES.has(code)) throw error;
    preparing = false;
    return await pool.query({ text, values, ...mode });
  }
}

/**
 * Statements run through Kysely on a pooled connection are prepared by name too (issue 40's bench): once a text
 * has been sent twice by this process, each connection parses it once and PostgreSQL reuses its plan, instead of
 * planning every call. On the kiosk's punch, planning was about two thirds of the database's time (a primary-key
 * read: 316 of 393 µs; docs/performance.md, "Kiosks in the morning rush"). Bounded: at most MAX_COUNTED texts are
 * counted (when full, those sent only once are forgotten), and a connection keeps at most MAX_NAMED_PER_CONNECTION
 * statements; past that, a statement is sent unnamed as before. A statement whose result columns a migration
 * could change (`select *`, `returning *`) is never named: PostgreSQL would refuse its cached plan ("cached plan
 * must not change result type") on a node that runs while the next release's migration adds a column.
 */
const MAX_COUNTED = 4_096;
const MAX_NAMED_PER_CONNECTION = 256;
const sentTwice = new Map<string, number>();
const STAR_COLUMNS = /(?:\bselect|\breturning|,)\s+(?:(?:"[^"]*"|\w+)\.)?\*/i;

function statementName(text: string): string | undefined {
  const seen = sentTwice.get(text);
  if (seen === undefined) {
    // Full: the texts sent only once go (one-off statements, a bulk insert's row count), so that a statement
    // that becomes hot later is still counted.
    if (sentTwice.size >= MAX_COUNTED) {
      for (const [counted, times] of sentTwice) if (times === 1) sentTwice.delete(counted);
    }
    if (sentTwice.size < MAX_COUNTED) sentTwice.set(text, STAR_COLUMNS.test(text) ? -1 : 1);
    return undefined;
  }
  if (seen < 0) return undefined;
  if (seen === 1) sentTwice.set(text, 2);
  return preparedName(text);
}

type Query = (...args: unknown[]) => unknown;

/** Makes a pooled client send Kysely's statements (text and values) by name, as statementName decides. */
function preparedByName(client: pg.PoolClient): void {
  // The prototype's query, looked up at each call (a test that counts statements replaces it).
  const query: Query = (...args) => (Object.getPrototypeOf(client).query as Query).apply(client, args);
  let named = 0;
  const unnamed = (text: string, values: unknown[]) => query(text, values);
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [text, values] = args;
    if (
      !preparing ||
      typeof text !== 'string' ||
      !Array.isArray(values) ||
      values.length === 0 ||
      args.length !== 2
    ) {
      return query(...args);
    }
    const name = statementName(text);
    const parsed = (client as unknown as { connection: { parsedStatements: Record<string, string> } })
      .connection.parsedStatements;
    if (name === undefined || (!(name in parsed) && named >= MAX_NAMED_PER_CONNECTION)) {
      return unnamed(text, values);
    }
    if (!(name in parsed)) named += 1;
    return (query({ name, text, values }) as Promise<pg.QueryResult>).catch((error: unknown) => {
      const code = (error as { code?: unknown }).code;
      if (typeof code !== 'string' || !UNPREPARABLE_SQLSTATES.has(code)) throw error;
      // A pooler that does not keep prepared statements (see `preparing`): unnamed from now on. Inside a
      // transaction the failed statement has ended it, and the retry answers that: the caller's error once.
      preparing = false;
      return unnamed(text, values);
    });
  };
}

/** Whether this process still prepares statements by name (executePrepared); for the tests. */
export const preparesStatements = (): boolean => preparing;

let savepoints = 0;

/**
 * Runs `work` inside a savepoint of the caller's transaction: when it throws, what it wrote is undone and the
 * transaction goes on (an import checks every row this way, then keeps all or nothing).
 */
export async function withSavepoint<T>(tx: Tx, work: () => Promise<T>): Promise<T> {
  savepoints += 1;
  const name = sql.id(`jornada_row_${savepoints}`);
  await sql`savepoint ${name}`.execute(tx);
  try {
    const result = await work();
    await sql`release savepoint ${name}`.execute(tx);
    return result;
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(tx);
    throw error;
  }
}
