import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { eventsDuring, hire } from '../../../helpers/resources.ts';

/**
 * Effective-dated contracts (issue 15, docs/registry.md): a schedule or vacation change applies from a date, and
 * the days before it keep their values.
 */
let ctx: TestContext;
let company: TestCompany;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.advance(60));

const FULL = { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 };
const HALF = { mon: 240, tue: 240, wed: 240, thu: 240, fri: 240, sat: 0, sun: 0 };

/** The weekdays (Monday to Friday) of a month. */
function weekdays(month: string): number {
  const first = Temporal.PlainYearMonth.from(month).toPlainDate({ day: 1 });
  let count = 0;
  for (let day = first; day.month === first.month; day = day.add({ days: 1 }))
    if (day.dayOfWeek <= 5) count++;
  return count;
}

async function month(employeeId: string, from: string, to: string) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'month', employee_id: employeeId, from, to },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0];
}

async function workedDecember(employeeId: string) {
  // 2025-12-01 to 12-05: five days of 10 hours.
  for (let day = 1; day <= 5; day++) {
    for (const [type, time] of [
      ['in', '08:00'],
      ['out', '18:00'],
    ] as const) {
      const timestamp = Temporal.PlainDate.from({ year: 2025, month: 12, day })
        .toZonedDateTime({ timeZone: 'Europe/Madrid', plainTime: time })
        .toInstant()
        .toString();
      const response = await company.live.post('/v1/check-ins', { employee_id: employeeId, type, timestamp });
      expect(response.statusCode, response.body).toBe(201);
    }
  }
}

