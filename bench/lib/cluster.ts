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
