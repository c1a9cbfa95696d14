import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';
import { rewriteStoredDay } from '../../../helpers/tamper.ts';

/**
 * Overtime compensation and the yearly cap (issue 38, ET art. 35): overtime compensated with time off goes to the
 * banked balance and does not count towards the 80 hours a year; paid overtime counts and is not banked. The
 * company chooses, a contract period may override it; the year's counted overtime is in the work summaries'
 * year rows and raises alerts at 70 and past 80 hours.
 */
let ctx: TestContext;
let company: TestCompany;

const ZONE = 'Europe/Madrid';
const instant = (local: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(ZONE).toInstant();

/** Days worked 09:00–21:00 (12 hours: 4 of overtime on an 8-hour day), recorded with the clock at `now`. */
async function workDays(client: TestCompany['live'], employeeId: string, dates: string[]) {
  for (const date of dates) {
    for (const [type, time] of [
      ['in', '09:00'],
      ['out', '21:00'],
    ] as const) {
      const response = await client.post('/v1/check-ins', {
        employee_id: employeeId,
        type,
        timestamp: instant(`${date}T${time}:00`).toString(),
      });
      expect(response.statusCode, response.body).toBe(201);
    }
  }
}

/** The weekdays from `from` to `to`, inclusive. */
function weekdays(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let day = Temporal.PlainDate.from(from); day.toString() <= to; day = day.add({ days: 1 })) {
    if (day.dayOfWeek <= 5) dates.push(day.toString());
  }
  return dates;
}

