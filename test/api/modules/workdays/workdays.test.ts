import { beforeEach, describe, expect, it } from 'vitest';
import { consolidate } from '../../../../src/modules/workdays/consolidation.ts';
import { useCompanyContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * The stored daily table is kept by consolidation on every change that touches a day: check-ins (late ones
 * too), absence decisions, holidays, and schedule or employment changes. Consolidating again changes nothing.
 */
const env = useCompanyContext();
beforeEach(() => env.ctx.clock.advance(60));

const madrid = (local: string) =>
  Temporal.PlainDateTime.from(local).toZonedDateTime('Europe/Madrid').toInstant().toString();

async function days(employeeId: string, from = '0001-01-01', to = '9999-12-31') {
  return await env.ctx.db
    .selectFrom('workdays')
    .select([
      'date',
      'worked_minutes',
      'break_minutes',
      'night_minutes',
      'expected_minutes',
      'absences_minutes',
      'anomalies',
      'check_ins',
      'incomplete_shifts',
      'open_since',
    ])
    .where('company_id', '=', env.company.id)
    .where('employee_id', '=', employeeId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .orderBy('date')
    .execute();
}

async function clockIn(employeeId: string, type: string, local: string) {
  const response = await env.company.live.post('/v1/check-ins', {
    employee_id: employeeId,
    type,
    timestamp: madrid(local),
  });
  expect(response.statusCode, response.body).toBe(201);
}

describe('workday consolidation', () => {
  it('materialises the calendar from the hire date through the end of next year', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-01-01' });
    const rows = await days(employee.id);
    expect(rows[0]).toMatchObject({
      date: '2026-01-01',
      expected_minutes: 480,
      worked_minutes: 0,
      check_ins: 0,
    });
    expect(rows.at(-1)?.date).toBe('2027-12-31');
    // Weekdays only: 261 in 2026 and 261 in 2027.
    expect(rows).toHaveLength(522);
    expect(rows.find((row) => row.date === '2026-01-03')).toBeUndefined();
  });

  it('re-consolidates the day of a late check-in, including the previous day of a night shift', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-01-01' });
    await clockIn(employee.id, 'in', '2026-03-10T22:00');
    expect((await days(employee.id, '2026-03-10', '2026-03-10'))[0]).toMatchObject({
      worked_minutes: 0,
      open_since: new Date(madrid('2026-03-10T22:00')),
    });
    // The out arrives days later (offline sync) and closes the shift of the 10th.
    await clockIn(employee.id, 'out', '2026-03-11T06:30');
    await clockIn(employee.id, 'break_start', '2026-03-11T02:00');
    await clockIn(employee.id, 'break_end', '2026-03-11T02:30');
    const [tenth, eleventh] = await days(employee.id, '2026-03-10', '2026-03-11');
    expect(tenth).toMatchObject({
      worked_minutes: 480,
      break_minutes: 30,
      night_minutes: 450,
      check_ins: 1,
      open_since: null,
      incomplete_shifts: 0,
    });
    expect(eleventh).toMatchObject({ worked_minutes: 0, check_ins: 3, anomalies: 0, expected_minutes: 480 });
  });

  it('applies approved absences, and cancelling restores the day', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-01-01' });
    const absence = (
      await env.company.live.post('/v1/absences', {
        employee_id: employee.id,
        type: 'vacation',
        start_date: '2026-04-06',
        end_date: '2026-04-07',
      })
    ).json();
    expect((await days(employee.id, '2026-04-06', '2026-04-06'))[0]).toMatchObject({ expected_minutes: 480 });
    await env.company.live.post(`/v1/absences/${absence.id}/approve`);
    expect(await days(employee.id, '2026-04-06', '2026-04-07')).toMatchObject([
      { expected_minutes: 0, absences_minutes: 480 },
      { expected_minutes: 0, absences_minutes: 480 },
    ]);
    await env.company.live.post(`/v1/absences/${absence.id}/cancel`);
    expect((await days(employee.id, '2026-04-06', '2026-04-06'))[0]).toMatchObject({
      expected_minutes: 480,
      absences_minutes: 0,
    });
    const half = (
      await env.company.live.post('/v1/absences', {
        employee_id: employee.id,
        type: 'sick_leave',
        start_date: '2026-04-08',
        end_date: '2026-04-08',
        half_day: true,
      })
    ).json();
    await env.company.live.post(`/v1/absences/${half.id}/approve`);
    expect((await days(employee.id, '2026-04-08', '2026-04-08'))[0]).toMatchObject({
      expected_minutes: 240,
      absences_minutes: 240,
    });
  });

  it('applies a new holiday across the company, keeping days that have check-ins', async () => {
    const worker = await hire(env.company.live, { hire_date: '2026-01-01' });
    const idle = await hire(env.company.live, { hire_date: '2026-01-01' });
    await clockIn(worker.id, 'in', '2026-05-15T09:00');
    await clockIn(worker.id, 'out', '2026-05-15T13:00');
    await env.ctx.admin.post(`/admin/v1/companies/${env.company.id}/holidays`, {
      date: '2026-05-15',
      name: 'San Isidro',
    });
    expect(await days(worker.id, '2026-05-15', '2026-05-15')).toMatchObject([
      { expected_minutes: 0, absences_minutes: 0, worked_minutes: 240 },
    ]);
    expect(await days(idle.id, '2026-05-15', '2026-05-15')).toEqual([]);
    // The monthly rollups follow the set-based change too: May lost one expected day for both.
    const rollups = await env.ctx.db
      .selectFrom('workday_months')
      .select(['employee_id', 'expected_minutes', 'worked_minutes', 'source_days'])
      .where('company_id', '=', env.company.id)
      .where('employee_id', 'in', [worker.id, idle.id])
      .where('month', '=', '2026-05-01')
      .execute();
    // May 2026 has 21 weekdays; 15 May is now a holiday (kept as a day for the worker, who clocked in).
    expect(rollups.find((row) => row.employee_id === idle.id)).toMatchObject({
      expected_minutes: 20 * 480,
      source_days: 20,
    });
    expect(rollups.find((row) => row.employee_id === worker.id)).toMatchObject({
      expected_minutes: 20 * 480,
      worked_minutes: 240,
      source_days: 21,
    });
    // A later consolidation of that date agrees with the set-based change.
    await clockIn(worker.id, 'break_start', '2026-05-15T10:00');
    await clockIn(worker.id, 'break_end', '2026-05-15T10:15');
    expect(await days(worker.id, '2026-05-15', '2026-05-15')).toMatchObject([
      { expected_minutes: 0, absences_minutes: 0, worked_minutes: 225, break_minutes: 15, check_ins: 4 },
    ]);
  });

  it('re-consolidates from a schedule change’s effective date, and after termination', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-01-01' });
    await env.company.live.patch(`/v1/employees/${employee.id}`, {
      work_schedule: { mon: 0, tue: 0, wed: 0, thu: 0, fri: 0, sat: 300, sun: 300 },
      effective_from: '2026-02-01',
    });
    // The week before keeps the old schedule.
    const before = await days(employee.id, '2026-01-26', '2026-02-01');
    expect(before.map((row) => [row.date, row.expected_minutes])).toEqual([
      ['2026-01-26', 480],
      ['2026-01-27', 480],
      ['2026-01-28', 480],
      ['2026-01-29', 480],
      ['2026-01-30', 480],
      ['2026-02-01', 300],
    ]);
    const week = await days(employee.id, '2026-02-02', '2026-02-08');
    expect(week.map((row) => [row.date, row.expected_minutes])).toEqual([
      ['2026-02-07', 300],
      ['2026-02-08', 300],
    ]);
    await env.company.live.post(`/v1/employees/${employee.id}/terminate`, { termination_date: '2026-06-30' });
    expect((await days(employee.id)).at(-1)?.date).toBe('2026-06-28');
    const history = (await env.company.live.get(`/v1/employees/${employee.id}/contract-history`)).json();
    expect(history.data.map((period: { effective_from: string }) => period.effective_from)).toEqual([
      '2026-01-01',
      '2026-02-01',
    ]);
  });

  it('is idempotent: consolidating again changes nothing', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-01-01' });
    await clockIn(employee.id, 'in', '2026-02-02T08:00');
    await clockIn(employee.id, 'in', '2026-02-03T07:00');
    await clockIn(employee.id, 'out', '2026-02-03T15:00');
    await clockIn(employee.id, 'out', '2026-02-04T07:00');
    const once = await days(employee.id);
    expect(once.find((row) => row.date === '2026-02-02')).toMatchObject({ incomplete_shifts: 1 });
    await env.ctx.db.transaction().execute(async (tx) => {
      await consolidate(
        tx,
        env.company.id,
        'Europe/Madrid',
        employee.id,
        { from: '2026-01-01', to: '2027-12-31' },
        new Date(),
      );
      await consolidate(
        tx,
        env.company.id,
        'Europe/Madrid',
        employee.id,
        { from: '2026-01-15', to: '2026-03-01' },
        new Date(),
      );
    });
    expect(await days(employee.id)).toEqual(once);
  });

  it('does not depend on the order in which check-ins were recorded', async () => {
    const sequence: Array<[string, string]> = [
      ['in', '2026-02-09T21:00'],
      ['break_start', '2026-02-10T01:00'],
      ['break_end', '2026-02-10T01:20'],
      ['out', '2026-02-10T05:00'],
      ['in', '2026-02-10T21:30'],
      ['out', '2026-02-11T04:00'],
      ['break_end', '2026-02-11T12:00'],
    ];
    const a = await hire(env.company.live, { hire_date: '2026-01-01' });
    const b = await hire(env.company.live, { hire_date: '2026-01-01' });
    for (const [type, local] of sequence) await clockIn(a.id, type, local);
    for (const [type, local] of [...sequence].reverse()) await clockIn(b.id, type, local);
    expect(await days(b.id)).toEqual(await days(a.id));
    expect((await days(a.id, '2026-02-09', '2026-02-09'))[0]).toMatchObject({
      worked_minutes: 460,
      night_minutes: 400,
    });
  });
});

describe('the calendar horizon', () => {
  it('is extended by the maintenance job so that a year ahead is always materialised', async () => {
    const { extendHorizons } = await import('../../../../src/jobs/maintenance.ts');
    const employee = await hire(env.company.live, { hire_date: '2026-01-01' });
    expect((await days(employee.id)).at(-1)?.date).toBe('2027-12-31');
    // Nothing is due while the horizon covers next year.
    const handledNow = await extendHorizons(env.ctx.db, env.ctx.clock.now());
    expect(handledNow).toBe(0);
    const handled = await extendHorizons(env.ctx.db, Temporal.Instant.from('2028-01-15T00:00:00Z'));
    expect(handled).toBeGreaterThan(0);
    const rows = await days(employee.id, '2028-01-01');
    expect(rows[0]).toMatchObject({ date: '2028-01-03', expected_minutes: 480 });
    expect(rows.at(-1)?.date).toBe('2029-12-31');
    while ((await extendHorizons(env.ctx.db, Temporal.Instant.from('2028-01-15T00:00:00Z'))) > 0);
    expect(await extendHorizons(env.ctx.db, Temporal.Instant.from('2028-01-15T00:00:00Z'))).toBe(0);
  });
});
