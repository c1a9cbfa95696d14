import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { processWriter } from '../../../../src/jobs/report-file.ts';
import { reportGenerationJob } from '../../../../src/jobs/report-generation.ts';
import { fileStore } from '../../../../src/modules/reports/store.ts';
import { cursorKey } from '../../../../src/platform/pagination.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * A report generation has a time limit (JORNADA_REPORT_TIMEOUT_MS, docs/operations.md): one stuck behind a lock
 * holds its worker's report slot no longer than that. Its process is killed, its database statement ends, the
 * attempt counts as failed and is retried; the third fails the report with a message naming the limit.
 */
let ctx: TestContext;
let company: TestCompany;
let reportsDir: string;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  const employee = await hire(company.live, { hire_date: '2026-09-01' });
  for (const [type, timestamp] of [
    ['in', '2026-10-01T09:00:00+02:00'],
    ['out', '2026-10-01T17:00:00+02:00'],
  ] as const) {
    const response = await company.live.post('/v1/check-ins', { employee_id: employee.id, type, timestamp });
    expect(response.statusCode, response.body).toBe(201);
  }
  reportsDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-report-timeout-'));
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await rm(reportsDir, { recursive: true, force: true });
});

/**
 * The service's report job, writing in a process of its own as the service does, with a 2 s limit (or another:
 * the generation after the lock is gone only needs to finish, and a loaded machine may start its process slowly).
 */
const job = (timeoutMs = 2_000) =>
  reportGenerationJob({
    db: ctx.db,
    clock: ctx.clock,
    cursors: ctx.deps.cursors,
    store: fileStore(reportsDir),
    write: processWriter({
      databaseUrl: ctx.database.url,
      pool: { max: 1, clientConnectionCheckMs: 200 },
      cursorKey: cursorKey(ctx.deps.instanceSecret),
      reportsStore: { kind: 'file', dir: reportsDir },
    }),
    timeoutMs,
  });

/** The sessions of this database waiting for a lock (a report's read behind the holder's lock). */
async function waitingForALock(): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    select count(*)::int as count from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(ctx.db);
  return rows[0]?.count ?? 0;
}

/** October's check-ins as CSV, requested through the API; its id. */
async function requestExport(): Promise<string> {
  const created = await company.live.post('/v1/reports', {
    type: 'check_ins_export',
    format: 'csv',
    params: { from: '2026-10-01', to: '2026-10-31' },
  });
  expect(created.statusCode, created.body).toBe(202);
  return created.json().id;
}

it('stops a generation stuck behind a lock at its limit, retries it, and fails it after the third attempt', async () => {
  const id = await requestExport();

  // Another session holds check_ins, which the export reads: the report's read waits for it.
  const holder = new pg.Client({ connectionString: ctx.database.url });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('lock table check_ins in access exclusive mode');
    const worker = job();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const started = performance.now();
      expect(await worker.tick()).toBe(1);
      const took = performance.now() - started;
      // Stopped at the limit, not at the lock's end (never, here) nor at once.
      expect(took).toBeGreaterThanOrEqual(1_900);
      expect(took).toBeLessThan(10_000);
      const report = (await company.live.get(`/v1/reports/${id}`)).json();
      if (attempt < 3) {
        expect(report).toMatchObject({ status: 'processing' });
        // Due again after 30 s, then 60 s.
        ctx.clock.advance(30 * attempt + 1);
      } else {
        expect(report).toMatchObject({
          status: 'failed',
          error: {
            code: 'generation_failed',
            message: 'The file could not be generated within 2 seconds.',
          },
        });
      }
    }
    // The killed processes' sessions ended their statements while the lock was still held.
    await expect.poll(waitingForALock, { timeout: 5_000, interval: 100 }).toBe(0);
    // No file, finished or partial, is left for the report under its keys but the sweep's partial ones.
    const left = (await readdir(reportsDir, { recursive: true })).map(String);
    expect(left.filter((entry) => entry.includes(id) && !entry.endsWith('.partial'))).toEqual([]);
  } finally {
    await holder.query('rollback').catch(() => {});
    await holder.end();
  }

  // With the lock gone, the next report is generated as usual.
  const next = await requestExport();
  const worker = job(30_000);
  while ((await worker.tick()) > 0) {}
  expect((await company.live.get(`/v1/reports/${next}`)).json()).toMatchObject({
    status: 'completed',
    row_count: 2,
  });
}, 60_000);
