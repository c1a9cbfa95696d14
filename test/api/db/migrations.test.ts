import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import { createDb } from '../../../src/db/database.ts';
import { migrate, migrationStatus, NewerSchemaError, pendingMigrations } from '../../../src/db/migrator.ts';
import { openDatabase } from '../../../src/main.ts';
import { FakeClock } from '../../../src/time/clock.ts';
import { testDeps } from '../../helpers/context.ts';
import { createEmptyDatabase } from '../../helpers/database.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function emptyDatabase() {
  const database = await createEmptyDatabase();
  cleanups.push(database.drop);
  return database.url;
}

describe('migrations', () => {
  it('lets 20 concurrent migrators apply every file exactly once', async () => {
    const url = await emptyDatabase();
    const migrators = Array.from({ length: 20 }, () => createDb(url, { max: 1 }));
    try {
      const results = await Promise.all(migrators.map((db) => migrate(db)));
      const applied = results.flatMap((result) => result.applied);
      expect(new Set(applied).size).toBe(applied.length);
    } finally {
      await Promise.all(migrators.map((db) => db.destroy()));
    }
    const check = createDb(url, { max: 1 });
    expect(await pendingMigrations(check)).toEqual([]);
    await check.destroy();
  }, 60_000);

  it('holds only a transaction-level lock, so a transaction-mode pooler cannot strand it', async () => {
    const url = await emptyDatabase();
    const statements: string[] = [];
    const db = createDb(url, {
      max: 1,
      log: (event) => {
        statements.push(event.query.sql);
      },
    });
    try {
      await migrate(db);
      // A session-level advisory lock taken on one server connection and released on another (what a
      // transaction-mode pooler does between statements) stays held; the transaction-level one cannot.
      expect(statements.some((text) => /pg_advisory_(un)?lock\(/.test(text))).toBe(false);
      expect(statements.some((text) => /pg_advisory_xact_lock\(/.test(text))).toBe(true);
      // pg_locks lists the whole cluster's locks: only this database's count (other test files run beside it and
      // take short transaction-level advisory locks of their own, the sync stamps' and the company chains').
      const held = await sql`select locktype from pg_locks where locktype = 'advisory'
        and database = (select oid from pg_database where datname = current_database())`.execute(db);
      expect(held.rows).toEqual([]);
    } finally {
      await db.destroy();
    }
  });

  it('refuses to start with pending migrations when JORNADA_MIGRATE_ON_START=0, and starts once migrated', async () => {
    const url = await emptyDatabase();
    const config = loadConfig({ DATABASE_URL: url, JORNADA_MIGRATE_ON_START: '0', LOG_LEVEL: 'silent' });
    const log = pino({ level: 'silent' });
    await expect(openDatabase(config, log)).rejects.toThrow(/pending migration.*jornada migrate/);
    const migrated = await openDatabase(config, log, { migrate: 'force' });
    await migrated.close();
    const started = await openDatabase(config, log);
    expect(await pendingMigrations(started.db)).toEqual([]);
    await started.close();
  });

  it('runs migrations through JORNADA_MIGRATION_DATABASE_URL when it is set', async () => {
    const url = await emptyDatabase();
    const direct = await emptyDatabase();
    const config = loadConfig({
      DATABASE_URL: url,
      JORNADA_MIGRATION_DATABASE_URL: direct,
      LOG_LEVEL: 'silent',
    });
    // The two URLs name different databases here, so the one migrated shows which URL was used.
    const opened = await openDatabase(config, pino({ level: 'silent' }));
    try {
      expect((await pendingMigrations(opened.db)).length).toBeGreaterThan(0);
      const check = createDb(direct, { max: 1 });
      expect(await pendingMigrations(check)).toEqual([]);
      await check.destroy();
    } finally {
      await opened.close();
    }
  });

  it('refuses a database a newer release migrated: migrate, a start without migrating, and readiness (issue 37)', async () => {
    const url = await emptyDatabase();
    const db = createDb(url, { max: 2 });
    cleanups.push(() => db.destroy());
    const first = await migrate(db);
    expect(first.applied.length).toBeGreaterThan(40);
    expect((await migrate(db)).applied).toEqual([]);
    expect(await migrationStatus(db)).toMatchObject({ pending: [], unknown: [] });

    // A newer release's node migrated this database while this one ran.
    await sql`insert into schema_migrations (version) values ('9999_a_newer_release')`.execute(db);
    expect(await migrationStatus(db)).toMatchObject({ pending: [], unknown: ['9999_a_newer_release'] });
    await expect(migrate(db)).rejects.toThrow(NewerSchemaError);
    await expect(migrate(db)).rejects.toThrow(/9999_a_newer_release.*newer release/);
    const log = pino({ level: 'silent' });
    const noMigration = loadConfig({ DATABASE_URL: url, JORNADA_MIGRATE_ON_START: '0', LOG_LEVEL: 'silent' });
    await expect(openDatabase(noMigration, log)).rejects.toThrow(NewerSchemaError);
    const migrating = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' });
    await expect(openDatabase(migrating, log)).rejects.toThrow(NewerSchemaError);

    const reportsDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-schema-'));
    cleanups.push(() => rm(reportsDir, { recursive: true, force: true }));
    const app = await buildApp(await testDeps(db, new FakeClock(), reportsDir), {
      metricsToken: 'metrics-token',
    });
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'schema_newer', unknown: ['9999_a_newer_release'] });
      const metrics = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer metrics-token' },
      });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).toMatch(/^jornada_schema_unknown_migrations 1$/m);
    } finally {
      await app.close();
    }

    // The same migration marked expand-only (it only adds): this release runs beside it (a rolling upgrade).
    await sql`update schema_migrations set expand_only = true where version = '9999_a_newer_release'`.execute(
      db,
    );
    expect(await migrationStatus(db)).toMatchObject({ unknown: ['9999_a_newer_release'], breaking: [] });
    expect((await migrate(db)).applied).toEqual([]);
    const opened = await openDatabase(noMigration, log);
    await opened.close();
    const beside = await buildApp(await testDeps(db, new FakeClock(), reportsDir), {
      metricsToken: 'metrics-token',
    });
    try {
      const ready = await beside.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode, ready.body).toBe(200);
      const metrics = await beside.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer metrics-token' },
      });
      expect(metrics.body).toMatch(/^jornada_schema_unknown_migrations 0$/m);
    } finally {
      await beside.close();
    }
  });
});
