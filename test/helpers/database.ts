import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb, type Db } from '../../src/db/database.ts';

const TEMPLATE_DATABASE = 'jornada_template';

export type TestDatabase = { db: Db; url: string; drop(): Promise<void> };

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template: isolated per test file, created in milliseconds. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `jornada_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (client) => {
    // Two files cloning the template at the same instant can collide; a short retry settles it.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database ${name} template ${TEMPLATE_DATABASE}`);
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), { max: 30 });
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.destroy();
      await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** An empty database (no migrations) on the test cluster, dropped by `drop()`. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `jornada_empty_${randomBytes(6).toString('hex')}`;
  await withAdmin((client) => client.query(`create database ${name}`));
  const url = new URL(inject('adminDatabaseUrl'));
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}
