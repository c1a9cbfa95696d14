import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { allowAnySyncStamp } from './sync-stamp.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant shared by every Jornada node: serialises concurrent migrators on one database.
const MIGRATION_LOCK = 4_711_2026;

export type MigrationResult = { applied: string[] };

async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
}

/** This release's migrations, by version (file name without .sql), in order. */
export async function knownMigrations(): Promise<string[]> {
  return (await migrationFiles()).map((file) => file.replace(/\.sql$/, ''));
}

/**
 * The mark of a migration that the previous release's code runs beside (expand/contract, docs/operations.md
 * "Upgrade"): it only adds. A line of its own among the file's first comments.
 */
const EXPAND_ONLY = /^-- jornada: expand-only$/m;

type AppliedMigration = { version: string; applied_at: Date; expand_only: boolean };

/**
 * The applied migrations this release does not know and may not run beside (not marked expand-only): on any of
 * them, nothing of this release may run (the guard of migrate, the start and readiness).
 */
function breakingOf(
  applied: ReadonlyArray<{ version: string; expand_only: boolean }>,
  known: Set<string>,
): string[] {
  return applied
    .filter((row) => !known.has(row.version) && !row.expand_only)
    .map((row) => row.version)
    .sort();
}

/** The versions applied to the database, with when and their mark, in order (none on an empty database). */
async function appliedMigrations(db: Db): Promise<AppliedMigration[]> {
  const table = await sql<{
    name: string | null;
  }>`select to_regclass('schema_migrations')::text as name`.execute(db);
  if (!table.rows[0]?.name) return [];
  // Read through to_jsonb: a database migrated before the column existed has no expand_only.
  return (
    await sql<AppliedMigration>`
      select version, applied_at, coalesce((to_jsonb(m) ->> 'expand_only')::boolean, false) as expand_only
        from schema_migrations m order by version`.execute(db)
  ).rows;
}

/**
 * The schema's state against this release (issue 37): what is applied, what is pending, and what the database has
 * that this release does not know (a newer release migrated it: this node must not serve on it).
 */
export async function migrationStatus(db: Db): Promise<{
  applied: AppliedMigration[];
  pending: string[];
  unknown: string[];
  /** The unknown migrations not marked expand-only: on any of them, this release must not serve. */
  breaking: string[];
}> {
  const known = await knownMigrations();
  const applied = await appliedMigrations(db);
  const done = new Set(applied.map((row) => row.version));
  const knownSet = new Set(known);
  return {
    applied,
    pending: known.filter((version) => !done.has(version)),
    unknown: applied.map((row) => row.version).filter((version) => !knownSet.has(version)),
    breaking: breakingOf(applied, knownSet),
  };
}

/** A database migrated by a newer release than this one: nothing here may run on it. */
export class NewerSchemaError extends Error {
  readonly unknown: string[];
  constructor(unknown: string[]) {
    super(
      `the database has ${unknown.length} migration(s) this release does not know (${unknown.join(', ')}): a newer release migrated it. Run that release (or a newer one), or restore a backup taken before the upgrade.`,
    );
    this.name = 'NewerSchemaError';
    this.unknown = unknown;
  }
}

/** The migrations not yet applied to the database (all of them on an empty one). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  return (await migrationStatus(db)).pending;
}

/**
 * Applies the SQL files in src/db/migrations in name order, once each, in ONE transaction that holds a
 * transaction-level advisory lock: concurrent migrators (nodes starting together) run one after the other, and
 * the lock can never outlive its transaction or be released on another server connection, which makes it safe
 * behind a transaction-mode pooler (PgBouncer) where a session-level lock was not. A failing file rolls the
 * whole run back. No statement timeout applies: a migration may take as long as it needs.
 */
export async function migrate(db: Db, options: { through?: string } = {}): Promise<MigrationResult> {
  const files = (await migrationFiles()).filter(
    (file) => options.through === undefined || file.replace(/\.sql$/, '') <= options.through,
  );
  return await db.transaction().execute(async (tx) => {
    await sql`set local statement_timeout = 0`.execute(tx);
    await sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(tx);
    // A data migration may stamp records as it sees fit: it runs before the service reads the new schema.
    await allowAnySyncStamp(tx);
    await sql`create table if not exists schema_migrations (
      version text primary key,
      applied_at timestamptz not null default now()
    )`.execute(tx);
    // Not a numbered migration, so that a release that predates the mark sees nothing unknown.
    await sql`alter table schema_migrations add column if not exists expand_only boolean not null default false`.execute(
      tx,
    );
    const done = await sql<{
      version: string;
      expand_only: boolean;
    }>`select version, expand_only from schema_migrations`.execute(tx);
    const applied = new Set(done.rows.map((row) => row.version));
    // A migration this release does not know means a newer release ran here: refuse, do not "catch up", unless
    // every one of them is marked expand-only (this release's code runs beside it).
    const breaking = breakingOf(done.rows, new Set(await knownMigrations()));
    if (breaking.length > 0) throw new NewerSchemaError(breaking);
    const result: string[] = [];
    for (const file of files) {
      const version = file.replace(/\.sql$/, '');
      if (applied.has(version)) continue;
      const text = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      await sql.raw(text).execute(tx);
      await sql`insert into schema_migrations (version, expand_only) values (${version}, ${EXPAND_ONLY.test(text)})`.execute(
        tx,
      );
      result.push(version);
    }
    return { applied: result };
  });
}
