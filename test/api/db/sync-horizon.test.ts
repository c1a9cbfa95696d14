import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Tx } from '../../../src/db/database.ts';
import { allowAnySyncStamp, readSyncHorizon, syncStamp } from '../../../src/db/sync-stamp.ts';
import { useCompanyContext } from '../../helpers/context.ts';
import { hire } from '../../helpers/resources.ts';

/**
 * Sync without gaps (docs/architecture.md): a record's updated_at is taken before its transaction commits, so a
 * slow writer's record can commit behind one stamped later. A client that syncs from the largest updated_at it
 * has seen must still get it: sync listings end at the horizon, before the earliest stamp a running transaction
 * may write.
 */
const env = useCompanyContext();

type Listed = { id: string; employee_id: string; updated_at: string };

async function sync(updatedSince: string): Promise<{ data: Listed[]; has_more: boolean }> {
  const response = await env.company.live.get('/v1/check-ins', {
    query: { updated_since: updatedSince, limit: 100 },
  });
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { data: Listed[]; meta: { has_more: boolean } };
  return { data: body.data, has_more: body.meta.has_more };
}

/** Waits until a statement of this database waits for a row lock. */
async function blockedOnLock(): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(env.ctx.db);
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no statement waited for the lock');
}

/**
 * Runs `start` in a transaction of another session and holds it open until released (or the test ends, so that a
 * failing test does not leave the file's other tests and its teardown waiting on it).
 */
async function holdTransaction(start: (tx: Tx) => Promise<unknown>): Promise<{ release(): Promise<void> }> {
  const held = Promise.withResolvers<void>();
  const started = Promise.withResolvers<void>();
  const holder = env.ctx.db.transaction().execute(async (tx) => {
    await start(tx);
    started.resolve();
    await held.promise;
  });
  await started.promise;
  const done = async () => {
    held.resolve();
    await holder;
  };
  onTestFinished(done);
  return { release: done };
}

/** Holds an employee's row lock in another session until released. */
const holdEmployee = (companyId: string, employeeId: string) =>
  holdTransaction((tx) =>
    sql`select 1 from employees where company_id = ${companyId} and id = ${employeeId} for update`.execute(
      tx,
    ),
  );

