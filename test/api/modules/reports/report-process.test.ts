import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inProcessWriter, processWriter, type ReportWriter } from '../../../../src/jobs/report-file.ts';
import type { ClaimedReport } from '../../../../src/modules/reports/reports.repo.ts';
import { fileStore, type ReportStore } from '../../../../src/modules/reports/store.ts';
import { newId } from '../../../../src/platform/ids.ts';
import { cursorKey } from '../../../../src/platform/pagination.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Issue 19: a report's file is written by a process of its own in the service. Its bytes must be the
 * bytes the same generation gives in the calling process, for every kind of report, and its failures must reach
 * the job as failures.
 */
let ctx: TestContext;
let company: TestCompany;
let reportsDir: string;
let store: ReportStore;
let here: ReportWriter;
let child: ReportWriter;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  for (const name of ['Ana', 'Bruno', 'Carla']) {
    const employee = await hire(company.live, { first_name: name, hire_date: '2026-09-01' });
    for (const day of ['01', '02', '08']) {
      const night = day === '08';
      for (const [type, timestamp] of [
        ['in', `2026-10-${day}T${night ? '22' : '09'}:00:00+02:00`],
        ['out', night ? '2026-10-09T06:00:00+02:00' : `2026-10-${day}T17:00:00+02:00`],
      ] as const) {
        const response = await company.live.post('/v1/check-ins', {
          employee_id: employee.id,
          type,
          timestamp,
        });
        expect(response.statusCode, response.body).toBe(201);
        ctx.clock.advance(0.6);
      }
    }
  }
  ctx.clock.advance(3 * 86_400);
  reportsDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-report-process-'));
  store = fileStore(reportsDir);
  here = inProcessWriter({ streamDb: ctx.db, cursors: ctx.deps.cursors, store });
  child = processWriter({
    databaseUrl: ctx.database.url,
    pool: { max: 1 },
    cursorKey: cursorKey(ctx.deps.instanceSecret),
    reportsStore: { kind: 'file', dir: reportsDir },
  });
}, 60_000);
afterAll(async () => {
  await ctx.close();
  await rm(reportsDir, { recursive: true, force: true });
});

const report = (
  type: ClaimedReport['type'],
  format: ClaimedReport['format'],
  params: Record<string, string>,
) =>
  ({
    id: newId(),
    company_id: company.id,
    account_id: company.id,
    timezone: 'Europe/Madrid',
    type,
    format,
    attempts: 1,
    params,
  }) as ClaimedReport;

/** A report written into the store by `write`: its bytes (read back, then deleted) and its row count. */
const written = async (write: ReportWriter, claimed: ClaimedReport, now: Temporal.Instant) => {
  const key = `${company.id}/${newId()}.${claimed.format}`;
  const rows = await write(claimed, now, key);
  const bytes = await buffer((await store.get(key)) as Readable);
  await store.delete(key);
  return { bytes, rows };
};

it('writes the same CSV bytes and row counts in its own process as in the calling process', async () => {
  const now = ctx.clock.now();
  for (const claimed of [
    report('check_ins_export', 'csv', { from: '2026-10-01', to: '2026-10-31' }),
    report('time_registry_monthly', 'csv', { month: '2026-10' }),
  ]) {
    const separate = await written(child, claimed, now);
    const local = await written(here, claimed, now);
    expect(separate.rows).toBeGreaterThan(0);
    expect(separate.rows).toBe(local.rows);
    expect(separate.bytes.equals(local.bytes)).toBe(true);
  }
  // 18 check-ins: 3 workers × 3 days × in and out.
  expect(
    (await written(child, report('check_ins_export', 'csv', { from: '2026-10-01', to: '2026-10-31' }), now))
      .rows,
  ).toBe(18);
});

it('writes the same XLSX cells and the workers’ documents in its own process', async () => {
  const now = ctx.clock.now();
  const cells = async (bytes: Buffer) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.read(Readable.from(bytes));
    return workbook.worksheets.map((sheet) =>
      sheet
        .getSheetValues()
        .map((row) => (Array.isArray(row) ? row.map((value) => JSON.stringify(value)) : row)),
    );
  };
  for (const claimed of [
    report('check_ins_export', 'xlsx', { from: '2026-10-01', to: '2026-10-31' }),
    report('time_registry_worker_monthly', 'xlsx', { month: '2026-10', locale: 'es' }),
  ]) {
    const separate = await written(child, claimed, now);
    const local = await written(here, claimed, now);
    expect(separate.rows).toBe(local.rows);
    expect(await cells(separate.bytes)).toEqual(await cells(local.bytes));
  }
  const pdf = await written(child, report('time_registry_worker_monthly', 'pdf', { month: '2026-10' }), now);
  expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.rows).toBe(
    (await written(here, report('time_registry_worker_monthly', 'pdf', { month: '2026-10' }), now)).rows,
  );
});

it('fails, leaving nothing in the store, when the process cannot read the database', async () => {
  const broken = processWriter({
    databaseUrl: `${ctx.database.url.replace(/\/[^/]*$/, '')}/no_such_database`,
    pool: { max: 1, connectTimeoutMs: 2_000 },
    cursorKey: cursorKey(ctx.deps.instanceSecret),
    reportsStore: { kind: 'file', dir: reportsDir },
  });
  const claimed = report('check_ins_export', 'csv', { from: '2026-10-01', to: '2026-10-31' });
  const key = `${company.id}/${claimed.id}.csv`;
  await expect(broken(claimed, ctx.clock.now(), key)).rejects.toThrow(/no_such_database/);
  expect(await store.get(key)).toBeNull();
});

it('stops writing when the generation is aborted, in either process, leaving no file under the key', async () => {
  const claimed = report('time_registry_worker_monthly', 'pdf', { month: '2026-10' });
  for (const write of [here, child]) {
    const key = `${company.id}/${newId()}.pdf`;
    const limit = new AbortController();
    const writing = write(claimed, ctx.clock.now(), key, limit.signal);
    limit.abort(new Error('past the time limit'));
    await expect(writing).rejects.toThrow('past the time limit');
    expect(await store.get(key)).toBeNull();
    // Already aborted: nothing starts.
    await expect(write(claimed, ctx.clock.now(), key, limit.signal)).rejects.toThrow('past the time limit');
  }
});
