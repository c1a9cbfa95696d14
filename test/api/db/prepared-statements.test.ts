import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db, executePrepared, preparesStatements } from '../../../src/db/database.ts';
import { createEmptyDatabase } from '../../helpers/database.ts';

/**
 * executePrepared (issue 19): the background jobs' hot statements are prepared once per pooled connection and,
 * after PostgreSQL's first executions, run on a cached plan instead of being planned at every call.
 */
describe('prepared statements', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Db;
  beforeAll(async () => {
    database = await createEmptyDatabase();
    // One connection, so that the statements below all reach the session that prepared them.
    db = createDb(database.url, { max: 1 });
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const square = (n: number) =>
    sql<{ n: number; square: number }>`select ${n}::int as n, ${n}::int * ${n}::int as square`;

  it('answers each call with its own parameters, from one statement prepared once in the session', async () => {
    for (let n = 1; n <= 8; n++) expect(await executePrepared(db, square(n))).toEqual([{ n, square: n * n }]);
    const prepared = await sql<{ name: string; generic_plans: string; custom_plans: string }>`
      select name, generic_plans, custom_plans from pg_prepared_statements`.execute(db);
    expect(prepared.rows).toHaveLength(1);
    const [statement] = prepared.rows;
    expect(statement?.name).toMatch(/^jornada_[0-9a-f]{24}$/);
    // PostgreSQL plans the first five executions for their parameters, then reuses one generic plan.
    expect(Number(statement?.custom_plans) + Number(statement?.generic_plans)).toBe(8);
    expect(Number(statement?.generic_plans)).toBeGreaterThan(0);
  });

  it('fails a call with the database error, and the session goes on serving the statement', async () => {
    const divide = (by: number) => sql<{ quotient: number }>`select 12 / ${by}::int as quotient`;
    await expect(executePrepared(db, divide(0))).rejects.toMatchObject({ code: '22012' });
    expect(await executePrepared(db, divide(4))).toEqual([{ quotient: 3 }]);
  });

  it('prepares a statement Kysely sends by name from its second use, but never one that selects every column', async () => {
    // A catalog table, read as the service reads its own (this database has no schema of ours).
    type Catalog = { pg_namespace: { oid: number; nspname: string } };
    const byName = (name: string) =>
      (db as unknown as Kysely<Catalog>)
        .selectFrom('pg_namespace')
        .select(['nspname'])
        .where('nspname', '=', name);
    const everything = (name: string) =>
      (db as unknown as Kysely<Catalog>).selectFrom('pg_namespace').selectAll().where('nspname', '=', name);
    const names = async () =>
      (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map(
        (row) => row.statement,
      );
    const before = await names();
    expect(await byName('public').execute()).toEqual([{ nspname: 'public' }]);
    // Sent once: not yet worth a name.
    expect((await names()).filter((text) => text.includes('pg_namespace'))).toEqual([]);
    for (const name of ['pg_catalog', 'public', 'pg_catalog']) {
      expect((await byName(name).executeTakeFirst())?.nspname).toBe(name);
    }
    for (const name of ['public', 'pg_catalog', 'public']) {
      expect((await everything(name).executeTakeFirst())?.nspname).toBe(name);
    }
    const added = (await names()).filter((text) => !before.includes(text));
    // One statement prepared, the listed columns' read; `select *` stays unnamed (a migration adding a column
    // would make PostgreSQL refuse its cached plan on a node still running).
    expect(added).toHaveLength(1);
    expect(added[0]).toContain('select "nspname" from "pg_namespace"');
  });

  it('prepares nothing on a pool made with preparedStatements: false (JORNADA_DB_PREPARED_STATEMENTS=0)', async () => {
    const plain = createDb(database.url, { max: 1, preparedStatements: false });
    try {
      type Catalog = { pg_namespace: { oid: number; nspname: string } };
      for (let round = 0; round < 4; round++) {
        await (plain as unknown as Kysely<Catalog>)
          .selectFrom('pg_namespace')
          .select('nspname')
          .where('nspname', '=', 'public')
          .execute();
        expect(await executePrepared(plain, square(round + 2))).toEqual([
          { n: round + 2, square: (round + 2) ** 2 },
        ]);
      }
      const prepared = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(plain);
      expect(prepared.rows).toEqual([]);
    } finally {
      await plain.destroy();
    }
  });

  // Last: it turns naming off for the rest of this file's process.
  it('sends the statement unnamed from then on when the server no longer has it (a pooler that does not track them)', async () => {
    const square = (n: number) => sql<{ square: number }>`select ${n}::int * ${n}::int as square`;
    expect(await executePrepared(db, square(3))).toEqual([{ square: 9 }]);
    expect(preparesStatements()).toBe(true);
    // What a pooler in transaction mode does: the next call reaches a server session without the statement.
    await sql`deallocate all`.execute(db);
    expect(await executePrepared(db, square(4))).toEqual([{ square: 16 }]);
    expect(preparesStatements()).toBe(false);
    expect(await executePrepared(db, square(5))).toEqual([{ square: 25 }]);
    const prepared = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(db);
    expect(prepared.rows).toEqual([]);
  });
});