describe('a sync listing ends at the horizon', () => {
  it('keeps a later record back while an earlier stamp is uncommitted, so a client that syncs on misses neither', async () => {
    const slow = await hire(env.company.live);
    const fast = await hire(env.company.live);
    const start = new Date(env.ctx.clock.now().epochMilliseconds - 1000).toISOString();
    const timestamp = env.ctx.clock.now().subtract({ minutes: 30 }).toString();

    // Another session holds the slow employee's row: the check-in request publishes its stamp, then waits
    // for that lock (recordCheckIn locks the employee after its stamp is taken).
    const hold = await holdEmployee(env.company.id, slow.id);
    const slowRequest = env.company.live.post('/v1/check-ins', {
      employee_id: slow.id,
      type: 'in',
      timestamp,
    });
    await blockedOnLock();

    // Five seconds later another check-in is stamped and committed.
    env.ctx.clock.advance(5);
    const fastResponse = await env.company.live.post('/v1/check-ins', {
      employee_id: fast.id,
      type: 'in',
      timestamp,
    });
    expect(fastResponse.statusCode, fastResponse.body).toBe(201);
    const fastCheckIn = fastResponse.json() as Listed;
    // It is visible by id at once: only the sync order holds it back.
    expect((await env.company.live.get(`/v1/check-ins/${fastCheckIn.id}`)).statusCode).toBe(200);

    // A client syncing now gets neither: the slow one is not committed, the fast one lies past the horizon.
    const during = await sync(start);
    expect(during.data.map((row) => row.id)).not.toContain(fastCheckIn.id);
    expect(during.has_more).toBe(false);
    const seen =
      during.data
        .map((row) => row.updated_at)
        .sort()
        .at(-1) ?? start;

    await hold.release();
    const slowResponse = await slowRequest;
    expect(slowResponse.statusCode, slowResponse.body).toBe(201);
    const slowCheckIn = slowResponse.json() as Listed;
    // The slow check-in was stamped first: a client that had seen the fast one would have skipped it.
    expect(slowCheckIn.updated_at < fastCheckIn.updated_at).toBe(true);

    // The client syncs on from the largest updated_at it has seen and gets both, in stamp order.
    const after = await sync(seen);
    const ids = after.data.map((row) => row.id);
    expect(ids).toContain(slowCheckIn.id);
    expect(ids).toContain(fastCheckIn.id);
    expect(ids.indexOf(slowCheckIn.id)).toBeLessThan(ids.indexOf(fastCheckIn.id));
  });

  it('shows a record to the next listing once its writer has committed (read your writes)', async () => {
    const employee = await hire(env.company.live);
    const before = new Date(env.ctx.clock.now().epochMilliseconds - 1000).toISOString();
    const response = await env.company.live.get('/v1/employees', {
      query: { updated_since: before, limit: 100 },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((response.json().data as { id: string }[]).map((row) => row.id)).toContain(employee.id);
  });
  it('reads the horizon only when a page reaches past the one it knows', async () => {
    await hire(env.company.live);
    const statements: string[] = [];
    const query = pg.Client.prototype.query;
    const counting = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      statements.push(typeof first === 'string' ? first : (first.text ?? ''));
      return (query as (...values: unknown[]) => unknown).apply(this, args);
    };
    pg.Client.prototype.query = counting as typeof query;
    const listing = async () => {
      statements.length = 0;
      const response = await env.company.live.get('/v1/employees', { query: { limit: 25 } });
      expect(response.statusCode, response.body).toBe(200);
      return statements.filter((text) => text.includes('pg_locks')).length;
    };
    try {
      // The write above lies past the horizon known before it: read once, then known.
      expect(await listing()).toBe(1);
      expect(await listing()).toBe(0);
      expect(await listing()).toBe(0);
    } finally {
      pg.Client.prototype.query = query;
    }
  });
});

describe('the horizon is per company (issue 37)', () => {
  it("lists another company's records written after one company's long write, and withholds that company's own", async () => {
    const other = await env.ctx.createCompany();
    const since = new Date(env.ctx.clock.now().epochMilliseconds - 1000).toISOString();
    // A long write of this company (a demo month's seeding, a large import) is open, stamped now.
    const hold = await holdTransaction((tx) => syncStamp(tx, env.ctx.clock, env.company.id));
    env.ctx.clock.advance(5);
    const theirs = await hire(other.live);
    const ours = await hire(env.company.live);

    const listed = async (company: typeof env.company, updatedSince: string) => {
      const response = await company.live.get('/v1/employees', { query: { updated_since: updatedSince } });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().data as { id: string }[]).map((row) => row.id);
    };
    // The other company syncs its new employee at once; this company's waits for its own long write.
    expect(await listed(other, since)).toContain(theirs.id);
    expect(await listed(env.company, since)).not.toContain(ours.id);
    await hold.release();
    expect(await listed(env.company, since)).toContain(ours.id);
  });

  it("still honours the bound an older release's node publishes for every company (a rolling upgrade)", async () => {
    const other = await env.ctx.createCompany();
    const since = new Date(env.ctx.clock.now().epochMilliseconds - 1000).toISOString();
    // Releases before 0.37 publish the bound itself as the key, for no company in particular.
    const bound = env.ctx.clock.now().epochMilliseconds;
    const hold = await holdTransaction((tx) =>
      sql`select pg_advisory_xact_lock_shared(${bound}::bigint)`.execute(tx),
    );
    env.ctx.clock.advance(5);
    const theirs = await hire(other.live);
    const response = await other.live.get('/v1/employees', { query: { updated_since: since } });
    expect((response.json().data as { id: string }[]).map((row) => row.id)).not.toContain(theirs.id);
    await hold.release();
    const after = await other.live.get('/v1/employees', { query: { updated_since: since } });
    expect((after.json().data as { id: string }[]).map((row) => row.id)).toContain(theirs.id);
  });

  it('refuses to stamp, within one transaction, a company whose bound it did not publish', async () => {
    const other = await env.ctx.createCompany();
    await expect(
      env.ctx.db.transaction().execute(async (tx) => {
        await syncStamp(tx, env.ctx.clock, env.company.id);
        await syncStamp(tx, env.ctx.clock, other.id);
      }),
    ).rejects.toThrow(/not published for company/);
    // Both named at the start: both published, one stamp.
    await env.ctx.db.transaction().execute(async (tx) => {
      const first = await syncStamp(tx, env.ctx.clock, [env.company.id, other.id]);
      expect((await syncStamp(tx, env.ctx.clock, other.id)).equals(first)).toBe(true);
      // The horizon of either company, and of all, is the bound published (at most the stamp).
      for (const horizon of [
        await readSyncHorizon(env.ctx.db, env.ctx.clock, other.id),
        await readSyncHorizon(env.ctx.db, env.ctx.clock, env.company.id),
        await readSyncHorizon(env.ctx.db, env.ctx.clock),
      ]) {
        expect(horizon).toBeLessThanOrEqual(first.epochMilliseconds);
        expect(horizon).toBeGreaterThan(first.epochMilliseconds - 1000);
      }
    });
  });
});

