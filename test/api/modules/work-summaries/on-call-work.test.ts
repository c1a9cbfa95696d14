import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleOnCallBacklog } from '../../../../src/jobs/maintenance.ts';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';
import { rewriteStoredDay } from '../../../helpers/tamper.ts';

/**
 * On-call work reported apart (issue 38): a published `on_call` shift plans nothing, but what the employee clocks
 * within it is work, counted in `worked_minutes` like any other and reported as `on_call_worked_minutes`, on the
 * date its clock shift belongs to (the date of its `in`), whether the shift was published before the work or
 * after it (a night's work reaching into the next day's on-call). Verification recomputes it, and days stored
 * before the figure existed are settled by the maintenance without changing anything else.
 */
let ctx: TestContext;
let company: TestCompany;

const ZONE = 'Europe/Madrid';
const instant = (local: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(ZONE).toInstant();
const at = (local: string) => pinClock(ctx.clock, instant(local).toString());

async function clock(employeeId: string, records: ReadonlyArray<readonly ['in' | 'out', string]>) {
  for (const [type, local] of records) {
    const response = await company.live.post('/v1/check-ins', {
      employee_id: employeeId,
      type,
      timestamp: instant(local).toString(),
    });
    expect(response.statusCode, response.body).toBe(201);
  }
}

async function summaries(employeeId: string, from: string, to: string, period: 'day' | 'month' = 'day') {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period, from, to, employee_id: employeeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<Record<string, number | string>>;
}

const figures = async (employeeId: string, from: string, to: string) =>
  (await summaries(employeeId, from, to)).map((day) => [
    day.period_start,
    day.worked_minutes,
    day.expected_minutes,
    day.on_call_worked_minutes,
  ]);

async function onCall(employeeId: string, date: string, start: string, end: string) {
  const response = await company.live.post('/v1/shifts', {
    employee_id: employeeId,
    date,
    start,
    end,
    kind: 'on_call',
    status: 'published',
  });
  expect(response.statusCode, response.body).toBe(201);
  expect(response.json().planned_minutes).toBe(0);
  return response.json().id as string;
}

async function verify() {
  const response = await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: company.id } });
  expect(response.statusCode).toBe(200);
  return response.json() as { ok: boolean; problems: Array<{ kind: string; expected: string }> };
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
});
afterAll(() => ctx.close());

