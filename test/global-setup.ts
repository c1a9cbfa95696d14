import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDb } from '../src/db/database.ts';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrator.ts';

export const TEMPLATE_DATABASE = 'jornada_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A superuser connection string to the test cluster's maintenance database. */
    adminDatabaseUrl: string;
  }
}

let embedded: EmbeddedDatabase | null = null;
let dataDir: string | null = null;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * One PostgreSQL for the whole run: TEST_DATABASE_URL (a superuser URL) when set, else an embedded cluster in a
 * temporary directory. A template database is migrated once; each test file clones it (test/helpers/database.ts).
 */
export async function setup(project: TestProject): Promise<void> {
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-test-'));
    await chmod(dataDir, 0o755); // the embedded cluster may run as the 'postgres' user
    embedded = await startEmbeddedDatabase({ dataDir, ephemeral: true });
    adminUrl = embedded.connectionString;
  }
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
  await client.query(`create database ${TEMPLATE_DATABASE}`);
  await client.end();
  const db = createDb(withDatabase(adminUrl, TEMPLATE_DATABASE), { max: 1 });
  await migrate(db);
  await db.destroy();
  project.provide('adminDatabaseUrl', adminUrl);
}

export async function teardown(): Promise<void> {
  await embedded?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
