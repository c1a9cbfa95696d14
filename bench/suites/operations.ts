import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { backup, restore } from '../../src/db/backup.ts';
import { createDb, type Db } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrator.ts';
import { createCompany } from '../../src/modules/companies/companies.service.ts';
import { FakeClock } from '../../src/time/clock.ts';
import { type BenchCluster, dataSetReady, markDataSet, openBenchDatabase } from '../lib/cluster.ts';
import { generateCheckIns, generateEmployees } from '../lib/generate.ts';

/**
 * Issue 37: what an operator plans an upgrade and a backup with, at 500,000 check-ins (500 employees × 1,000).
 *
 * - `jornada backup` and `jornada restore` throughput, each against the least it could do, in the same run. The
 *   backup's control reads every table's COPY to nowhere on one connection (no compression, no checksum): target
 *   within 3×. The restore's control migrates an empty database and pipes every table's COPY from the source
 *   straight into it (no file, no check, triggers off as in a restore): target within 2×.
 * - How long the kinds of statement a migration runs hold their lock on `check_ins` at that size (each in a
 *   transaction, rolled back): figures for docs/operations.md "Upgrade", no target.
 */
const EMPLOYEES = 500;
const PER_EMPLOYEE = 1_000;
const MARKER = `operations-${EMPLOYEES}x${PER_EMPLOYEE}`;
const TARGET_BACKUP_RATIO = 3;
const TARGET_RESTORE_RATIO = 2;

export async function operationsSuite(cluster: BenchCluster): Promise<string[]> {
  const { db, url } = await openBenchDatabase(cluster, 'bench_operations');
  const failures: string[] = [];
  const directory = await mkdtemp(path.join(os.tmpdir(), 'jornada-bench-backup-'));
  try {
    await dataSet(db);
    const rows = await totalRows(db);
    const control = await copyEverything(url);
    const file = path.join(directory, 'bench.jornada.gz');
    let started = performance.now();
    await backup(url, file, new Date());
    const backupSeconds = (performance.now() - started) / 1000;
    const size = (await stat(file)).size / 1024 / 1024;

    const across = await copyAcross(url, await freshDatabase(cluster, 'bench_operations_across'));
    const target = await freshDatabase(cluster, 'bench_operations_restore');
    started = performance.now();
    const restored = await restore(target, file);
    const restoreSeconds = (performance.now() - started) / 1000;
    console.log(
      `  ${rows} rows: COPY of every table (control) ${control.toFixed(1)} s; backup ${backupSeconds.toFixed(1)} s (${Math.round(rows / backupSeconds)} rows/s, ${size.toFixed(0)} MB gzip, ${(backupSeconds / control).toFixed(1)}× the control, target ≤ ${TARGET_BACKUP_RATIO}); COPY across into a migrated database (control) ${across.toFixed(1)} s; restore ${restoreSeconds.toFixed(1)} s (${Math.round(restored.rows / restoreSeconds)} rows/s, ${(restoreSeconds / across).toFixed(1)}× its control, target ≤ ${TARGET_RESTORE_RATIO})`,
    );
    if (backupSeconds > TARGET_BACKUP_RATIO * control)
      failures.push('operations: backup slower than its target');
    if (restoreSeconds > TARGET_RESTORE_RATIO * across)
      failures.push('operations: restore slower than its target');

    await migrationLocks(db);
  } finally {
    await rm(directory, { recursive: true, force: true });
    await db.destroy();
  }
  return failures;
}

async function dataSet(db: Db): Promise<void> {
  if (await dataSetReady(db, MARKER)) return;
  const clock = new FakeClock();
  const company = await createCompany({ db, clock }, { name: 'Operations bench', timezone: 'Europe/Madrid' });
  await generateEmployees(db, company.id, EMPLOYEES, new Date('2025-01-01T00:00:00Z'));
  await generateCheckIns(db, company.id, { first: 1, last: EMPLOYEES }, PER_EMPLOYEE, '2025-01-01');
  await sql`vacuum analyze`.execute(db);
  await markDataSet(db, MARKER);
}

async function totalRows(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`
    select sum(n_live_tup)::text as n from pg_stat_user_tables where schemaname = current_schema()`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Every table's COPY read and dropped, on one connection: the control. */
async function copyEverything(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select tablename as name from pg_tables where schemaname = current_schema() order by 1`,
    );
    const started = performance.now();
    await client.query('begin isolation level repeatable read, read only');
    for (const { name } of rows) {
      await pipeline(
        client.query(copyTo(`copy "${name}" to stdout`)),
        new Writable({
          write(_chunk, _encoding, done) {
            done();
          },
        }),
      );
    }
    await client.query('commit');
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}

/** The restore's control: migrate an empty database, then every table's COPY piped into it, triggers off. */
async function copyAcross(sourceUrl: string, targetUrl: string): Promise<number> {
  const started = performance.now();
  const targetDb = createDb(targetUrl, { max: 1 });
  await migrate(targetDb);
  await targetDb.destroy();
  const source = new pg.Client({ connectionString: sourceUrl });
  const target = new pg.Client({ connectionString: targetUrl });
  await source.connect();
  await target.connect();
  try {
    const { rows } = await source.query<{ name: string }>(
      `select tablename as name from pg_tables where schemaname = current_schema() and tablename <> 'schema_migrations' order by 1`,
    );
    await source.query('begin isolation level repeatable read, read only');
    await target.query('begin');
    await target.query('set local session_replication_role = replica');
    await target.query(`truncate ${rows.map(({ name }) => `"${name}"`).join(', ')}`);
    for (const { name } of rows) {
      await pipeline(
        source.query(copyTo(`copy "${name}" to stdout`)),
        target.query(copyFrom(`copy "${name}" from stdin`)),
      );
    }
    await target.query('commit');
    await source.query('commit');
    return (performance.now() - started) / 1000;
  } finally {
    await source.end();
    await target.end();
  }
}

async function freshDatabase(cluster: BenchCluster, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name}`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return cluster.url(name);
}

/** The kinds of migration statement, timed on check_ins at this size, each rolled back. */
async function migrationLocks(db: Db): Promise<void> {
  const kinds: Array<[string, string]> = [
    ['add a nullable column (catalog only)', 'alter table check_ins add column bench_note text'],
    [
      'add a column with a constant default (catalog only)',
      'alter table check_ins add column bench_flag boolean not null default false',
    ],
    [
      'add a check constraint (scans, blocks writes)',
      "alter table check_ins add constraint bench_type check (type in ('in','out','break_start','break_end'))",
    ],
    ['create an index (blocks writes)', 'create index bench_index on check_ins (company_id, recorded_at)'],
    ['rewrite every row with an update (blocks writes to the rows)', 'update check_ins set source = source'],
    [
      'add a column with a volatile default (rewrites the table, blocks reads and writes)',
      'alter table check_ins add column bench_id uuid not null default gen_random_uuid()',
    ],
  ];
  for (const [label, statement] of kinds) {
    const started = performance.now();
    await db
      .transaction()
      .execute(async (tx) => {
        await sql`set local statement_timeout = 0`.execute(tx);
        await sql.raw(statement).execute(tx);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    console.log(`  migration, ${label}: ${((performance.now() - started) / 1000).toFixed(2)} s`);
  }
}

class RolledBack extends Error {}