describe('the sandbox event feed ends at the horizon', () => {
  it('keeps a later event back while an earlier one is uncommitted, then gives both in order', async () => {
    const feed = async (after: string) => {
      const response = await env.company.test.get('/v1/sandbox/events', { query: { after, wait: 0 } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as {
        data: { id: string; type: string; data: Record<string, string> }[];
        next_after: string;
      };
    };
    const slow = await hire(env.company.test);
    const start = await feed('latest');
    const hold = await holdEmployee(env.company.sandboxId, slow.id);
    const slowRequest = env.company.test.post('/v1/check-ins', {
      employee_id: slow.id,
      type: 'in',
      timestamp: env.ctx.clock.now().subtract({ minutes: 30 }).toString(),
    });
    await blockedOnLock();
    env.ctx.clock.advance(5);
    const ping = await env.company.test.post('/v1/sandbox/events', { type: 'ping' });
    expect(ping.statusCode, ping.body).toBe(202);

    // The ping is committed, but the check-in's event, stamped before it, is not: the feed gives neither yet.
    const during = await feed(start.next_after);
    expect(during).toEqual({ data: [], next_after: start.next_after });

    await hold.release();
    const checkIn = (await slowRequest).json() as { id: string };
    const after = await feed(during.next_after);
    expect(after.data.map((event) => event.type)).toEqual(['checkin.created', 'ping']);
    expect(after.data[0]?.data.check_in_id).toBe(checkIn.id);
  });
});

describe('the guard on synced tables', () => {
  it('is on every table whose listing is synced', async () => {
    const { rows } = await sql<{ table: string }>`
      select c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname = 'sync_stamp_guard' order by 1`.execute(env.ctx.db);
    expect(rows.map((row) => row.table)).toEqual([
      'absence_types',
      'absences',
      'api_keys',
      'check_in_corrections',
      'check_ins',
      'employees',
      'events',
      'locations',
      'units',
      'webhook_endpoints',
    ]);
  });

  it('refuses an updated_at written without a sync stamp, or below the stamp published', async () => {
    const location = (
      await env.ctx.admin.post(`/admin/v1/companies/${env.company.id}/locations`, { name: 'Norte' })
    ).json();
    await expect(
      sql`update locations set updated_at = now() where company_id = ${env.company.id} and id = ${location.id}`.execute(
        env.ctx.db,
      ),
    ).rejects.toThrow(/without a sync stamp/);
    await expect(
      env.ctx.db.transaction().execute(async (tx) => {
        await syncStamp(tx, env.ctx.clock, env.company.id);
        const { rows } = await sql<{
          bound: string;
        }>`select current_setting('jornada.sync_floor') as bound`.execute(tx);
        const earlier = new Date(Number(rows[0]?.bound) - 1);
        await sql`update locations set updated_at = ${earlier} where company_id = ${env.company.id} and id = ${location.id}`.execute(
          tx,
        );
      }),
    ).rejects.toThrow(/without a sync stamp/);
    // A column other than updated_at changes freely; a stamped transaction writes its stamp; a bulk load may
    // write any instant.
    await sql`update locations set address = 'Calle 1' where company_id = ${env.company.id} and id = ${location.id}`.execute(
      env.ctx.db,
    );
    await env.ctx.db.transaction().execute(async (tx) => {
      const stamp = await syncStamp(tx, env.ctx.clock, env.company.id);
      await sql`update locations set updated_at = ${new Date(stamp.epochMilliseconds)} where company_id = ${env.company.id} and id = ${location.id}`.execute(
        tx,
      );
    });
    await env.ctx.db.transaction().execute(async (tx) => {
      await allowAnySyncStamp(tx);
      await sql`update locations set updated_at = '2020-01-01Z' where company_id = ${env.company.id} and id = ${location.id}`.execute(
        tx,
      );
    });
  });
});
