import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { startBenchCluster, openBenchDatabase } from '/work/main/bench/lib/cluster.ts';
const cluster = await startBenchCluster();
const { db } = await openBenchDatabase(cluster, 'bench_platform');
await sql.raw('drop function if exists exp_old_authenticate; drop function if exists exp_old_admit;').execute(db);
await sql.raw(readFileSync('/tmp/old-fns.sql', 'utf8')).execute(db);
const key = await sql<{ secret_hash: Buffer; company_id: string }>`select secret_hash, company_id from api_keys where mode = 'live' and revoked_at is null limit 1`.execute(db);
const hash = key.rows[0]!.secret_hash;
const month = '2031-01-01';
async function time(name: string, call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 300; i++) await call(i);
  const t = performance.now();
  for (let i = 0; i < 3000; i++) await call(i);
  console.log(name, ((performance.now() - t) * 1000 / 3000).toFixed(0), 'µs');
}
const win = (i: number) => new Date(Date.UTC(2031, 0, 1, 0, Math.floor(i / 100)));
for (let r = 0; r < 2; r++) {
  await time('old single', (i) => sql`select * from exp_old_authenticate(${hash}, 'live', ${win(i)}::timestamptz, ${win(i)}::timestamptz, ${month}::date, '1.2.3.4', false, 1000000, 30, 5000, 10000000, 1000, 100000000)`.execute(db));
  await time('new single', (i) => sql`select * from jornada_authenticate_many(${[hash]}::bytea[], ${['live']}::text[], ${[win(i)]}::timestamptz[], ${[win(i)]}::timestamptz[], ${[month]}::date[], ${['1.2.3.4']}::text[], ${[false]}::boolean[], 1000000, 30, 5000, 10000000, 1000, 100000000)`.execute(db));
}
await sql.raw('drop function exp_old_authenticate; drop function exp_old_admit;').execute(db);
await db.destroy();
await cluster.stop();