describe('on-call work', () => {
  it('reports the minutes clocked within a published on-call shift apart, on the date of their in', async () => {
    at('2027-03-01T08:00:00');
    const employee = await hire(company.live, { hire_date: '2027-01-01' });
    // Monday's plan: work 09:00–17:00, then on call until Tuesday 08:00 (availability: it plans no minutes).
    const work = await company.live.post('/v1/shifts', {
      employee_id: employee.id,
      date: '2027-03-01',
      start: '09:00',
      end: '17:00',
      status: 'published',
    });
    expect(work.statusCode, work.body).toBe(201);
    await onCall(employee.id, '2027-03-01', '18:00', '08:00');
    at('2027-03-03T12:00:00');
    await clock(employee.id, [
      ['in', '2027-03-01T09:00:00'],
      ['out', '2027-03-01T17:00:00'],
      // A call-out across midnight: Monday's shift, within the on-call shift.
      ['in', '2027-03-01T22:30:00'],
      ['out', '2027-03-02T01:15:00'],
      // An early call-out, half of it after the on-call shift ended at 08:00: Tuesday's.
      ['in', '2027-03-02T07:30:00'],
      ['out', '2027-03-02T08:30:00'],
      ['in', '2027-03-02T09:00:00'],
      ['out', '2027-03-02T17:00:00'],
    ]);
    expect(await figures(employee.id, '2027-03-01', '2027-03-02')).toEqual([
      ['2027-03-01', 645, 480, 165],
      ['2027-03-02', 540, 480, 30],
    ]);
    const [day] = await summaries(employee.id, '2027-03-01', '2027-03-01');
    // On-call work is work: beyond the day's expected minutes it is overtime, as any other.
    expect(day).toMatchObject({ overtime_minutes: 165 });
    const [month] = await summaries(employee.id, '2027-03-01', '2027-03-31', 'month');
    expect(month?.on_call_worked_minutes).toBe(195);
  });

  it('settles the day before when an on-call shift is published or removed after the work', async () => {
    at('2027-03-09T08:00:00');
    const employee = await hire(company.live, { hire_date: '2027-01-01' });
    // Tuesday 23:00 to Wednesday 01:30: Tuesday's clock shift.
    at('2027-03-10T02:00:00');
    await clock(employee.id, [
      ['in', '2027-03-09T23:00:00'],
      ['out', '2027-03-10T01:30:00'],
    ]);
    expect(await figures(employee.id, '2027-03-09', '2027-03-09')).toEqual([['2027-03-09', 150, 480, 0]]);
    // Wednesday's on-call shift, from midnight, is published at 02:00 (today's shifts may still change): the
    // 90 minutes after midnight were on-call work, and Tuesday's stored day says so.
    const id = await onCall(employee.id, '2027-03-10', '00:00', '08:00');
    expect(await figures(employee.id, '2027-03-09', '2027-03-09')).toEqual([['2027-03-09', 150, 480, 90]]);
    const removed = await company.live.delete(`/v1/shifts/${id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await figures(employee.id, '2027-03-09', '2027-03-09')).toEqual([['2027-03-09', 150, 480, 0]]);
  });

  it('is recomputed by verification, and the days stored before it existed are settled apart', async () => {
    const employee = await hire(company.live, { hire_date: '2027-01-01' });
    at('2027-04-12T08:00:00');
    await onCall(employee.id, '2027-04-12', '20:00', '06:00');
    at('2027-04-14T10:00:00');
    await clock(employee.id, [
      ['in', '2027-04-12T21:00:00'],
      ['out', '2027-04-12T23:00:00'],
      ['in', '2027-04-13T09:00:00'],
      ['out', '2027-04-13T17:00:00'],
    ]);
    at('2027-05-03T10:00:00');
    const closed = await company.live.post('/v1/registry/months/2027-04/close');
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await verify()).ok).toBe(true);

    // An operator who hides the night's on-call work by SQL is named by verification.
    const where = { companyId: company.id, employeeId: employee.id, date: '2027-04-12' };
    await rewriteStoredDay(ctx.db, where, { on_call_minutes: 0 });
    const tampered = await verify();
    expect(tampered.ok).toBe(false);
    expect(
      tampered.problems
        .filter((problem) => problem.kind === 'figures_mismatch')
        .map((problem) => JSON.parse(problem.expected)[0]),
    ).toContain('2027-04-12');

    // Migration 0050 marks the days stored before it that could hold on-call work (check-ins within two days of a
    // published on-call shift) as not settled: its statement runs again here, over the whole table.
    const migration = await readFile(
      path.resolve(import.meta.dirname, '../../../../src/db/migrations/0050_on_call_worked.sql'),
      'utf8',
    );
    const [mark] = migration
      .split(';')
      .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
      .filter((statement) => statement.startsWith('update'));
    expect(mark).toBeDefined();
    await sql.raw(mark as string).execute(ctx.db);
    const unsettled = await ctx.db
      .selectFrom('workdays')
      .select('date')
      .where('company_id', '=', company.id)
      .where('employee_id', '=', employee.id)
      .where('on_call_minutes', 'is', null)
      .orderBy('date')
      .execute();
    expect(unsettled.map((row) => row.date)).toEqual(['2027-04-12', '2027-04-13']);

    // The maintenance settles them from the facts, in the closed month too, and nothing else changes.
    expect(await settleOnCallBacklog(ctx.db, ctx.clock.now())).toBeGreaterThanOrEqual(2);
    // A day planned as on-call only expects nothing (its published shifts replace the weekly schedule).
    expect(await figures(employee.id, '2027-04-12', '2027-04-13')).toEqual([
      ['2027-04-12', 120, 0, 120],
      ['2027-04-13', 480, 480, 0],
    ]);
    const [april] = await summaries(employee.id, '2027-04-01', '2027-04-30', 'month');
    expect(april?.on_call_worked_minutes).toBe(120);
    expect(await verify()).toMatchObject({ ok: true });
    expect(await settleOnCallBacklog(ctx.db, ctx.clock.now())).toBe(0);
  });
});
