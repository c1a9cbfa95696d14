import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  downloadReport,
  pinClock,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { pdfPages } from '../../../helpers/pdf.ts';
import { hire } from '../../../helpers/resources.ts';
import { rewriteStoredDay } from '../../../helpers/tamper.ts';

/**
 * Part-time contracts (issue 38, ET art. 12): the contract period's terms, shown by the employee and the contract
 * history; a part-timer's minutes beyond the day's contracted ones are complementary, never overtime, in the work
 * summaries and the registry report; and a month over the agreed complementary limit is an alert.
 */
let ctx: TestContext;
let company: TestCompany;

const ZONE = 'Europe/Madrid';
const instant = (local: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(ZONE).toInstant();
const at = (local: string) => pinClock(ctx.clock, instant(local).toString());
const FOUR_HOURS = { mon: 240, tue: 240, wed: 240, thu: 240, fri: 240, sat: 0, sun: 0 };

/** A day worked from 09:00 to `until`, recorded as it happens. */
async function workDay(employeeId: string, date: string, until: string) {
  for (const [type, time] of [
    ['in', '09:00'],
    ['out', until],
  ] as const) {
    at(`${date}T${time}:30`);
    const response = await company.live.post('/v1/check-ins', {
      employee_id: employeeId,
      type,
      timestamp: instant(`${date}T${time}:00`).toString(),
    });
    expect(response.statusCode, response.body).toBe(201);
  }
}

/** The text of a worker's monthly document (PDF, Spanish), whitespace collapsed. */
async function documentText(month: string, employeeId: string) {
  const { file } = await downloadReport(ctx, company.live, {
    type: 'time_registry_worker_monthly',
    format: 'pdf',
    params: { month, employee_id: employeeId },
  });
  return (await pdfPages(file.rawPayload)).join('\n').replace(/\s+/g, ' ');
}

async function summaries(employeeId: string, period: 'day' | 'month', from: string, to: string) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period, from, to, employee_id: employeeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
});
afterAll(() => ctx.close());