describe('effective-dated contracts', () => {
  it('keeps the overtime of the days before a schedule change', async () => {
    const employee = await hire(company.live, { hire_date: '2025-01-01', work_schedule: FULL });
    await workedDecember(employee.id);
    const before = await month(employee.id, '2025-12-01', '2025-12-05');
    expect(before).toMatchObject({
      worked_minutes: 3000,
      expected_minutes: weekdays('2025-12') * 480,
      overtime_minutes: 5 * 120,
    });
    let response = await company.live.patch(`/v1/employees/${employee.id}`, {
      work_schedule: HALF,
      effective_from: '2026-01-01',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().work_schedule).toEqual(HALF);
    expect(await month(employee.id, '2025-12-01', '2025-12-05')).toEqual(before);
    expect(await month(employee.id, '2026-01-05', '2026-01-09')).toMatchObject({
      expected_minutes: weekdays('2026-01') * 240,
    });

    // A correction of the whole contract is a change effective from the hire date, on the record as such.
    response = await company.live.patch(`/v1/employees/${employee.id}`, {
      work_schedule: HALF,
      effective_from: '2025-01-01',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await month(employee.id, '2025-12-01', '2025-12-05')).toMatchObject({
      expected_minutes: weekdays('2025-12') * 240,
      overtime_minutes: 5 * 360,
    });
  });

  it('lists the periods with who recorded each, and replaces a period that starts the same day', async () => {
    const employee = await hire(company.live, { hire_date: '2025-01-01' });
    await company.live.patch(`/v1/employees/${employee.id}`, {
      vacation_days_per_year: 25,
      effective_from: '2026-07-01',
    });
    await company.live.patch(`/v1/employees/${employee.id}`, {
      work_schedule: HALF,
      effective_from: '2026-03-01',
    });
    await company.live.patch(`/v1/employees/${employee.id}`, {
      vacation_days_per_year: 23,
      effective_from: '2026-03-01',
    });
    const history = await company.live.get(`/v1/employees/${employee.id}/contract-history`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json()).toEqual({
      data: [
        {
          effective_from: '2025-01-01',
          effective_to: '2026-02-28',
          work_schedule: FULL,
          vacation_days_per_year: 22,
          contract_type: 'full_time',
          weekly_minutes: 2400,
          part_time_percentage: null,
          complementary_limit_percentage: null,
          overtime_compensation: null,
          recorded_at: expect.any(String),
          recorded_by: { type: 'api_key', id: company.liveKeyId },
        },
        {
          effective_from: '2026-03-01',
          effective_to: '2026-06-30',
          work_schedule: HALF,
          vacation_days_per_year: 23,
          contract_type: 'full_time',
          weekly_minutes: 1200,
          part_time_percentage: null,
          complementary_limit_percentage: null,
          overtime_compensation: null,
          recorded_at: expect.any(String),
          recorded_by: { type: 'api_key', id: company.liveKeyId },
        },
        {
          // A back-dated change leaves a later period as it was.
          effective_from: '2026-07-01',
          effective_to: null,
          work_schedule: FULL,
          vacation_days_per_year: 25,
          contract_type: 'full_time',
          weekly_minutes: 2400,
          part_time_percentage: null,
          complementary_limit_percentage: null,
          overtime_compensation: null,
          recorded_at: expect.any(String),
          recorded_by: { type: 'api_key', id: company.liveKeyId },
        },
      ],
      meta: { next_cursor: null, has_more: false },
    });
    // The employee shows the latest period.
    expect((await company.live.get(`/v1/employees/${employee.id}`)).json()).toMatchObject({
      work_schedule: FULL,
      vacation_days_per_year: 25,
    });
    const other = await ctx.createCompany();
    expect((await other.live.get(`/v1/employees/${employee.id}/contract-history`)).statusCode).toBe(404);
  });

  it('prorates the vacation entitlement by period, and counts absence days by the schedule of each date', async () => {
    const employee = await hire(company.live, { hire_date: '2025-01-01', vacation_days_per_year: 22 });
    // From 2026-07-02 (day 183 of 365): 30 days a year. 182 days at 22 and 183 at 30.
    await company.live.patch(`/v1/employees/${employee.id}`, {
      vacation_days_per_year: 30,
      effective_from: '2026-07-02',
    });
    const balances = await company.live.get('/v1/vacation-balances', {
      query: { year: 2026, employee_id: employee.id },
    });
    expect(balances.statusCode, balances.body).toBe(200);
    const expected = Math.round(((22 * 182 + 30 * 183) / 365) * 2) / 2;
    expect(balances.json().data[0].entitled_days).toBe(expected);

    // Weekends worked from 2026-09-01: a week of vacation across the change counts old weekdays, new weekends.
    await company.live.patch(`/v1/employees/${employee.id}`, {
      work_schedule: { mon: 0, tue: 0, wed: 0, thu: 0, fri: 0, sat: 480, sun: 480 },
      effective_from: '2026-09-01',
    });
    const absence = await company.live.post('/v1/absences', {
      employee_id: employee.id,
      type: 'vacation',
      start_date: '2026-08-28',
      end_date: '2026-09-06',
    });
    expect(absence.statusCode, absence.body).toBe(201);
    // Fri 28 and Mon 31 Aug (old schedule) + Sat 5 and Sun 6 Sep (new schedule).
    expect(absence.json().days_count).toBe(4);
  });

  it('refuses an effective date before the hire date or without a contract field, and emits employee.updated', async () => {
    const employee = await hire(company.live, { hire_date: '2025-06-01' });
    for (const body of [
      { work_schedule: HALF, effective_from: '2025-05-31' },
      { effective_from: '2025-07-01' },
      { first_name: 'X', effective_from: '2025-07-01' },
      { work_schedule: HALF, effective_from: '2025-13-01' },
    ]) {
      const response = await company.live.patch(`/v1/employees/${employee.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.json().errors).join()).toContain('effective_from');
    }
    const events = await eventsDuring(ctx.db, company.id, async () => {
      const response = await company.live.patch(`/v1/employees/${employee.id}`, {
        vacation_days_per_year: 24,
        effective_from: '2025-09-01',
      });
      expect(response.statusCode, response.body).toBe(200);
    });
    expect(events).toEqual([{ type: 'employee.updated', data: { employee_id: employee.id } }]);
    // The same values again change nothing: no event.
    const again = await eventsDuring(ctx.db, company.id, async () => {
      await company.live.patch(`/v1/employees/${employee.id}`, {
        vacation_days_per_year: 24,
        effective_from: '2025-09-01',
      });
    });
    expect(again).toEqual([]);
  });
});
