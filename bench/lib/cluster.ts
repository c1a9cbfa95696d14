import path from 'node:path';
import pg from 'pg';
import { createDb, type Db } from '../../src/db/database.ts';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrator.ts';

/**
 * The bench cluster: BENCH_DATABASE_URL (a superuser URL) when set, else an embedded PostgreSQL in
 * ./.bench-data that is kept between runs, so generated data is reused. Each suite has its own database.
 */
export type BenchCluster = { url(database: string): string; stop(): Promise<void> };

let embedded: EmbeddedDatabase | null = null;

/**
 * BENCH_PG_STATEMENTS=N (the embedded cluster only): PostgreSQL tracks every statement (pg_stat_statements, with
 * planning time) and each suite prints its N costliest, by planning and execution time together, with calls and
 * time per call: where the database's share of a suite's time goes.
 */
const STATEMENTS = Number(process.env.BENCH_PG_STATEMENTS ?? 0);

/** Prints a suite's costliest statements (BENCH_PG_STATEMENTS), then forgets them for the next suite. */
export async function printCostliestStatements(
  cluster: BenchCluster,
  database: string,
  options: { only: 'reset' } | { title: string },
): Promise<void> {
  if (STATEMENTS <= 0) return;
  const client = new pg.Client({ connectionString: cluster.url(database) });
  await client.connect();
  try {
    await client.query('create extension if not exists pg_stat_statements');
    if ('only' in options) {
      await client.query('select pg_stat_statements_reset()');
      return;
    }
    const { rows } = await client.query(
      `select calls, total_plan_time + total_exec_time as total, total_plan_time as plan, query
         from pg_stat_statements where dbid = (select oid from pg_database where datname = $1)
        order by total desc limit $2`,
      [database, STATEMENTS],
    );
    const all = await client.query(
      `select sum(total_plan_time + total_exec_time) as total, sum(calls) as calls from pg_stat_statements
        where dbid = (select oid from pg_database where datname = $1)`,
      [database],
    );
    console.log(
      `  ${options.title}: ${Number(all.rows[0].calls)} calls, ${(Number(all.rows[0].total) / 1000).toFixed(1)} s in the database`,
    );
    for (const row of rows) {
      const text = String(row.query).replace(/\s+/g, ' ').slice(0, 140);
      console.log(
        `  ${(Number(row.total) / 1000).toFixed(2).padStart(7)} s ${String(row.calls).padStart(7)} calls ${((Number(row.total) * 1000) / Number(row.calls)).toFixed(0).padStart(6)} µs/call (plan ${((Number(row.plan) * 1000) / Number(row.calls)).toFixed(0)}) ${text}`,
      );
    }
    await client.query('select pg_stat_statements_reset()');
  } finally {
    await client.end();
  }
}

export async function startBenchCluster(): Promise<BenchCluster> {
  let adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) {
    embedded = await startEmbeddedDatabase({
      dataDir: path.resolve(process.env.JORNADA_BENCH_DIR ?? '.bench-data'),
      ephemeral: true,
      postgresFlags: [
        '-c',
        'shared_buffers=1GB',
        '-c',
        'maintenance_work_mem=512MB',
        '-c',
        'max_wal_size=8GB',
        ...(STATEMENTS > 0
          ? [
              '-c',
              'shared_preload_libraries=pg_stat_statements',
              '-c',
              'pg_stat_statements.track_planning=on',
            ]
          : []),
      ],
    });
    adminUrl = embedded.connectionString;
  }
  const base = adminUrl;
  return {
    url(database) {
      const parsed = new URL(base);
      parsed.pathname = `/${database}`;
      return parsed.toString();
    },
    async stop() {
      await embedded?.stop();
    },
  };
}

/** Opens (creating and migrating when needed) one suite's database. */
export async function openBenchDatabase(
  cluster: BenchCluster,
  name: string,
): Promise<{ db: Db; url: string }> {
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = cluster.url(name);
  const db = createDb(url, { max: 8 });
  await migrate(db);
  return { db, url };
}

/** A marker in instance_settings recording that a data set was generated completely. */
export async function dataSetReady(db: Db, marker: string): Promise<boolean> {
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('name', '=', 'bench_data')
    .executeTakeFirst();
  return row?.value === marker;
}

export async function markDataSet(db: Db, marker: string): Promise<void> {
  await db
    .insertInto('instance_settings')
    .values({ name: 'bench_data', value: marker })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: marker }))
    .execute();
}

export function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  return work().then((result) => {
    console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  });
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
