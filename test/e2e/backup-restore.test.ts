import { open, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBackup } from '../../src/db/backup.ts';
import { createDb } from '../../src/db/database.ts';
import { knownMigrations, migrationStatus } from '../../src/db/migrator.ts';
import { createEmptyDatabase } from '../helpers/database.ts';
import { previousRelease } from '../helpers/previous-release.ts';
import {
  companyWithLiveKey,
  E2E_ADMIN_TOKEN,
  freePort,
  httpClient,
  spawnCli,
  startServiceNode,
  stopServiceNode,
  useServiceWorld,
} from '../helpers/service.ts';

/**
 * `jornada backup` and `jornada restore` (issue 37): a backup taken while writes go on holds every write
 * acknowledged before it began and none begun after it ended; it restores into an empty database without
 * pg_dump, and the service serves the restored data, whose registry verifies. A damaged file changes nothing.
 */
const world = useServiceWorld('backup');
const file = path.join(os.tmpdir(), `jornada-backup-${process.pid}.jornada.gz`);
const targets: Array<{ url: string; drop(): Promise<void> }> = [];
let http: ReturnType<typeof httpClient>;
let liveKey: string;

beforeAll(async () => {
  const port = await freePort();
  await world.start('all', { port });
  http = httpClient(`http://127.0.0.1:${port}`);
  const company = await companyWithLiveKey(http, 'Backup SL', ['org:empleados:read', 'org:empleados:write']);
  liveKey = company.liveKey;
  const seats = await http(
    'PATCH',
    `/admin/v1/companies/${company.companyId}`,
    { seats: 100_000 },
    E2E_ADMIN_TOKEN,
  );
  expect(seats.status, seats.text).toBe(200);
}, 60_000);
afterAll(async () => {
  for (const target of targets) await target.drop();
  await rm(file, { force: true });
  await rm(`${file}.partial`, { force: true });
});

