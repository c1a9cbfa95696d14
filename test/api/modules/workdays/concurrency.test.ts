import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Writers of one employee's days run in parallel without deadlocks: every one of them takes the employee's row
 * lock first (docs/architecture.md, Lock order). Before that rule, two simultaneous check-ins each took the
 * share lock of the insert's foreign key and then waited for each other's FOR UPDATE.
 */
let ctx: TestContext;
let company: TestCompany;
beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'UTC' });
});
afterAll(() => ctx.close());

const SHIFT = [
  ['in', '09:00'],
  ['out', '12:00'],
  ['in', '13:00'],
  ['out', '17:00'],
] as const;

const dateOf = (round: number) => Temporal.PlainDate.from('2026-01-05').add({ days: round }).toString();

async function workedMinutes(employeeId: string, from: string, to: string) {
  const rows = await ctx.db
    .selectFrom('workdays')
    .select(['date', 'worked_minutes', 'check_ins', 'incomplete_shifts'])
    .where('company_id', '=', company.id)
    .where('employee_id', '=', employeeId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .orderBy('date')
    .execute();
  return rows;
}

describe('parallel writers of one employee', () => {
  it('records 50 rounds of 4 parallel check-ins with no error and correct workdays', async () => {
    const employee = await hire(company.live, { hire_date: '2025-01-01' });
    const statuses: number[] = [];
    for (let round = 0; round < 50; round++) {
      ctx.clock.advance(60); // a fresh rate-limit window per round
      const date = dateOf(round);
      const answers = await Promise.all(
        SHIFT.map(([type, time]) =>
          company.live.post('/v1/check-ins', {
            employee_id: employee.id,
            type,
            timestamp: `${date}T${time}:00Z`,
          }),
        ),
      );
      statuses.push(...answers.map((answer) => answer.statusCode));
    }
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    const days = await workedMinutes(employee.id, dateOf(0), dateOf(49));
    expect(days).toHaveLength(50);
    for (const day of days) {
      expect(day).toMatchObject({ worked_minutes: 420, check_ins: 4, incomplete_shifts: 0 });
    }
  }, 120_000);

  it('decides absences, creates a holiday and records check-ins at once without deadlock', async () => {
    const employees = [
      await hire(company.live, { hire_date: '2025-01-01' }),
      await hire(company.live, { hire_date: '2025-01-01' }),
    ];
    const absences: string[] = [];
    for (const [index, employee] of employees.entries()) {
      ctx.clock.advance(60);
      for (const day of [3, 4]) {
        const answer = await company.live.post('/v1/absences', {
          employee_id: employee.id,
          type: 'vacation',
          start_date: `2026-0${day + index * 2}-10`,
          end_date: `2026-0${day + index * 2}-12`,
        });
        expect(answer.statusCode, answer.body).toBe(201);
        absences.push(answer.json().id);
      }
    }
    ctx.clock.advance(60);
    const work = [
      ...absences.map((id) => company.live.post(`/v1/absences/${id}/approve`, {})),
      ...employees.flatMap((employee) =>
        SHIFT.map(([type, time]) =>
          company.live.post('/v1/check-ins', {
            employee_id: employee.id,
            type,
            timestamp: `2026-03-11T${time}:00Z`,
          }),
        ),
      ),
      ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, { date: '2026-03-11', name: 'Fiesta' }),
    ];
    const answers = await Promise.all(work);
    expect(answers.map((answer) => answer.statusCode).filter((status) => status >= 300)).toEqual([]);
    for (const employee of employees) {
      const [day] = await workedMinutes(employee.id, '2026-03-11', '2026-03-11');
      // On the holiday nobody is expected; the worked minutes of the recorded shift stand.
      expect(day).toMatchObject({ worked_minutes: 420, check_ins: 4 });
    }
  }, 60_000);
});
