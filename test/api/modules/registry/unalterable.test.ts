import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyRegistry } from '../../../../src/modules/verification/verification.service.ts';
import {
  createTestContext,
  nextUtcHour,
  pinClock,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { localInstant, MADRID } from '../../../helpers/local-time.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * The attacks of the labour inspector's review (issue 34): each one changed a closed month without a correction.
 * Every test here failed on the code before the owner of day writes (modules/workdays/write-days.ts) existed.
 * October 2026 (with its clock change) is the closed month; the tests need a clock past it, as the real one is.
 */
let ctx: TestContext;

const ZONE = MADRID;
const at = (date: string, time: string) => localInstant(date, time);

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function day(company: TestCompany, employeeId: string, date: string) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'day', employee_id: employeeId, from: date, to: date },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0] as Record<string, unknown>;
}

async function month(company: TestCompany, employeeId: string, first: string, last: string) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'month', employee_id: employeeId, from: first, to: last },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0] as Record<string, unknown>;
}

async function checkIn(company: TestCompany, employeeId: string, type: string, timestamp: string) {
  return await company.live.post('/v1/check-ins', { employee_id: employeeId, type, timestamp });
}

async function close(company: TestCompany, monthText: string) {
  const response = await company.live.post(`/v1/registry/months/${monthText}/close`);
  expect(response.statusCode, response.body).toBe(200);
}

describe('a closed month cannot change through a neighbouring day', () => {
  it('refuses breaks after midnight that would shorten a closed night shift (31 Oct 22:00 – 1 Nov 06:00)', async () => {
    const company = await ctx.createCompany({ timezone: ZONE });
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    expect((await checkIn(company, worker.id, 'in', at('2026-10-31', '22:00'))).statusCode).toBe(201);
    expect((await checkIn(company, worker.id, 'out', at('2026-11-01', '06:00'))).statusCode).toBe(201);
    const before = await day(company, worker.id, '2026-10-31');
    expect(before.worked_minutes).toBe(480);
    await close(company, '2026-10');

    const pause = await checkIn(company, worker.id, 'break_start', at('2026-11-01', '00:30'));
    expect(pause.statusCode, pause.body).toBe(409);
    expect(pause.json()).toMatchObject({ code: 'conflict', errors: { closed_month: '2026-10' } });
    expect(await day(company, worker.id, '2026-10-31')).toEqual(before);

    // A record of 1 November that leaves 31 October as it was is still accepted (the day after a close goes on).
    const morning = await checkIn(company, worker.id, 'in', at('2026-11-01', '09:00'));
    expect(morning.statusCode, morning.body).toBe(201);
    expect(await day(company, worker.id, '2026-10-31')).toEqual(before);
  });

  it('refuses an out on 1 November that would end a shift still open on a closed 31 October', async () => {
    const company = await ctx.createCompany({ timezone: ZONE });
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    expect((await checkIn(company, worker.id, 'in', at('2026-10-31', '20:00'))).statusCode).toBe(201);
    await close(company, '2026-10');
    const before = await day(company, worker.id, '2026-10-31');
    const out = await checkIn(company, worker.id, 'out', at('2026-11-01', '02:00'));
    expect(out.statusCode, out.body).toBe(409);
    expect(await day(company, worker.id, '2026-10-31')).toEqual(before);
  });
});