const cli = async (args: string[], databaseUrl: string) => {
  const run = spawnCli(args, { DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const code = await run.exited;
  return { code, output: run.output() };
};

async function emptyTarget() {
  const target = await createEmptyDatabase();
  targets.push(target);
  return target;
}

async function tableCount(url: string): Promise<number> {
  const db = createDb(url, { max: 1 });
  try {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_tables where schemaname = current_schema()`.execute(db);
    return rows[0]?.n ?? 0;
  } finally {
    await db.destroy();
  }
}

describe('jornada backup and restore', () => {
  it('copies one snapshot under a steady write load, restores it into an empty database, and the service serves it', async () => {
    // A steady load: one employee hired after another, each acknowledged write noted with when it began.
    const writes: Array<{ id: string; began: number; acknowledged: number }> = [];
    let loading = true;
    let count = 0;
    let failed: Error | null = null;
    const load = (async () => {
      while (loading && failed === null) {
        const began = performance.now();
        count += 1;
        const response = await http(
          'POST',
          '/v1/employees',
          {
            first_name: 'Worker',
            last_name: `${count}`,
            email: `w${count}@example.com`,
            hire_date: '2026-01-01',
          },
          liveKey,
        );
        if (response.status !== 201) failed = new Error(`hire: ${response.status} ${response.text}`);
        else writes.push({ id: response.body.id as string, began, acknowledged: performance.now() });
      }
    })();
    const waitFor = async (writesDone: number) => {
      while (writes.length < writesDone) {
        if (failed) throw failed;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await waitFor(20);

    const backupStarted = performance.now();
    const backup = await cli(['backup', file], world.database.url);
    const backupEnded = performance.now();
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/^backed up \d+ rows of \d+ tables at schema 00\d\d_\w+ to /m);
    // The load went on during the backup, and after it.
    const atEnd = writes.length;
    await waitFor(atEnd + 5);
    loading = false;
    await load;
    expect(writes.some((write) => write.began > backupStarted && write.acknowledged < backupEnded)).toBe(
      true,
    );

    const manifest = await verifyBackup(file);
    expect(manifest.schema.at(-1)).toMatch(/^00\d\d_/);
    const target = await emptyTarget();
    const restored = await cli(['restore', file], target.url);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/^restored \d+ rows of \d+ tables from /m);
    expect(restored.output).toMatch(
      /^webhook deliveries: those delivered before the backup stay delivered; \d+ were still due/m,
    );

    // Every row of the manifest is there, table by table; every write acknowledged before the backup began is
    // restored, none begun after it ended, and nothing that the source does not have.
    const db = createDb(target.url, { max: 1 });
    const source = createDb(world.database.url, { max: 1 });
    try {
      for (const table of manifest.tables.filter((each) => each.name !== 'schema_migrations')) {
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from ${sql.table(table.name)}`.execute(db);
        expect({ table: table.name, rows: rows[0]?.n }).toEqual({ table: table.name, rows: table.rows });
      }
      const ids = new Set(
        (await sql<{ id: string }>`select id from employees`.execute(db)).rows.map((row) => row.id),
      );
      const sourceIds = new Set(
        (await sql<{ id: string }>`select id from employees`.execute(source)).rows.map((row) => row.id),
      );
      for (const write of writes.filter((each) => each.acknowledged < backupStarted))
        expect(ids).toContain(write.id);
      for (const write of writes.filter((each) => each.began > backupEnded))
        expect(ids).not.toContain(write.id);
      for (const id of ids) expect(sourceIds).toContain(id);
    } finally {
      await db.destroy();
      await source.destroy();
    }

    // The registry of the restored database verifies, and a node serves it with the same keys.
    const verified = await cli(['registry', 'verify'], target.url);
    expect(verified.code, verified.output).toBe(0);
    const port = await freePort();
    const node = await startServiceNode(target.url, 'api', {
      port,
      env: { JORNADA_DATA_DIR: world.dataDir },
    });
    try {
      const restoredHttp = httpClient(`http://127.0.0.1:${port}`);
      const listed = await restoredHttp('GET', '/v1/employees?limit=100', undefined, liveKey);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body.data.length).toBeGreaterThanOrEqual(20);
    } finally {
      await stopServiceNode(node);
    }

    // A restore refuses a database that is not empty.
    const again = await cli(['restore', file], target.url);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/restore: the database is not empty/);
  }, 240_000);

  it("restores an older release's backup into this release, migrating it on", async () => {
    // A database as the previous release left it (its own code, test/fixtures/previous-release.jsonl.gz), with a
    // company it created.
    const known = await knownMigrations();
    const release = await previousRelease();
    const source = await emptyTarget();
    const port = await freePort();
    const old = await startServiceNode(source.url, 'api', {
      port,
      cli: release.cli,
      env: { JORNADA_DATA_DIR: world.dataDir },
    });
    try {
      const created = await httpClient(`http://127.0.0.1:${port}`)(
        'POST',
        '/admin/v1/companies',
        { name: 'Antigua SL' },
        E2E_ADMIN_TOKEN,
      );
      expect(created.status, created.text).toBe(201);
    } finally {
      await stopServiceNode(old);
    }
    const sourceDb = createDb(source.url, { max: 1 });
    const status = await migrationStatus(sourceDb).finally(() => sourceDb.destroy());
    const older = status.applied.at(-1)?.version as string;
    expect(older).not.toBe(known.at(-1));
    const olderFile = `${file}.older`;
    try {
      const taken = await cli(['backup', olderFile], source.url);
      expect(taken.code, taken.output).toBe(0);
      expect(taken.output).toContain(`at schema ${older}`);
      const target = await emptyTarget();
      const restored = await cli(['restore', olderFile], target.url);
      expect(restored.code, restored.output).toBe(0);
      expect(restored.output).toContain(`schema: ${older} in the backup, ${known.at(-1)} now`);
      const db = createDb(target.url, { max: 1 });
      try {
        expect((await migrationStatus(db)).pending).toEqual([]);
        const { rows } = await sql<{
          name: string;
        }>`select name from companies where name = 'Antigua SL'`.execute(db);
        expect(rows).toHaveLength(1);
      } finally {
        await db.destroy();
      }
    } finally {
      await rm(olderFile, { force: true });
    }
  }, 120_000);

  it('refuses a backup that a newer release took, before it changes anything', async () => {
    // The same backup, its manifest naming a migration this release does not know (the tables still check out).
    const lines = gunzipSync(await readFile(file))
      .toString('utf8')
      .split('\n');
    const at = lines.findIndex((line) => line.startsWith('MANIFEST '));
    const manifest = JSON.parse((lines[at] as string).slice('MANIFEST '.length));
    manifest.schema.push('9999_a_newer_release');
    lines[at] = `MANIFEST ${JSON.stringify(manifest)}`;
    const newer = `${file}.newer`;
    await writeFile(newer, gzipSync(lines.join('\n')));
    try {
      const target = await emptyTarget();
      const refused = await cli(['restore', newer], target.url);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(
        /restore: the backup was taken by a newer release \(migrations 9999_a_newer_release/,
      );
      expect(await tableCount(target.url)).toBe(0);
    } finally {
      await rm(newer, { force: true });
    }
  }, 60_000);

  it('refuses a damaged or cut file before it changes anything', async () => {
    const { size } = await stat(file);
    const damaged = `${file}.damaged`;
    const handle = await open(damaged, 'w');
    const original = await open(file, 'r');
    const bytes = Buffer.alloc(size);
    await original.read(bytes, 0, size, 0);
    await original.close();
    bytes[Math.floor(size / 2)] = (bytes[Math.floor(size / 2)] as number) ^ 0xff;
    await handle.write(bytes);
    await handle.close();
    try {
      const target = await emptyTarget();
      const refused = await cli(['restore', damaged], target.url);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/restore: .*(damaged|cannot be read whole)/);
      expect(await tableCount(target.url)).toBe(0);

      await truncate(damaged, Math.floor(size / 3));
      const cut = await cli(['restore', damaged], target.url);
      expect(cut.code).toBe(1);
      expect(cut.output).toMatch(/restore: .*(cut short|cannot be read whole)/);
      expect(await tableCount(target.url)).toBe(0);
    } finally {
      await rm(damaged, { force: true });
    }
  }, 60_000);
});
