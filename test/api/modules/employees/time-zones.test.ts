import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyRegistry } from '../../../../src/modules/verification/verification.service.ts';
import {
  createTestContext,
  reportWorker,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Issue 34: a time zone is effective-dated like a contract. An employee who moves to the Canaries keeps their
 * earlier days in Madrid's zone; a change never applies in or before a closed month, nor after today.
 */
let ctx: TestContext;
let company: TestCompany;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());

const day = async (employeeId: string, date: string) =>
  (
    await company.live.get('/v1/work-summaries', {
      query: { period: 'day', employee_id: employeeId, from: date, to: date },
    })
  ).json().data[0] as { worked_minutes: number };

async function record(employeeId: string, pairs: ReadonlyArray<readonly [string, string]>) {
  for (const [type, timestamp] of pairs) {
    const response = await company.live.post('/v1/check-ins', { employee_id: employeeId, type, timestamp });
    expect(response.statusCode, response.body).toBe(201);
  }
}

describe('an employee’s own time zone', () => {
  it('applies from the date it is given on, keeping the earlier days in the zone they had', async () => {
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    // 23:30–01:30 UTC on 5 and on 12 November: in Madrid (UTC+1) both start the next day at 00:30; in the
    // Canaries (UTC+0) at 23:30 the same day.
    await record(worker.id, [
      ['in', '2026-11-05T23:30:00Z'],
      ['out', '2026-11-06T01:30:00Z'],
      ['in', '2026-11-12T23:30:00Z'],
      ['out', '2026-11-13T01:30:00Z'],
    ]);
    expect((await day(worker.id, '2026-11-13')).worked_minutes).toBe(120);
    const moved = await company.live.patch(`/v1/employees/${worker.id}`, {
      timezone: 'Atlantic/Canary',
      effective_from: '2026-11-10',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().timezone).toBe('Atlantic/Canary');
    // Before 10 November the days are Madrid's, from it the Canaries'.
    expect((await day(worker.id, '2026-11-06')).worked_minutes).toBe(120);
    expect((await day(worker.id, '2026-11-05')).worked_minutes).toBe(0);
    expect((await day(worker.id, '2026-11-12')).worked_minutes).toBe(120);
    expect((await day(worker.id, '2026-11-13')).worked_minutes).toBe(0);

    // The month's document names both zones and the date the second applies from.
    const created = await company.live.post('/v1/reports', {
      type: 'time_registry_worker_monthly',
      format: 'xlsx',
      params: { month: '2026-11', employee_id: worker.id, locale: 'es' },
    });
    expect(created.statusCode, created.body).toBe(202);
    const job = reportWorker(ctx);
    while ((await job.tick()) > 0) {}
    const url = new URL((await company.live.get(`/v1/reports/${created.json().id}`)).json().download_url);
    const file = (await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).rawPayload;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    let zones = '';
    sheet.eachRow((row) => {
      if (row.getCell(1).value === 'Zona horaria') zones = String(row.getCell(2).value);
    });
    expect(zones).toBe('Europe/Madrid; Atlantic/Canary desde 2026-11-10');
    // The shift of 12 November reads in the Canaries' time.
    let twelfth = '';
    sheet.eachRow((row) => {
      const value = row.getCell(1).value;
      if (value instanceof Date && value.toISOString().startsWith('2026-11-12'))
        twelfth = String(row.getCell(2).value);
    });
    expect(twelfth).toBe('23:30-01:30 (+1)');
    expect(await verifyRegistry(ctx.deps, company.id)).toMatchObject({ ok: true, problems: [] });
  });

  it('never applies in or before a closed month, nor after today', async () => {
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    await record(worker.id, [
      ['in', '2026-10-29T22:30:00Z'],
      ['out', '2026-10-30T00:30:00Z'],
    ]);
    expect((await company.live.post('/v1/registry/months/2026-10/close')).statusCode).toBe(200);
    const inside = await company.live.patch(`/v1/employees/${worker.id}`, {
      timezone: 'Asia/Tokyo',
      effective_from: '2026-10-20',
    });
    expect(inside.statusCode, inside.body).toBe(409);
    expect(inside.json()).toMatchObject({ errors: { closed_month: '2026-10' } });
    const future = await company.live.patch(`/v1/employees/${worker.id}`, {
      timezone: 'Asia/Tokyo',
      effective_from: '2099-01-01',
    });
    expect(future.statusCode, future.body).toBe(422);
    expect((await company.live.get(`/v1/employees/${worker.id}`)).json().timezone).toBeNull();
    // From the first open day it applies, and October keeps its figures.
    const open = await company.live.patch(`/v1/employees/${worker.id}`, {
      timezone: 'Asia/Tokyo',
      effective_from: '2026-11-01',
    });
    expect(open.statusCode, open.body).toBe(200);
    expect((await day(worker.id, '2026-10-29')).worked_minutes).toBe(120);
  });
});
