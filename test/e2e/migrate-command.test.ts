import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/database.ts';
import { createEmptyDatabase } from '../helpers/database.ts';
import { spawnCli } from '../helpers/service.ts';

/**
 * `jornada migrate` says what it did, `jornada migrate --status` what the schema is against this release, and
 * both refuse a database a newer release migrated (issue 37: it printed "up to date" after applying 26).
 */
let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
beforeAll(async () => {
  database = await createEmptyDatabase();
});
afterAll(() => database.drop());

const cli = async (args: string[]) => {
  const run = spawnCli(args, { DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  const code = await run.exited;
  return { code, output: run.output() };
};

/** The release's latest migration, by its file name. */
const LATEST = readdirSync(path.resolve(import.meta.dirname, '../../src/db/migrations'))
  .filter((file) => file.endsWith('.sql'))
  .sort()
  .at(-1)
  ?.replace(/\.sql$/, '');

describe('jornada migrate', () => {
  it('lists what it applied, then that nothing was left; --status tells applied, pending and unknown', async () => {
    const pendingFirst = await cli(['migrate', '--status']);
    expect(pendingFirst.code).toBe(0);
    expect(pendingFirst.output).toMatch(/^applied: 0$/m);
    expect(pendingFirst.output).toMatch(/^pending: \d+ \(0001_/m);

    const first = await cli(['migrate']);
    expect(first.code, first.output).toBe(0);
    expect(first.output).toMatch(new RegExp(`^applied \\d+ migration\\(s\\): 0001_.*${LATEST}`, 'm'));
    const again = await cli(['migrate']);
    expect(again.output).toMatch(/^nothing to apply: the database was up to date$/m);
    const status = await cli(['migrate', '--status']);
    expect(status.output).toMatch(new RegExp(`^applied: \\d+ \\(last ${LATEST}, `, 'm'));
    expect(status.output).toMatch(/^pending: 0$/m);
    expect(status.output).toMatch(/^unknown to this release: 0$/m);

    const db = createDb(database.url, { max: 1 });
    await sql`insert into schema_migrations (version) values ('9999_newer')`.execute(db);
    await db.destroy();
    const newer = await cli(['migrate', '--status']);
    expect(newer.code).toBe(1);
    expect(newer.output).toMatch(/^unknown to this release: 1 \(9999_newer\): a newer release migrated/m);
    const refused = await cli(['migrate']);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/9999_newer.*newer release/);

    // A newer migration marked expand-only (it only adds): this release may keep serving beside it.
    const marked = createDb(database.url, { max: 1 });
    await sql`update schema_migrations set expand_only = true where version = '9999_newer'`.execute(marked);
    await marked.destroy();
    const beside = await cli(['migrate', '--status']);
    expect(beside.code, beside.output).toBe(0);
    expect(beside.output).toMatch(/^unknown to this release: 1 \(9999_newer\)/m);
    expect(beside.output).toMatch(/^all expand-only: this release may keep serving beside the newer one$/m);
    const migrated = await cli(['migrate']);
    expect(migrated.code, migrated.output).toBe(0);
    expect(migrated.output).toMatch(/^nothing to apply/m);
  }, 60_000);
});
