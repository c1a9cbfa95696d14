import { readFileSync } from 'node:fs';
import pg from 'pg';
import { startBenchCluster } from '/work/main/bench/lib/cluster.ts';
const cluster = await startBenchCluster();
const text = readFileSync('/work/main/src/db/migrations/0026_admission_batches.sql', 'utf8');
const start = text.indexOf('create function jornada_authenticate_many(');
const end = text.indexOf('$$;', start) + 3;
const fn = text.slice(start, end).replace('create function', 'create or replace function');
const admin = new pg.Client({ connectionString: cluster.url('postgres') });
await admin.connect();
const dbs = (await admin.query(`select datname from pg_database where datname like 'bench%'`)).rows.map((r) => r.datname);
await admin.end();
for (const name of dbs) {
  const c = new pg.Client({ connectionString: cluster.url(name) });
  await c.connect();
  const has = await c.query(`select 1 from pg_proc where proname = 'jornada_authenticate_many'`);
  if (has.rowCount) { await c.query(fn); console.log('replaced in', name); }
  await c.end();
}
await cluster.stop();