async function yearRow(client: TestCompany['live'], employeeId: string, year: string) {
  const response = await client.get('/v1/work-summaries', {
    query: { period: 'year', from: `${year}-01-01`, to: `${year}-12-31`, employee_id: employeeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json().data).toHaveLength(1);
  return response.json().data[0];
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
  pinClock(ctx.clock, instant('2027-06-30T12:00:00').toString());
});
afterAll(() => ctx.close());

describe('overtime compensation and the yearly cap', () => {
  it('counts only paid overtime towards 80 hours a year: a warning at 70, an alert past 80', async () => {
    // Compensated with time off (the company's default) in January, paid from February on.
    const employee = await hire(company.live, { hire_date: '2027-01-01' });
    expect(employee.overtime_compensation).toBeNull();
    const paid = await company.live.patch(`/v1/employees/${employee.id}`, {
      overtime_compensation: 'paid',
      effective_from: '2027-02-01',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().overtime_compensation).toBe('paid');
    const january = weekdays('2027-01-04', '2027-01-15'); // 10 days, 40 hours compensated with rest
    const paidDays = weekdays('2027-02-01', '2027-03-01'); // 21 days, 84 hours paid
    expect([january.length, paidDays.length]).toEqual([10, 21]);
    await workDays(company.live, employee.id, [...january, ...paidDays]);

    const alerts = [];
    for (const rule of ['overtime_yearly_warning', 'overtime_yearly_cap']) {
      const listed = await company.live.get('/v1/compliance-alerts', {
        query: { employee_id: employee.id, rule },
      });
      alerts.push(...listed.json().data);
    }
    // Without January's 40 hours: 70 hours on the 18th paid day, past 80 on the 21st (80 exactly is the 20th).
    expect(
      alerts.map((alert: Record<string, unknown>) => [alert.rule, alert.date, alert.detail, alert.law]),
    ).toEqual([
      ['overtime_yearly_warning', '2027-02-24', { minutes: 4320, limit_minutes: 4200 }, 'ET art. 35.2'],
      ['overtime_yearly_cap', '2027-03-01', { minutes: 5040, limit_minutes: 4800 }, 'ET art. 35.2'],
    ]);

    const year = await yearRow(company.live, employee.id, '2027');
    // Every weekday up to yesterday (29 June) is a closed workday: those not worked count 8 hours short.
    const closed = weekdays('2027-01-01', '2027-06-29').length;
    expect(year).toMatchObject({
      period_start: '2027-01-01',
      period_end: '2027-12-31',
      source_days: closed,
      worked_minutes: 31 * 720,
      expected_minutes: closed * 480,
      overtime_minutes: 31 * 240,
      overtime_counted_minutes: 21 * 240,
      // January's overtime is banked; February's is paid, not banked.
      banked_hours_balance_minutes: 31 * 720 - closed * 480 - 21 * 240,
    });
    // The month rows say the same, month by month.
    const months = (
      await company.live.get('/v1/work-summaries', {
        query: { period: 'month', from: '2027-01-01', to: '2027-03-31', employee_id: employee.id },
      })
    ).json().data;
    expect(months.map((row: Record<string, number>) => row.overtime_counted_minutes)).toEqual([
      0,
      20 * 240,
      240,
    ]);

    // 1 March's overtime repaired a flood (ET 35.3): it is still paid, but no longer counted, and the year is back
    // at 80 hours, not past them. Removing the mark brings the alert back.
    const rules = async () => {
      const found: string[] = [];
      for (const rule of ['overtime_yearly_warning', 'overtime_yearly_cap']) {
        const listed = await company.live.get('/v1/compliance-alerts', {
          query: { employee_id: employee.id, rule },
        });
        found.push(...listed.json().data.map((alert: { rule: string }) => alert.rule));
      }
      return found;
    };
    const marked = await company.live.post('/v1/force-majeure-days', {
      employee_id: employee.id,
      date: '2027-03-01',
      reason: 'Inundación del almacén',
    });
    expect(marked.statusCode, marked.body).toBe(201);
    expect(marked.json()).toMatchObject({
      employee_id: employee.id,
      date: '2027-03-01',
      reason: 'Inundación del almacén',
    });
    const twice = await company.live.post('/v1/force-majeure-days', {
      employee_id: employee.id,
      date: '2027-03-01',
      reason: 'Otra vez',
    });
    expect(twice.statusCode).toBe(409);
    expect(await yearRow(company.live, employee.id, '2027')).toMatchObject({
      overtime_minutes: 31 * 240,
      overtime_counted_minutes: 20 * 240,
      banked_hours_balance_minutes: year.banked_hours_balance_minutes,
    });
    expect(await rules()).toEqual(['overtime_yearly_warning']);
    const listed = await company.live.get('/v1/force-majeure-days', { query: { employee_id: employee.id } });
    expect(listed.json().data.map((mark: { id: string }) => mark.id)).toEqual([marked.json().id]);
    expect((await company.live.delete(`/v1/force-majeure-days/${marked.json().id}`)).statusCode).toBe(204);
    expect(await rules()).toEqual(['overtime_yearly_warning', 'overtime_yearly_cap']);
  });

  it('applies a change of the company’s compensation to the open period only', async () => {
    const other = await ctx.createCompany({ timezone: ZONE });
    const employee = await hire(other.live, { hire_date: '2027-01-01' });
    await workDays(other.live, employee.id, ['2027-04-05', '2027-05-03']);
    expect((await other.live.post('/v1/registry/months/2027-04/close')).statusCode).toBe(200);
    const before = await yearRow(other.live, employee.id, '2027');
    expect(before).toMatchObject({ overtime_minutes: 480, overtime_counted_minutes: 0 });

    const changed = await ctx.admin.patch(`/admin/v1/companies/${other.id}`, {
      overtime_compensation: 'paid',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().overtime_compensation).toBe('paid');
    // April is closed: its 4 hours stay compensated with rest; May's are now paid.
    const after = await yearRow(other.live, employee.id, '2027');
    expect(after).toMatchObject({
      overtime_minutes: 480,
      overtime_counted_minutes: 240,
      banked_hours_balance_minutes: before.banked_hours_balance_minutes - 240,
    });
    const [april, may] = (
      await other.live.get('/v1/work-summaries', {
        query: { period: 'month', from: '2027-04-01', to: '2027-05-31', employee_id: employee.id },
      })
    ).json().data;
    expect([april.overtime_counted_minutes, may.overtime_counted_minutes]).toEqual([0, 240]);
    // A closed month's counted overtime never moves: no force majeure mark can reach into April.
    const late = await other.live.post('/v1/force-majeure-days', {
      employee_id: employee.id,
      date: '2027-04-05',
      reason: 'Dicho tarde',
    });
    expect(late.statusCode).toBe(409);
    const verified = await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: other.id } });
    expect(verified.json().ok, verified.body.slice(0, 500)).toBe(true);
    // An operator who turns closed April's overtime into paid overtime by SQL (or May's back into time off, to
    // hide it from the yearly cap) is named by verification: the stored day no longer matches its records.
    await rewriteStoredDay(
      ctx.db,
      { companyId: other.id, employeeId: employee.id, date: '2027-04-05' },
      {
        overtime_paid: true,
      },
    );
    await rewriteStoredDay(
      ctx.db,
      { companyId: other.id, employeeId: employee.id, date: '2027-05-03' },
      {
        overtime_paid: false,
      },
    );
    const tampered = await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: other.id } });
    expect(tampered.json().ok).toBe(false);
    expect(
      tampered
        .json()
        .problems.filter((problem: { kind: string }) => problem.kind === 'figures_mismatch')
        .map((problem: { expected: string }) => JSON.parse(problem.expected)[0]),
    ).toEqual(['2027-04-05', '2027-05-03']);
  });
});
