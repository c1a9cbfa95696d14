import { readFileSync } from 'node:fs';
import pg from 'pg';
import { openBenchDatabase, startBenchCluster } from './lib/cluster.ts';
import { platformSuite } from './suites/platform.ts';

const cluster = await startBenchCluster();
const { db, url } = await openBenchDatabase(cluster, 'bench_platform');
await db.destroy();
const client = new pg.Client({ connectionString: url });
await client.connect();
const original = readFileSync('src/db/migrations/0024_authenticate.sql', 'utf8');
const variant = original
  .replace('create function', 'create or replace function')
  .replace(process.env.FROM ?? '', process.env.TO ?? '');
await client.query(variant);
try {
  await platformSuite(cluster);
} finally {
  await client.query(original.replace('create function', 'create or replace function'));
  await client.end();
  await cluster.stop();
}
