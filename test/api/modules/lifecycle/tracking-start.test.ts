import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Banked hours start when recording starts (issue 15, docs/registry.md): before the tracking start nothing is
 * expected, and the banked balance is the opening balance plus the balances from the tracking start on.
 */
let ctx: TestContext;
let company: TestCompany;
/** The company's creation day in its zone: its default tracking start (fixed, though the clock moves on). */
let createdOn: Temporal.PlainDate;

const ZONE = 'Europe/Madrid';
const today = () => ctx.clock.now().toZonedDateTimeISO(ZONE).toPlainDate();
const at = (date: Temporal.PlainDate, time: string) =>
  date.toZonedDateTime({ timeZone: ZONE, plainTime: time }).toInstant().toString({ smallestUnit: 'second' });

beforeAll(async () => {
  ctx = await createTestContext();
  // The service's default: the company starts recording the day it is created.
  company = await ctx.createCompany({ timezone: ZONE, trackingStart: null });
  createdOn = today();
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.advance(60));

async function summaries(employeeId: string, period: 'day' | 'month', from: string, to: string) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period, employee_id: employeeId, from, to, limit: 100 },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<Record<string, number | string>>;
}

describe('the company tracking start', () => {
  it('is the day the company was created, shown on the company', async () => {
    const shown = (await ctx.admin.get(`/admin/v1/companies/${company.id}`)).json();
    expect(shown.tracking_start_date).toBe(createdOn.toString());
  });

  it('gives a worker hired in 2024 a banked balance of 0 before any work, and runs it from there', async () => {
    const employee = await hire(company.live, { hire_date: '2024-03-01' });
    expect(employee.tracking_start_date).toBe(createdOn.toString());
    const yesterday = createdOn.subtract({ days: 1 });
    const before = [
      ...(await summaries(employee.id, 'month', '2024-03-01', '2025-02-28')),
      ...(await summaries(employee.id, 'month', '2025-03-01', '2026-02-28')),
      ...(await summaries(employee.id, 'month', '2026-03-01', yesterday.toString())),
    ];
    expect(before.length).toBeGreaterThan(20);
    for (const month of before) {
      expect(month).toMatchObject({
        expected_minutes: 0,
        balance_minutes: 0,
        banked_hours_balance_minutes: 0,
      });
    }
    // One worked day, then the day ends. (Run early in the morning, the clock first moves past the shift.)
    const day = createdOn;
    const ahead =
      Temporal.Instant.from(at(day, '12:05')).epochMilliseconds - ctx.clock.now().epochMilliseconds;
    if (ahead > 0) ctx.clock.advance(ahead / 1000);
    for (const [type, time] of [
      ['in', '08:00'],
      ['out', '12:00'],
    ] as const) {
      ctx.clock.advance(1);
      const response = await company.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type,
        timestamp: at(day, time),
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    ctx.clock.advance(2 * 86_400);
    const [row] = await summaries(employee.id, 'day', day.toString(), day.toString());
    const expected = day.dayOfWeek <= 5 ? 480 : 0;
    expect(row).toMatchObject({
      worked_minutes: 240,
      expected_minutes: expected,
      banked_hours_balance_minutes: 240 - expected,
    });
  });

  it('starts from the opening balance, and counts work before the tracking start in no balance', async () => {
    const start = today().subtract({ days: 10 });
    const employee = await hire(company.live, {
      hire_date: '2025-01-01',
      tracking_start_date: start.toString(),
      opening_banked_minutes: 600,
    });
    expect(employee).toMatchObject({ tracking_start_date: start.toString(), opening_banked_minutes: 600 });
    // Work recorded the week before the tracking start: it is worked time, but it was in the opening balance.
    const earlier = start.subtract({ days: 7 });
    for (const [type, time] of [
      ['in', '09:00'],
      ['out', '11:00'],
    ] as const) {
      await company.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type,
        timestamp: at(earlier, time),
      });
    }
    const [worked] = await summaries(employee.id, 'day', earlier.toString(), earlier.toString());
    expect(worked).toMatchObject({
      worked_minutes: 120,
      expected_minutes: 0,
      banked_hours_balance_minutes: 600,
    });
    const days = await summaries(
      employee.id,
      'day',
      start.toString(),
      today().subtract({ days: 1 }).toString(),
    );
    const scheduled = days.reduce((total, row) => total + Number(row.expected_minutes), 0);
    expect(scheduled).toBeGreaterThan(0);
    expect(days.at(-1)?.banked_hours_balance_minutes).toBe(600 - scheduled);
    const months = await summaries(
      employee.id,
      'month',
      today().subtract({ days: 1 }).with({ day: 1 }).subtract({ months: 6 }).toString(),
      today().subtract({ days: 1 }).toString(),
    );
    expect(months.at(-1)?.banked_hours_balance_minutes).toBe(600 - scheduled);
  });

  it('follows an employee’s own tracking start set by PATCH, and back to the company’s with null', async () => {
    const employee = await hire(company.live, { hire_date: '2025-06-01' });
    // The two weeks before the company's tracking start (the clock moved on since).
    const companyStart = Temporal.PlainDate.from(employee.tracking_start_date);
    const from = companyStart.subtract({ days: 14 });
    const to = companyStart.subtract({ days: 1 });
    const total = async () =>
      (await summaries(employee.id, 'day', from.toString(), to.toString())).reduce(
        (sum, row) => sum + Number(row.expected_minutes),
        0,
      );
    expect(await total()).toBe(0);
    const earlier = await company.live.patch(`/v1/employees/${employee.id}`, {
      tracking_start_date: from.toString(),
    });
    expect(earlier.statusCode, earlier.body).toBe(200);
    expect(earlier.json().tracking_start_date).toBe(from.toString());
    expect(await total()).toBeGreaterThanOrEqual(8 * 480);
    const reset = await company.live.patch(`/v1/employees/${employee.id}`, { tracking_start_date: null });
    expect(reset.json().tracking_start_date).toBe(companyStart.toString());
    expect(await total()).toBe(0);
  });

  it('refuses invalid values', async () => {
    const employee = await hire(company.live, { hire_date: '2025-06-01' });
    for (const body of [
      { opening_banked_minutes: 1.5 },
      { opening_banked_minutes: 2_000_000 },
      { opening_banked_minutes: '10' },
      { tracking_start_date: '2026-02-30' },
      { tracking_start_date: 'today' },
    ]) {
      const response = await company.live.patch(`/v1/employees/${employee.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().code).toBe('validation_failed');
    }
  });
});

describe('tracking starts and closed months', () => {
  it('refuses a tracking start or an opening balance that would change a closed month', async () => {
    const other = await ctx.createCompany({ timezone: ZONE, trackingStart: '2025-01-01' });
    const monthStart = today().with({ day: 1 });
    const closed = monthStart.subtract({ months: 1 });
    const employee = await hire(other.live, {
      hire_date: '2025-01-01',
      tracking_start_date: monthStart.toString(),
    });
    const tracked = await hire(other.live, { hire_date: '2025-01-01' });
    expect((await other.live.post(`/v1/registry/months/${closed.toPlainYearMonth()}/close`)).statusCode).toBe(
      200,
    );
    for (const body of [
      { tracking_start_date: closed.add({ days: 3 }).toString() },
      // Back to the company's (2025-01-01): every day since would change.
      { tracking_start_date: null },
    ]) {
      const response = await other.live.patch(`/v1/employees/${employee.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(409);
      expect(response.json().errors.closed_month).toBe(closed.toPlainYearMonth().toString());
    }
    // An opening balance runs into every month from the tracking start: refused for a worker tracked before.
    const opening = await other.live.patch(`/v1/employees/${tracked.id}`, { opening_banked_minutes: 60 });
    expect(opening.statusCode).toBe(409);
    // Refused too for a worker tracked only after the closed month (issue 34): the closed month's reported banked
    // balance includes the opening balance (found by test/registry-sealed.property.test.ts).
    expect(
      (await other.live.patch(`/v1/employees/${employee.id}`, { opening_banked_minutes: 60 })).statusCode,
    ).toBe(409);
    // A tracking start moved within open days changes only those.
    const later = await other.live.patch(`/v1/employees/${employee.id}`, {
      tracking_start_date: monthStart.add({ days: 5 }).toString(),
    });
    expect(later.statusCode, later.body).toBe(200);
    // The operator cannot move the company's tracking start across the closed month either.
    const moved = await ctx.admin.patch(`/admin/v1/companies/${other.id}`, {
      tracking_start_date: monthStart.toString(),
    });
    expect(moved.statusCode, moved.body).toBe(409);
    expect(moved.json().errors.closed_month).toBe(closed.toPlainYearMonth().toString());
    // Before the closed month it is refused too (issue 34): the days it changes are open, but the closed month's
    // banked balance runs through them, so a closed month seals the days before it.
    const before = await ctx.admin.patch(`/admin/v1/companies/${other.id}`, {
      tracking_start_date: '2025-06-01',
    });
    expect(before.statusCode, before.body).toBe(409);
    expect(before.json().errors.closed_month).toBe(closed.toPlainYearMonth().toString());
  });

  it('lets an operator migrate a history: an earlier company tracking start recomputes the days', async () => {
    const migrated = await ctx.createCompany({ timezone: ZONE, trackingStart: null });
    const employee = await hire(migrated.live, { hire_date: '2025-01-01' });
    const from = today().subtract({ days: 14 }).toString();
    const to = today().subtract({ days: 1 }).toString();
    const expected = async () => {
      const rows = (
        await migrated.live.get('/v1/work-summaries', {
          query: { period: 'day', employee_id: employee.id, from, to },
        })
      ).json().data as Array<{ expected_minutes: number }>;
      return rows.reduce((sum, row) => sum + row.expected_minutes, 0);
    };
    expect(await expected()).toBe(0);
    const moved = await ctx.admin.patch(`/admin/v1/companies/${migrated.id}`, {
      tracking_start_date: '2025-01-01',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().tracking_start_date).toBe('2025-01-01');
    expect(await expected()).toBeGreaterThanOrEqual(8 * 480);
    expect((await migrated.live.get(`/v1/employees/${employee.id}`)).json().tracking_start_date).toBe(
      '2025-01-01',
    );
    const sandbox = await ctx.admin.patch(`/admin/v1/companies/${migrated.sandboxId}`, {
      tracking_start_date: '2024-01-01',
    });
    expect(sandbox.statusCode).toBe(422);
  });
});
