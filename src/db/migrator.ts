import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './database.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant shared by every Jornada node: serialises concurrent migrators on one database.
const MIGRATION_LOCK = 4_711_2026;

export type MigrationResult = { applied: string[] };

/** Applies the SQL files in src/db/migrations in name order, each in its own transaction, once. */
export async function migrate(db: Db): Promise<MigrationResult> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
  return await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(connection);
    try {
      await sql`create table if not exists schema_migrations (
        version text primary key,
        applied_at timestamptz not null default now()
      )`.execute(connection);
      const done = await sql<{ version: string }>`select version from schema_migrations`.execute(connection);
      const applied = new Set(done.rows.map((row) => row.version));
      const result: string[] = [];
      for (const file of files) {
        const version = file.replace(/\.sql$/, '');
        if (applied.has(version)) continue;
        const text = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
        await connection.transaction().execute(async (tx) => {
          await sql.raw(text).execute(tx);
          await sql`insert into schema_migrations (version) values (${version})`.execute(tx);
        });
        result.push(version);
      }
      return { applied: result };
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(connection);
    }
  });
}
