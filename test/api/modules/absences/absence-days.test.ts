import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';
import { eventsDuring, hire } from '../../../helpers/resources.ts';

/**
 * An absence's days_count follows the calendar (docs/time-rules.md, Holidays): a holiday added or removed, a
 * contract change and a move to another work centre recount the requested and approved absences over the dates
 * that change, and only those dates, so a closed month keeps what it was closed with.
 */
let ctx: TestContext;
let company: TestCompany;
let session: DashboardSession;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  await ctx.admin.post(`/admin/v1/companies/${company.id}/absence-types`, {
    key: 'training',
    label: 'Training',
  });
  const admin = await createAdmin(ctx, company.id);
  session = await dashboardSession(ctx, admin.email, admin.password);
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.advance(60));

async function absence(tenant: TestCompany, fields: Record<string, unknown>) {
  const response = await tenant.live.post('/v1/absences', { type: 'vacation', ...fields });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; days_count: number; updated_at: string };
}

async function current(tenant: TestCompany, id: string) {
  const response = await tenant.live.get(`/v1/absences/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { id: string; days_count: number; updated_at: string; status: string };
}

async function usedDays(employeeId: string, year: number): Promise<number> {
  const response = await company.live.get('/v1/vacation-balances', {
    query: { year, employee_id: employeeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0].used_days;
}

const centre = async (tenant: TestCompany, name: string) =>
  (await ctx.admin.post(`/admin/v1/companies/${tenant.id}/locations`, { name })).json().id as string;

/** A new employee's vacation from Monday 14 to Friday 18 December 2026: five working days. */
async function weekOfVacation() {
  const employee = await hire(company.live, { hire_date: '2026-01-01' });
  const vacation = await absence(company, {
    employee_id: employee.id,
    start_date: '2026-12-14',
    end_date: '2026-12-18',
  });
  expect(vacation.days_count).toBe(5);
  return { employee, vacation };
}

describe('a holiday', () => {
  it('added inside a vacation counts one day less (balance, updated_at, event), removed counts it again', async () => {
    const { employee, vacation } = await weekOfVacation();
    expect((await company.live.post(`/v1/absences/${vacation.id}/approve`)).statusCode).toBe(200);
    const approved = await current(company, vacation.id);
    expect(await usedDays(employee.id, 2026)).toBe(5);
    const training = await absence(company, {
      type: 'training',
      employee_id: employee.id,
      start_date: '2026-12-21',
      end_date: '2026-12-22',
    });
    // A denied request keeps the count it was denied with.
    const other = await hire(company.live, { hire_date: '2026-01-01' });
    const denied = await absence(company, {
      employee_id: other.id,
      start_date: '2026-12-16',
      end_date: '2026-12-16',
    });
    expect((await company.live.post(`/v1/absences/${denied.id}/reject`)).statusCode).toBe(200);
    // Another company's vacation over the same date is not theirs to change.
    const stranger = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    const theirs = await absence(stranger, {
      employee_id: (await hire(stranger.live, { hire_date: '2026-01-01' })).id,
      start_date: '2026-12-16',
      end_date: '2026-12-16',
    });

    ctx.clock.advance(60);
    let holidayId = '';
    const added = await eventsDuring(ctx.db, company.id, async () => {
      const created = await session.call('POST', '/dashboard/api/live/holidays', {
        date: '2026-12-16',
        name: 'Fiesta',
      });
      expect(created.statusCode, created.body).toBe(201);
      holidayId = created.json().id;
    });
    const updated = (days_count: number) => ({
      type: 'absence.updated',
      data: { absence_id: vacation.id, employee_id: employee.id, status: 'approved', days_count },
    });
    expect(added).toEqual([
      updated(4),
      { type: 'vacation_balance.updated', data: { employee_id: employee.id, year: 2026 } },
    ]);
    const recounted = await current(company, vacation.id);
    expect(recounted).toMatchObject({ status: 'approved', days_count: 4 });
    expect(recounted.updated_at > approved.updated_at).toBe(true);
    expect(await usedDays(employee.id, 2026)).toBe(4);
    // A client syncing with updated_since sees it.
    const changed = await company.live.get('/v1/absences', { query: { updated_since: approved.updated_at } });
    expect(changed.json().data.map((row: { id: string }) => row.id)).toContain(vacation.id);
    // Absences without that date, denied ones and another company's are as they were.
    expect(await current(company, training.id)).toEqual(training);
    expect((await current(company, denied.id)).days_count).toBe(1);
    expect(await current(stranger, theirs.id)).toEqual(theirs);

    const removed = await eventsDuring(ctx.db, company.id, async () => {
      const response = await session.call('DELETE', `/dashboard/api/live/holidays/${holidayId}`);
      expect(response.statusCode, response.body).toBe(204);
    });
    expect(removed).toEqual([
      updated(5),
      { type: 'vacation_balance.updated', data: { employee_id: employee.id, year: 2026 } },
    ]);
    expect((await current(company, vacation.id)).days_count).toBe(5);
    expect(await usedDays(employee.id, 2026)).toBe(5);
  });

  it("of a work centre recounts that centre's employees only, and a half day by half", async () => {
    const valencia = await centre(company, 'Valencia');
    const here = await hire(company.live, { hire_date: '2026-01-01', location_id: valencia });
    const there = await hire(company.live, { hire_date: '2026-01-01' });
    // Tuesday 15 December 2026.
    const half = await absence(company, {
      type: 'training',
      employee_id: here.id,
      start_date: '2026-12-15',
      end_date: '2026-12-15',
      half_day: true,
    });
    expect(half.days_count).toBe(0.5);
    const elsewhere = await absence(company, {
      employee_id: there.id,
      start_date: '2026-12-14',
      end_date: '2026-12-15',
    });
    const events = await eventsDuring(ctx.db, company.id, async () => {
      const created = await session.call('POST', '/dashboard/api/live/holidays', {
        date: '2026-12-15',
        name: 'Fiesta local',
        location_id: valencia,
      });
      expect(created.statusCode, created.body).toBe(201);
    });
    // Training is not vacation: its new count, and no balance event.
    expect(events).toEqual([
      {
        type: 'absence.updated',
        data: { absence_id: half.id, employee_id: here.id, status: 'requested', days_count: 0 },
      },
    ]);
    expect((await current(company, half.id)).days_count).toBe(0);
    expect(await current(company, elsewhere.id)).toEqual(elsewhere);
  });
});

describe('a contract change', () => {
  it('recounts the days from its effective date by the new schedule', async () => {
    const { employee, vacation } = await weekOfVacation();
    const events = await eventsDuring(ctx.db, company.id, async () => {
      // No Wednesdays from Wednesday 16 December: Monday, Tuesday, Thursday and Friday are left.
      const changed = await company.live.patch(`/v1/employees/${employee.id}`, {
        work_schedule: { mon: 480, tue: 480, wed: 0, thu: 480, fri: 480, sat: 0, sun: 0 },
        effective_from: '2026-12-16',
      });
      expect(changed.statusCode, changed.body).toBe(200);
    });
    expect(events).toContainEqual({
      type: 'vacation_balance.updated',
      data: { employee_id: employee.id, year: 2026 },
    });
    expect(events).toContainEqual({
      type: 'absence.updated',
      data: { absence_id: vacation.id, employee_id: employee.id, status: 'requested', days_count: 4 },
    });
    expect((await current(company, vacation.id)).days_count).toBe(4);
    // A change that leaves the working days as they were changes no count.
    const same = await company.live.patch(`/v1/employees/${employee.id}`, {
      work_schedule: { mon: 240, tue: 480, wed: 0, thu: 480, fri: 480, sat: 0, sun: 0 },
      effective_from: '2026-12-17',
    });
    expect(same.statusCode, same.body).toBe(200);
    expect((await current(company, vacation.id)).days_count).toBe(4);
  });
});

describe('a move to another work centre', () => {
  it("recounts the open period by the new centre's holidays; a closed month keeps its count", async () => {
    // The fake clock follows the real one: the previous month can be closed, the current one is open.
    const tenant = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    const admin = await createAdmin(ctx, tenant.id);
    const tenantSession = await dashboardSession(ctx, admin.email, admin.password);
    const today = ctx.clock.now().toZonedDateTimeISO('Europe/Madrid').toPlainDate();
    const firstOfMonth = today.with({ day: 1 });
    const weekday = (date: Temporal.PlainDate, step: 1 | -1) => {
      let day = date;
      while (day.dayOfWeek > 5) day = day.add({ days: step });
      return day;
    };
    // The last weekday of the previous month and the first of this one.
    const closedDay = weekday(firstOfMonth.subtract({ days: 1 }), -1);
    const openDay = weekday(firstOfMonth, 1);
    const from = centre(tenant, 'Madrid');
    const to = centre(tenant, 'Sevilla');
    const employee = await hire(tenant.live, {
      hire_date: firstOfMonth.subtract({ months: 2 }).toString(),
      location_id: await from,
    });
    for (const date of [closedDay, openDay]) {
      const local = await tenantSession.call('POST', '/dashboard/api/live/holidays', {
        date: date.toString(),
        name: 'Fiesta local',
        location_id: await to,
      });
      expect(local.statusCode, local.body).toBe(201);
    }
    const vacation = await absence(tenant, {
      employee_id: employee.id,
      start_date: closedDay.toString(),
      end_date: openDay.toString(),
    });
    const weekdays = closedDay.until(openDay).days + 1 - (openDay.dayOfWeek < closedDay.dayOfWeek ? 2 : 0);
    expect(vacation.days_count).toBe(weekdays);
    const month = closedDay.toPlainYearMonth().toString();
    expect((await tenant.live.post(`/v1/registry/months/${month}/close`)).statusCode).toBe(200);

    const moved = await tenant.live.patch(`/v1/employees/${employee.id}`, { location_id: await to });
    expect(moved.statusCode, moved.body).toBe(200);
    // The open day is the new centre's holiday; the closed day keeps the old centre's calendar.
    expect((await current(tenant, vacation.id)).days_count).toBe(weekdays - 1);
  });
});

describe('a termination', () => {
  it('leaves the days after it uncounted (owed, not taken), also across the new year, and follows a correction', async () => {
    const { employee, vacation } = await weekOfVacation();
    expect((await company.live.post(`/v1/absences/${vacation.id}/approve`)).statusCode).toBe(200);
    // Monday 28 December 2026 to Friday 8 January 2027: 4 days in 2026 and 6 in 2027 (Friday 1 January is not a
    // holiday in this company).
    const winter = await absence(company, {
      employee_id: employee.id,
      start_date: '2026-12-28',
      end_date: '2027-01-08',
    });
    expect(winter.days_count).toBe(10);
    expect(await usedDays(employee.id, 2026)).toBe(5);

    // Leaving on Wednesday 16 December: of the first week, Monday to Wednesday were taken; nothing of the second.
    const events = await eventsDuring(ctx.db, company.id, async () => {
      const left = await company.live.post(`/v1/employees/${employee.id}/terminate`, {
        termination_date: '2026-12-16',
      });
      expect(left.statusCode, left.body).toBe(200);
    });
    const updated = (absence: { id: string }, status: string, days_count: number) => ({
      type: 'absence.updated',
      data: { absence_id: absence.id, employee_id: employee.id, status, days_count },
    });
    expect(events).toEqual([
      { type: 'employee.terminated', data: { employee_id: employee.id } },
      updated(vacation, 'approved', 3),
      updated(winter, 'requested', 0),
      { type: 'vacation_balance.updated', data: { employee_id: employee.id, year: 2026 } },
      { type: 'vacation_balance.updated', data: { employee_id: employee.id, year: 2027 } },
    ]);
    expect((await current(company, vacation.id)).days_count).toBe(3);
    expect((await current(company, winter.id)).days_count).toBe(0);
    expect(await usedDays(employee.id, 2026)).toBe(3);

    // The date corrected to Tuesday 5 January 2027: the whole first week, and 28 December to 5 January (4 + 3).
    ctx.clock.advance(60);
    const corrected = await company.live.patch(`/v1/employees/${employee.id}`, {
      termination_date: '2027-01-05',
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect((await current(company, vacation.id)).days_count).toBe(5);
    expect((await current(company, winter.id)).days_count).toBe(7);
    expect(await usedDays(employee.id, 2026)).toBe(5);
    // The requested vacation's 2027 part is pending: Friday 1, Monday 4 and Tuesday 5 January, not the days after.
    const balance2027 = await company.live.get('/v1/vacation-balances', {
      query: { year: 2027, employee_id: employee.id },
    });
    expect(balance2027.json().data[0].pending_days).toBe(3);
  });
});

describe('the recount', () => {
  /** A change of calendar over March 2027 (Monday 1 to Wednesday 31), as the API takes it. */
  type Change =
    | { kind: 'holiday'; day: number }
    | { kind: 'remove' }
    | { kind: 'schedule'; day: number; week: number[] };
  const change = fc.oneof(
    fc.record({ kind: fc.constant('holiday' as const), day: fc.integer({ min: 1, max: 31 }) }),
    fc.record({ kind: fc.constant('remove' as const) }),
    fc.record({
      kind: fc.constant('schedule' as const),
      day: fc.integer({ min: 1, max: 31 }),
      week: fc.array(fc.constantFrom(0, 240, 480), { minLength: 7, maxLength: 7 }),
    }),
  );
  const march = (day: number) => `2027-03-${String(day).padStart(2, '0')}`;

  it('always equals a fresh count of the same days, whatever the changes and their order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 5 }), async (changes: Change[]) => {
        // A company of its own for each run: its holidays are the run's.
        const tenant = await ctx.createCompany({ timezone: 'Europe/Madrid' });
        const admin = await createAdmin(ctx, tenant.id);
        const tenantSession = await dashboardSession(ctx, admin.email, admin.password);
        // The employee whose vacation is recounted, and a twin with the same contract whose requests count afresh.
        const [employee, twin] = [
          await hire(tenant.live, { hire_date: '2026-01-01' }),
          await hire(tenant.live, { hire_date: '2026-01-01' }),
        ];
        const range = { start_date: march(3), end_date: march(24) };
        const recounted = await absence(tenant, { employee_id: employee.id, ...range });
        const holidays: string[] = [];
        for (const step of changes) {
          if (step.kind === 'holiday') {
            const created = await tenantSession.call('POST', '/dashboard/api/live/holidays', {
              date: march(step.day),
              name: 'Fiesta',
            });
            // A second holiday on one date is refused (422) and changes nothing.
            if (created.statusCode === 201) holidays.push(created.json().id);
          } else if (step.kind === 'remove') {
            const id = holidays.pop();
            if (id) await tenantSession.call('DELETE', `/dashboard/api/live/holidays/${id}`);
          } else {
            const [mon, tue, wed, thu, fri, sat, sun] = step.week;
            for (const who of [employee, twin]) {
              const changed = await tenant.live.patch(`/v1/employees/${who.id}`, {
                work_schedule: { mon, tue, wed, thu, fri, sat, sun },
                effective_from: march(step.day),
              });
              expect(changed.statusCode, changed.body).toBe(200);
            }
          }
          // Requested now, the same days are counted from scratch; cancelled at once, so the next one can be made.
          const fresh = await absence(tenant, { employee_id: twin.id, ...range });
          expect((await current(tenant, recounted.id)).days_count).toBe(fresh.days_count);
          expect((await tenant.live.post(`/v1/absences/${fresh.id}/cancel`)).statusCode).toBe(200);
        }
      }),
      { numRuns: 6 },
    );
  }, 120_000);
});