describe('a closed month cannot change through the time zone', () => {
  it('refuses a company time-zone change that would apply in or before a closed month, so no round trip can move records into it', async () => {
    // At 20:00 UTC (the next one) the change (today in Madrid) and the change back (today in Tokyo, a day ahead)
    // fall on two dates: a date has one zone.
    pinClock(ctx.clock, nextUtcHour(ctx.clock, 20));
    const company = await ctx.createCompany({ timezone: ZONE });
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    expect((await checkIn(company, worker.id, 'in', at('2026-10-30', '09:00'))).statusCode).toBe(201);
    expect((await checkIn(company, worker.id, 'out', at('2026-10-30', '17:00'))).statusCode).toBe(201);
    await close(company, '2026-10');
    const before = await month(company, worker.id, '2026-10-01', '2026-10-31');

    // Effective-dated like a contract: from a date in or before the closed month is 409.
    for (const from of ['2026-10-15', '2026-09-01']) {
      const moved = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, {
        timezone: 'Asia/Tokyo',
        timezone_effective_from: from,
      });
      expect(moved.statusCode, moved.body).toBe(409);
      expect(moved.json()).toMatchObject({ code: 'conflict', errors: { closed_month: '2026-10' } });
    }
    expect((await ctx.admin.get(`/admin/v1/companies/${company.id}`)).json().timezone).toBe(ZONE);
    const future = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, {
      timezone: 'Asia/Tokyo',
      timezone_effective_from: '2099-01-01',
    });
    expect(future.statusCode, future.body).toBe(422);

    // From today on it applies: the closed month keeps every figure.
    const moved = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { timezone: 'Asia/Tokyo' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await month(company, worker.id, '2026-10-01', '2026-10-31')).toEqual(before);
    // The attack's second step: an instant of 31 October in Madrid (1 November in Tokyo) is still 31 October,
    // the zone of that time, and refused.
    const late = await checkIn(company, worker.id, 'in', '2026-10-31T19:00:00Z');
    expect(late.statusCode, late.body).toBe(409);
    // And the zone put back (from today in Tokyo): the closed month never moved.
    const back = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { timezone: ZONE });
    expect(back.statusCode, back.body).toBe(200);
    expect(await month(company, worker.id, '2026-10-01', '2026-10-31')).toEqual(before);
    expect(await verifyRegistry(ctx.deps, company.id)).toMatchObject({ ok: true, problems: [] });
  });

  it('recomputes the days from the date a zone change applies, and keeps the earlier ones in the old zone', async () => {
    const company = await ctx.createCompany({ timezone: ZONE });
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    // 23:30–01:30 UTC+1 in Madrid on 29 October; in Tokyo (UTC+9) the shift starts 30 October 07:30.
    for (const [type, time] of [
      ['in', '2026-10-29T22:30:00Z'],
      ['out', '2026-10-30T00:30:00Z'],
      // 23:30–01:30 in Madrid (summer time, UTC+2) on 20 October.
      ['in', '2026-10-20T21:30:00Z'],
      ['out', '2026-10-20T23:30:00Z'],
    ] as const) {
      expect((await checkIn(company, worker.id, type, time)).statusCode).toBe(201);
    }
    expect((await day(company, worker.id, '2026-10-29')).worked_minutes).toBe(120);
    expect((await day(company, worker.id, '2026-10-20')).worked_minutes).toBe(120);
    const moved = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, {
      timezone: 'Asia/Tokyo',
      timezone_effective_from: '2026-10-25',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // From 25 October the days are Tokyo's; before it, Madrid's as they were.
    expect((await day(company, worker.id, '2026-10-29')).worked_minutes).toBe(0);
    expect((await day(company, worker.id, '2026-10-30')).worked_minutes).toBe(120);
    expect((await day(company, worker.id, '2026-10-20')).worked_minutes).toBe(120);
    expect((await day(company, worker.id, '2026-10-21')).worked_minutes).toBe(0);
    expect(await verifyRegistry(ctx.deps, company.id)).toMatchObject({ ok: true, problems: [] });
  });
});

describe('a closed month cannot change through the tracking start', () => {
  it("refuses moving the tracking start before a closed month, which would change that month's banked balance", async () => {
    const company = await ctx.createCompany({ timezone: ZONE, trackingStart: '2026-09-01' });
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    await close(company, '2026-10');
    const before = await month(company, worker.id, '2026-10-01', '2026-10-31');
    expect(before.banked_hours_balance_minutes).not.toBe(0);

    const moved = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, {
      tracking_start_date: '2026-10-01',
    });
    expect(moved.statusCode, moved.body).toBe(409);
    expect(moved.json()).toMatchObject({ code: 'conflict', errors: { closed_month: '2026-10' } });
    expect(await month(company, worker.id, '2026-10-01', '2026-10-31')).toEqual(before);

    // The same move for one employee.
    const own = await company.live.patch(`/v1/employees/${worker.id}`, { tracking_start_date: '2026-10-01' });
    expect(own.statusCode, own.body).toBe(409);
    expect(await month(company, worker.id, '2026-10-01', '2026-10-31')).toEqual(before);
  });

  it("refuses a late check-in in an open month before a closed one, which would change the closed month's balance", async () => {
    const company = await ctx.createCompany({ timezone: ZONE, trackingStart: '2026-09-01' });
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    await close(company, '2026-10');
    const before = await month(company, worker.id, '2026-10-01', '2026-10-31');
    const late = await checkIn(company, worker.id, 'in', at('2026-09-15', '09:00'));
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({ code: 'conflict', errors: { closed_month: '2026-10' } });
    expect(await month(company, worker.id, '2026-10-01', '2026-10-31')).toEqual(before);
  });
});

describe('the late threshold is the operator’s', () => {
  it('refuses a company threshold above the operator’s (24 hours by default), so back-dated records stay marked', async () => {
    const company = await ctx.createCompany({ timezone: ZONE });
    const raised = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { late_record_hours: 8760 });
    expect(raised.statusCode, raised.body).toBe(422);
    expect(raised.json().code).toBe('validation_failed');
    const lowered = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { late_record_hours: 12 });
    expect(lowered.statusCode, lowered.body).toBe(200);
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    const eightDaysBack = ctx.clock
      .now()
      .subtract({ hours: 8 * 24 })
      .toString({ smallestUnit: 'second' });
    const recorded = await checkIn(company, worker.id, 'in', eightDaysBack);
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json().late).toBe(true);
  });
});
