import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createDb, type Db, isDatabaseUnavailable, withoutStatementTimeout } from '../../src/db/database.ts';
import { type EmbeddedDatabase, startEmbeddedDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrator.ts';
import { FakeClock } from '../../src/time/clock.ts';
import { ADMIN_TOKEN, testDeps } from '../helpers/context.ts';

/**
 * A database that stops answering gives prompt errors: 503 problem+json with Retry-After within the statement
 * timeout plus a second, /readyz 503 within its own deadline, and nothing hangs. The cluster is this file's own
 * (it is frozen with SIGSTOP), not the shared test cluster.
 */
const STATEMENT_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 1_000;
const LOCK_TIMEOUT_MS = 500;

let dataDir: string;
let embedded: EmbeddedDatabase;
let db: Db;
let app: FastifyInstance;
let liveKey = '';
let companyId = '';
let reportsDir: string;
let deps: Awaited<ReturnType<typeof testDeps>>;

/** The postmaster and every process it started (its backends), from /proc. */
function postgresProcesses(): number[] {
  const postmaster = Number(
    readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

const signalPostgres = (signal: NodeJS.Signals) => {
  for (const pid of postgresProcesses()) process.kill(pid, signal);
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-faults-'));
  reportsDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-faults-reports-'));
  await chmod(dataDir, 0o755);
  embedded = await startEmbeddedDatabase({ dataDir, ephemeral: true });
  const migrator = createDb(embedded.connectionString, { max: 1 });
  await migrate(migrator);
  await migrator.destroy();
  db = createDb(embedded.connectionString, {
    max: 5,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    statementTimeoutMs: STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: LOCK_TIMEOUT_MS,
    idleInTransactionTimeoutMs: 500,
  });
  deps = await testDeps(db, new FakeClock(), reportsDir);
  app = await buildApp(deps);
  await app.ready();
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const company = await app.inject({
    method: 'POST',
    url: '/admin/v1/companies',
    headers: admin,
    payload: { name: 'Faults' },
  });
  companyId = company.json().id;
  const key = await app.inject({
    method: 'POST',
    url: `/admin/v1/companies/${companyId}/api-keys`,
    headers: admin,
    payload: { mode: 'live', scopes: ['org:empleados:read', 'org:empleados:write', 'org:fichajes:write'] },
  });
  liveKey = key.json().secret;
}, 120_000);

afterAll(async () => {
  try {
    signalPostgres('SIGCONT');
  } catch {}
  await app?.close();
  await db?.destroy();
  await embedded?.stop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(reportsDir, { recursive: true, force: true });
});

const get = (url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${liveKey}` } });

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; milliseconds: number }> {
  const began = performance.now();
  const value = await work();
  return { value, milliseconds: performance.now() - began };
}

describe('a database that stops answering (SIGSTOP)', () => {
  it('answers 503 problem+json with Retry-After within the statement timeout plus 1 s, then recovers', async () => {
    expect((await get('/v1/organization')).statusCode).toBe(200);
    signalPostgres('SIGSTOP');
    try {
      const { value: response, milliseconds } = await timed(() => get('/v1/organization'));
      expect(milliseconds).toBeLessThan(STATEMENT_TIMEOUT_MS + 1_000);
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toMatchObject({ status: 503, code: 'internal_error' });
      expect(response.json().detail).not.toMatch(/timeout|query|pool/i);

      const ready = await timed(() => app.inject({ method: 'GET', url: '/readyz' }));
      expect(ready.value.statusCode).toBe(503);
      expect(ready.milliseconds).toBeLessThan(2_000 + 500);
    } finally {
      signalPostgres('SIGCONT');
    }
    await expect.poll(async () => (await get('/v1/organization')).statusCode, { timeout: 10_000 }).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  }, 30_000);
});

describe('a database that stops answering writes (SIGSTOP, issue 37)', () => {
  it('answers every write 503 within the statement timeout plus 1 s, and recovers', async () => {
    const post = (url: string, payload: unknown) =>
      app.inject({
        method: 'POST',
        url,
        headers: {
          authorization: `Bearer ${liveKey}`,
          'content-type': 'application/json',
          'idempotency-key': crypto.randomUUID(),
        },
        payload: JSON.stringify(payload),
      });
    const hired = await post('/v1/employees', {
      first_name: 'Frozen',
      last_name: 'Writes',
      email: 'frozen.writes@example.com',
      hire_date: '2026-01-01',
    });
    expect(hired.statusCode, hired.body).toBe(201);
    const employeeId = hired.json().id as string;
    signalPostgres('SIGSTOP');
    try {
      const writes = [
        () =>
          post('/v1/check-ins', { employee_id: employeeId, type: 'in', timestamp: '2026-02-03T09:00:00Z' }),
        () =>
          post('/v1/employees', {
            first_name: 'Another',
            last_name: 'Write',
            email: 'another.write@example.com',
            hire_date: '2026-01-01',
          }),
        () => get('/v1/employees'),
        // More requests than the pool has connections (5): the ones waiting for a connection are bounded too.
        ...Array.from(
          { length: 9 },
          (_, index) => () =>
            post('/v1/check-ins', {
              employee_id: employeeId,
              type: 'in',
              timestamp: `2026-02-${String(index + 4).padStart(2, '0')}T09:00:00Z`,
            }),
        ),
      ];
      const answers = await Promise.all(writes.map((write) => timed(write)));
      for (const { value: response, milliseconds } of answers) {
        expect(response.statusCode, response.body).toBe(503);
        expect(response.headers['retry-after']).toBe('5');
        expect(milliseconds).toBeLessThan(STATEMENT_TIMEOUT_MS + 1_000);
      }
    } finally {
      signalPostgres('SIGCONT');
    }
    await expect.poll(async () => (await get('/v1/organization')).statusCode, { timeout: 10_000 }).toBe(200);
  }, 30_000);
});

describe('the log of an outage (issue 37)', () => {
  it('is one short line per failing request, with the stack at most once', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logged = await buildApp(deps, { logger: { level: 'warn', stream } });
    await logged.ready();
    signalPostgres('SIGSTOP');
    try {
      for (let request = 0; request < 4; request++) {
        const answer = await logged.inject({
          method: 'GET',
          url: '/v1/organization',
          headers: { authorization: `Bearer ${liveKey}` },
        });
        expect(answer.statusCode).toBe(503);
      }
    } finally {
      signalPostgres('SIGCONT');
      await logged.close();
    }
    const outage = lines.filter((line) => line.msg === 'database unavailable');
    expect(outage).toHaveLength(4);
    for (const line of outage) {
      expect(line).toMatchObject({ code: 'database_unavailable', errorClass: expect.any(String) });
      expect(line.reqId ?? line.requestId).toBeDefined();
    }
    expect(outage.filter((line) => line.err !== undefined).length).toBeLessThanOrEqual(1);
    expect(
      outage.filter((line) => line.err === undefined).every((line) => JSON.stringify(line).length < 500),
    ).toBe(true);
    expect(lines.filter((line) => line.msg === 'internal error')).toEqual([]);
    await expect.poll(async () => (await get('/v1/organization')).statusCode, { timeout: 10_000 }).toBe(200);
  }, 30_000);
});

describe('a read-only database (a failover to a replica, issue 37)', () => {
  it('answers 503 with Retry-After and /readyz 503 "read_only" until it is writable again', async () => {
    const admin = createDb(embedded.connectionString, { max: 1 });
    const database = (await sql<{ name: string }>`select current_database() as name`.execute(admin)).rows[0]
      ?.name;
    const reconnect = () =>
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`.execute(
        admin,
      );
    try {
      await sql.raw(`alter database "${database}" set default_transaction_read_only = on`).execute(admin);
      await reconnect();
      const write = await app.inject({
        method: 'POST',
        url: '/v1/employees',
        headers: { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json' },
        payload: {
          first_name: 'Read',
          last_name: 'Only',
          email: 'read.only@example.com',
          hire_date: '2026-01-01',
        },
      });
      expect(write.statusCode, write.body).toBe(503);
      expect(write.headers['retry-after']).toBe('5');
      expect(write.json()).toMatchObject({ status: 503, code: 'internal_error' });
      // The pool's connections were cut by the failover: the first probe may meet one of them (unavailable);
      // within a few seconds readiness names the read-only database.
      await expect
        .poll(async () => (await app.inject({ method: 'GET', url: '/readyz' })).json(), { timeout: 5_000 })
        .toEqual({ status: 'read_only' });
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    } finally {
      await sql.raw(`alter database "${database}" reset default_transaction_read_only`).execute(admin);
      await reconnect();
      await admin.destroy();
    }
    await expect.poll(async () => (await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect((await get('/v1/organization')).statusCode).toBe(200);
  }, 30_000);
});

describe('timeouts', () => {
  it('answers 503 when a lock is held longer than the lock timeout', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/v1/employees',
      headers: { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json' },
      payload: { first_name: 'Lock', last_name: 'Held', email: 'lock@example.com', hire_date: '2026-01-01' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const employeeId = created.json().id as string;
    const holder = createDb(embedded.connectionString, { max: 1 });
    let release = () => {};
    const held = holder.transaction().execute(async (tx) => {
      await tx.selectFrom('employees').select('id').where('id', '=', employeeId).forUpdate().execute();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { value: response, milliseconds } = await timed(() =>
        app.inject({
          method: 'POST',
          url: '/v1/check-ins',
          headers: { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json' },
          payload: { employee_id: employeeId, type: 'in', timestamp: '2026-02-02T09:00:00Z' },
        }),
      );
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(milliseconds).toBeLessThan(LOCK_TIMEOUT_MS + 1_000);
    } finally {
      release();
      await held;
      await holder.destroy();
    }
  });

  it('lets a streamed read outlast the client-side read timeout when the statement timeout is lifted', async () => {
    const query = (tx: typeof db) =>
      tx.selectFrom(sql<{ n: number }>`generate_series(1, 30)`.as('g')).select(sql<number>`g`.as('n'));
    const read = async (tx: typeof db) => {
      const rows: number[] = [];
      for await (const row of query(tx).stream(10)) {
        rows.push(row.n);
        if (rows.length % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 700));
      }
      return rows;
    };
    // Three pauses of 0.7 s: over 2 s, past this pool's 1 s statement and 1.5 s client-side read timeouts.
    expect(await withoutStatementTimeout(db, (tx) => read(tx as unknown as typeof db))).toHaveLength(30);
    // Without lifting it, the server cancels the cursor: it is one statement.
    await expect(read(db)).rejects.toMatchObject({ code: '57014' });
  }, 15_000);

  it('ends a transaction left idle longer than the idle-in-transaction timeout', async () => {
    const failure = await db
      .transaction()
      .execute(async (tx) => {
        await tx.selectNoFrom((eb) => eb.val(1).as('one')).execute();
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        await tx.selectNoFrom((eb) => eb.val(1).as('one')).execute();
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).not.toBeNull();
    expect(isDatabaseUnavailable(failure)).toBe(true);
  });
});

describe('a port that accepts connections and never replies', () => {
  let blackHole: net.Server;
  let port = 0;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    blackHole = net.createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    port = (blackHole.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => blackHole.close(resolve));
  });

  it('fails migrations and requests within the connect timeout plus 1 s', async () => {
    const silent = createDb(`postgresql://postgres:x@127.0.0.1:${port}/postgres`, {
      max: 2,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
    });
    try {
      const { value: failure, milliseconds } = await timed(() =>
        migrate(silent).then(
          () => null,
          (e) => e,
        ),
      );
      expect(milliseconds).toBeLessThan(CONNECT_TIMEOUT_MS + 1_000);
      expect(isDatabaseUnavailable(failure)).toBe(true);
      const silentApp = await buildApp({ ...deps, db: silent });
      // Booted before the clock starts: what is timed is the request against the silent database, not the
      // app's first-request setup (compiling every route's schemas).
      await silentApp.ready();
      try {
        const request = await timed(() =>
          silentApp.inject({
            method: 'GET',
            url: '/v1/organization',
            headers: { authorization: `Bearer ${liveKey}` },
          }),
        );
        expect(request.milliseconds).toBeLessThan(CONNECT_TIMEOUT_MS + 1_000);
        expect(request.value.statusCode).toBe(503);
        expect(request.value.headers['retry-after']).toBe('5');
        const ready = await timed(() => silentApp.inject({ method: 'GET', url: '/readyz' }));
        expect(ready.value.statusCode).toBe(503);
        expect(ready.milliseconds).toBeLessThan(2_500);
      } finally {
        await silentApp.close();
      }
    } finally {
      await silent.destroy();
    }
  }, 20_000);
});
