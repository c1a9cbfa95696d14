import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';
import { rewriteStoredDay } from '../../../helpers/tamper.ts';

/**
 * Worked holidays reported apart (issue 38): the minutes worked on a holiday of the employee's calendar are
 * `holiday_worked_minutes` in every work summary row, whether the holiday was there before the work or added
 * after it (a company holiday, or a local one of the employee's centre only), and verification's recomputation
 * finds what is stored.
 */
let ctx: TestContext;
let company: TestCompany;

const ZONE = 'Europe/Madrid';
const instant = (local: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(ZONE).toInstant();

async function work(employeeId: string, date: string, from: string, to: string) {
  for (const [type, time] of [
    ['in', from],
    ['out', to],
  ] as const) {
    const response = await company.live.post('/v1/check-ins', {
      employee_id: employeeId,
      type,
      timestamp: instant(`${date}T${time}:00`).toString(),
    });
    expect(response.statusCode, response.body).toBe(201);
  }
}

async function days(employeeId: string, from: string, to: string) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'day', from, to, employee_id: employeeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<Record<string, number | string>>;
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
  pinClock(ctx.clock, instant('2027-06-30T12:00:00').toString());
});
afterAll(() => ctx.close());

describe('worked holidays', () => {
  it('reports the minutes worked on a holiday apart, however the holiday came', async () => {
    const centre = await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Almacén' });
    expect(centre.statusCode, centre.body).toBe(201);
    const employee = await hire(company.live, { hire_date: '2027-01-01', location_id: centre.json().id });
    const elsewhere = await hire(company.live, { hire_date: '2027-01-01' });
    const holiday = (date: string, name: string, location_id?: string) =>
      ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, { date, name, location_id });

    // A company holiday set before the work, and a local one of her centre added after it.
    expect((await holiday('2027-05-03', 'Fiesta de la empresa')).statusCode).toBe(201);
    await work(employee.id, '2027-05-03', '09:00', '13:00');
    await work(employee.id, '2027-05-04', '09:00', '17:00');
    await work(elsewhere.id, '2027-05-04', '09:00', '17:00');
    expect((await holiday('2027-05-04', 'Fiesta local', centre.json().id)).statusCode).toBe(201);

    expect(
      (await days(employee.id, '2027-05-03', '2027-05-04')).map((day) => [
        day.period_start,
        day.worked_minutes,
        day.expected_minutes,
        day.holiday_worked_minutes,
      ]),
    ).toEqual([
      ['2027-05-03', 240, 0, 240],
      ['2027-05-04', 480, 0, 480],
    ]);
    // The local holiday is not the other employee's: an ordinary day.
    const [other] = await days(elsewhere.id, '2027-05-04', '2027-05-04');
    expect(other).toMatchObject({ worked_minutes: 480, expected_minutes: 480, holiday_worked_minutes: 0 });
    const month = (
      await company.live.get('/v1/work-summaries', {
        query: { period: 'month', from: '2027-05-01', to: '2027-05-31', employee_id: employee.id },
      })
    ).json().data[0];
    expect(month.holiday_worked_minutes).toBe(720);

    // Migration 0049 flags the days stored before it by the same rule: undone here, then its statements run.
    for (const [employeeId, date] of [
      [employee.id, '2027-05-03'],
      [employee.id, '2027-05-04'],
    ] as const) {
      await rewriteStoredDay(ctx.db, { companyId: company.id, employeeId, date }, { holiday: false });
    }
    const migration = await readFile(
      path.resolve(import.meta.dirname, '../../../../src/db/migrations/0049_part_time.sql'),
      'utf8',
    );
    const backfill = migration
      .slice(migration.indexOf('-- Worked holidays'))
      .split(';')
      .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
      .filter((statement) => statement.startsWith('update'));
    expect(backfill).toHaveLength(2);
    for (const statement of backfill) await sql.raw(statement).execute(ctx.db);
    expect(
      (await days(employee.id, '2027-05-03', '2027-05-04')).map((day) => day.holiday_worked_minutes),
    ).toEqual([240, 480]);
    expect((await days(elsewhere.id, '2027-05-04', '2027-05-04'))[0]?.holiday_worked_minutes).toBe(0);

    expect((await company.live.post('/v1/registry/months/2027-05/close')).statusCode).toBe(200);
    const verified = await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: company.id } });
    expect(verified.json().ok, verified.body.slice(0, 500)).toBe(true);
    // The settled month's rollup says the same.
    const settled = (
      await company.live.get('/v1/work-summaries', {
        query: { period: 'year', from: '2027-01-01', to: '2027-12-31', employee_id: employee.id },
      })
    ).json().data[0];
    expect(settled.holiday_worked_minutes).toBe(720);
  });
});
