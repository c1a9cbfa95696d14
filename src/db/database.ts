import { Kysely, type LogConfig, PostgresDialect, type Transaction } from 'kysely';
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

export function createDb(connectionString: string, options: { max?: number; log?: LogConfig } = {}): Db {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 20 });
  // An idle client can lose its connection (database restart); the pool replaces it on the next checkout.
  pool.on('error', () => {});
  return new Kysely<Database>({
    // Cursor lets query.stream() read large results in chunks (report generation) with flat memory.
    dialect: new PostgresDialect({ pool, cursor: Cursor }),
    ...(options.log ? { log: options.log } : {}),
  });
}

/** The constraint a statement violated, when it failed with the given SQLSTATE (23505: unique violation). */
export function violatedConstraint(error: unknown, sqlState = '23505'): string | null {
  const pgError = error as { code?: unknown; constraint?: unknown };
  return pgError?.code === sqlState && typeof pgError.constraint === 'string' ? pgError.constraint : null;
}