describe('part-time contracts', () => {
  it('shows the terms on the employee and the contract history, a 20-hour week being 50 % of a 40-hour one', async () => {
    const employee = await hire(company.live, { contract_type: 'part_time', work_schedule: FOUR_HOURS });
    expect(employee).toMatchObject({
      contract_type: 'part_time',
      weekly_minutes: 1200,
      part_time_percentage: 50,
      complementary_limit_percentage: 30,
    });
    const full = await hire(company.live);
    expect(full).toMatchObject({
      contract_type: 'full_time',
      weekly_minutes: 2400,
      part_time_percentage: null,
      complementary_limit_percentage: null,
    });
    // From 2026-06-01 she works 30 hours at 75 % with a 45 % limit; the first period keeps its terms.
    const patched = await company.live.patch(`/v1/employees/${employee.id}`, {
      work_schedule: { ...FOUR_HOURS, mon: 360, tue: 360, wed: 360, thu: 360, fri: 360 },
      part_time_percentage: 75,
      complementary_limit_percentage: 45,
      effective_from: '2026-06-01',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ weekly_minutes: 1800, part_time_percentage: 75 });
    const history = await company.live.get(`/v1/employees/${employee.id}/contract-history`);
    expect(history.statusCode, history.body).toBe(200);
    expect(
      history.json().data.map((period: Record<string, unknown>) => ({
        from: period.effective_from,
        type: period.contract_type,
        weekly: period.weekly_minutes,
        percentage: period.part_time_percentage,
        limit: period.complementary_limit_percentage,
      })),
    ).toEqual([
      { from: '2026-01-01', type: 'part_time', weekly: 1200, percentage: 50, limit: 30 },
      { from: '2026-06-01', type: 'part_time', weekly: 1800, percentage: 75, limit: 45 },
    ]);
    // Back to full time: the percentage and the limit go with it.
    const back = await company.live.patch(`/v1/employees/${employee.id}`, {
      contract_type: 'full_time',
      weekly_minutes: 2250,
      effective_from: '2026-09-01',
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({
      contract_type: 'full_time',
      weekly_minutes: 2250,
      part_time_percentage: null,
      complementary_limit_percentage: null,
    });
  });

  it('refuses terms that contradict each other, naming the field', async () => {
    const fullWithShare = await company.live.post('/v1/employees', {
      first_name: 'Eva',
      last_name: 'Ruiz',
      email: 'eva.ruiz@example.com',
      part_time_percentage: 50,
    });
    expect(fullWithShare.statusCode).toBe(422);
    expect(fullWithShare.json().errors).toHaveProperty('part_time_percentage');
    // A part-time contract of a 40-hour week has no share to derive: it must be given.
    const noShare = await company.live.post('/v1/employees', {
      first_name: 'Eva',
      last_name: 'Ruiz',
      email: 'eva.ruiz@example.com',
      contract_type: 'part_time',
      work_schedule: { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 },
    });
    expect(noShare.statusCode).toBe(422);
    expect(noShare.json().errors).toHaveProperty('part_time_percentage');
    for (const bad of [
      { part_time_percentage: 100 },
      { complementary_limit_percentage: 91 },
      { weekly_minutes: -1 },
    ]) {
      const response = await company.live.post('/v1/employees', {
        first_name: 'Eva',
        last_name: 'Ruiz',
        email: 'eva.ruiz@example.com',
        contract_type: 'part_time',
        ...bad,
      });
      expect(response.statusCode, JSON.stringify(bad)).toBe(422);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    const list = await company.live.get('/v1/employees');
    expect(list.json().data.some((row: { email: string }) => row.email === 'eva.ruiz@example.com')).toBe(
      false,
    );
  });

  it("counts a part-timer's extra minutes as complementary and a full-timer's as overtime, per contract period", async () => {
    const partTimer = await hire(company.live, {
      contract_type: 'part_time',
      work_schedule: FOUR_HOURS,
      hire_date: '2027-01-01',
    });
    const fullTimer = await hire(company.live, {
      work_schedule: FOUR_HOURS,
      hire_date: '2027-01-01',
      weekly_minutes: 1200,
    });
    // Monday 2027-01-11: both work six hours of a four-hour day.
    await workDay(partTimer.id, '2027-01-11', '15:00');
    await workDay(fullTimer.id, '2027-01-11', '15:00');
    at('2027-01-12T08:00:00');
    const [partDay] = await summaries(partTimer.id, 'day', '2027-01-11', '2027-01-11');
    // Every row prints the contract terms in force on its last day.
    expect(partDay).toMatchObject({
      worked_minutes: 360,
      overtime_minutes: 0,
      complementary_minutes: 120,
      contract_type: 'part_time',
      weekly_minutes: 1200,
      part_time_percentage: 50,
    });
    const [fullDay] = await summaries(fullTimer.id, 'day', '2027-01-11', '2027-01-11');
    expect(fullDay).toMatchObject({
      worked_minutes: 360,
      overtime_minutes: 120,
      complementary_minutes: 0,
      contract_type: 'full_time',
      weekly_minutes: 1200,
      part_time_percentage: null,
    });
    const [partMonth] = await summaries(partTimer.id, 'month', '2027-01-01', '2027-01-31');
    expect(partMonth).toMatchObject({ overtime_minutes: 0, complementary_minutes: 120 });

    // From Wednesday she is full-time: Tuesday's extra stays complementary, Wednesday's is overtime.
    await workDay(partTimer.id, '2027-01-12', '14:00');
    at('2027-01-12T20:00:00');
    const patched = await company.live.patch(`/v1/employees/${partTimer.id}`, {
      contract_type: 'full_time',
      effective_from: '2027-01-13',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await workDay(partTimer.id, '2027-01-13', '14:30');
    at('2027-01-14T08:00:00');
    const days = await summaries(partTimer.id, 'day', '2027-01-11', '2027-01-13');
    expect(
      days.map((day: Record<string, number | string>) => [
        day.overtime_minutes,
        day.complementary_minutes,
        day.contract_type,
      ]),
    ).toEqual([
      [0, 120, 'part_time'],
      [0, 60, 'part_time'],
      [90, 0, 'full_time'],
    ]);
    const [month] = await summaries(partTimer.id, 'month', '2027-01-01', '2027-01-31');
    expect(month).toMatchObject({
      overtime_minutes: 90,
      complementary_minutes: 180,
      contract_type: 'full_time',
      part_time_percentage: null,
    });

    // The worker's document prints them apart, and the contract in force on the month's last day.
    const text = await documentText('2027-01', fullTimer.id);
    // A full-time contract of 20 hours is not printed as part-time.
    expect(text).toContain('Jornada contratada: 20:00 h/semana ');
    expect(text).not.toContain('tiempo parcial');
    expect(text).toContain(
      'Horas extraordinarias (art. 35.5 ET) 2:00 · Horas complementarias (art. 12.5 ET) 0:00',
    );
  });

  it("prints a part-timer's complementary hours and contract on the worker's document", async () => {
    const employee = await hire(company.live, {
      contract_type: 'part_time',
      work_schedule: FOUR_HOURS,
      hire_date: '2027-01-01',
    });
    await workDay(employee.id, '2027-02-01', '15:00');
    at('2027-02-02T08:00:00');
    const text = await documentText('2027-02', employee.id);
    expect(text).toContain('Jornada contratada: 20:00 h/semana (tiempo parcial, 50 %)');
    expect(text).toContain(
      'Horas extraordinarias (art. 35.5 ET) 0:00 · Horas complementarias (art. 12.5 ET) 2:00',
    );
    // The day's row: worked 6:00, ordinary 4:00, overtime 0:00, complementary 2:00.
    expect(text).toContain('2027-02-01 lun 09:00-15:00 6:00 4:00 0:00 2:00');
  });

  it('raises an alert on the day the month passes the agreed complementary limit, and drops it when it no longer does', async () => {
    // 23 four-hour weekdays in March 2027 (no holiday) contract 5,520 minutes; a 5 % limit allows 276.
    const employee = await hire(company.live, {
      contract_type: 'part_time',
      work_schedule: FOUR_HOURS,
      complementary_limit_percentage: 5,
      hire_date: '2027-01-01',
    });
    await workDay(employee.id, '2027-03-01', '15:00'); // 120 complementary
    await workDay(employee.id, '2027-03-02', '15:00'); // 240: under the limit
    const list = async () =>
      (
        await company.live.get('/v1/compliance-alerts', {
          query: { employee_id: employee.id, rule: 'complementary_limit' },
        })
      ).json().data;
    expect(await list()).toEqual([]);
    await workDay(employee.id, '2027-03-03', '14:00'); // 300: over
    expect(await list()).toMatchObject([
      {
        date: '2027-03-03',
        rule: 'complementary_limit',
        detail: { minutes: 300, limit_minutes: 276 },
        status: 'open',
        law: 'ET art. 12.5',
      },
    ]);
    // The worker's document of March lists it with the month's other legal-limit warnings.
    expect(await documentText('2027-03', employee.id)).toContain(
      '2027-03-03 · horas complementarias del mes por encima del límite pactado: 5:00 (límite 4:36) · ET art. 12.5',
    );
    // A larger agreed limit from March on settles it.
    at('2027-03-03T20:00:00');
    const raised = await company.live.patch(`/v1/employees/${employee.id}`, {
      complementary_limit_percentage: 30,
      effective_from: '2027-03-01',
    });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(await list()).toEqual([]);
  });

  it("never reclassifies a closed month's overtime: a change of terms back into it is refused and changes nothing", async () => {
    const other = await ctx.createCompany({ timezone: ZONE });
    const employee = await hire(other.live, { work_schedule: FOUR_HOURS, hire_date: '2027-01-01' });
    for (const [type, time] of [
      ['in', '2027-04-05T09:00:00'],
      ['out', '2027-04-05T15:00:00'],
    ] as const) {
      at(time);
      const response = await other.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type,
        timestamp: instant(time).toString(),
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    at('2027-05-03T09:00:00');
    expect((await other.live.post('/v1/registry/months/2027-04/close')).statusCode).toBe(200);
    const read = async () =>
      (
        await other.live.get('/v1/work-summaries', {
          query: { period: 'month', from: '2027-04-01', to: '2027-04-30', employee_id: employee.id },
        })
      ).json().data[0];
    const before = await read();
    expect(before).toMatchObject({ overtime_minutes: 120, complementary_minutes: 0 });
    // The company would rather the 2 hours were complementary (no overtime surcharge, no yearly cap).
    const refused = await other.live.patch(`/v1/employees/${employee.id}`, {
      contract_type: 'part_time',
      effective_from: '2027-04-01',
    });
    expect(refused.statusCode).toBe(409);
    expect(await read()).toEqual(before);
    // An operator flipping the stored day by SQL is caught by verification: the stored figures no longer match.
    const clean = await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: other.id } });
    expect(clean.json().ok, clean.body).toBe(true);
    await rewriteStoredDay(
      ctx.db,
      { companyId: other.id, employeeId: employee.id, date: '2027-04-05' },
      {
        part_time: true,
      },
    );
    const verified = await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: other.id } });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().ok).toBe(false);
    expect(verified.json().problems).toContainEqual(
      expect.objectContaining({ kind: 'figures_mismatch', employee_id: employee.id }),
    );
  });
});
