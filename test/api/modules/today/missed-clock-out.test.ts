import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, dashboardSession } from '../../../helpers/dashboard.ts';
import { joinPortal, type PortalWorker } from '../../../helpers/portal.ts';

/**
 * Missed clock-outs (issue 38): a worker clocks in on Monday at 09:09, takes a break 13:00–14:46, and never clocks
 * out. Working, the Today view and the portal say "since 09:09" (not the return from the break); from 16 hours
 * after the `in`, the shift is a probable missed clock-out, never "working now"; the portal offers the correction
 * and a normal clock-in; Wednesday's `in` starts a new day; the correction that adds Monday's `out` settles Monday
 * and takes it off the problem list.
 */
let ctx: TestContext;
let company: TestCompany;
let admin: { email: string; password: string };
let worker: PortalWorker;
let employeeId: string;
let email: string;

const ZONE = 'Europe/Madrid';
const instant = (local: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(ZONE).toInstant();
/** An instant as the API writes it (toISOString). */
const stamp = (local: string) => new Date(instant(local).epochMilliseconds).toISOString();
const iso = (local: string) => instant(local).toString({ smallestUnit: 'second' });
/** Moves the fake clock to a Madrid wall-clock time. */
const at = (local: string) => pinClock(ctx.clock, instant(local).toString());

async function home() {
  const session = await dashboardSession(ctx, admin.email, admin.password);
  const response = await session.call('GET', '/dashboard/api/live/today');
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  return {
    person: body.people.find((person: { employee_id: string }) => person.employee_id === employeeId),
    problems: body.problems.filter((row: { employee_id: string }) => row.employee_id === employeeId),
  };
}

/** The portal's view, from a fresh login (the clock jumps further than a session lasts). */
/** The work summaries of Monday (its day row) and of January (its month row). */
async function summaries() {
  const read = async (period: 'day' | 'month', to: string) => {
    const response = await company.live.get('/v1/work-summaries', {
      query: { employee_id: employeeId, period, from: '2027-01-11', to },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data[0];
  };
  return { monday: await read('day', '2027-01-11'), january: await read('month', '2027-01-31') };
}

async function me() {
  expect((await worker.login(email, 'correct horse battery')).statusCode).toBe(200);
  const response = await worker.send('GET', '/portal/api/me');
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
  admin = await createAdmin(ctx, company.id);
  at('2027-01-11T09:09:00');
  const joined = await joinPortal(ctx, company.live, { first_name: 'Olvido', last_name: 'Salida' });
  worker = joined.worker;
  employeeId = joined.employee.id;
  email = joined.employee.email;
});
afterAll(() => ctx.close());

describe('a missed clock-out', () => {
  it('is working since the in, then a probable missed clock-out, then settled by the correction alone', async () => {
    const clock = async (type: string, local: string) => {
      const response = await company.live.post('/v1/check-ins', {
        employee_id: employeeId,
        type,
        timestamp: iso(local),
      });
      expect(response.statusCode, response.body).toBe(201);
    };
    await clock('in', '2027-01-11T09:09:00');
    at('2027-01-11T13:00:00');
    await clock('break_start', '2027-01-11T13:00:00');
    at('2027-01-11T14:46:00');
    await clock('break_end', '2027-01-11T14:46:00');

    // Monday afternoon: working since 09:09, not since the return from the break.
    at('2027-01-11T16:00:00');
    expect((await home()).person).toMatchObject({
      state: 'in',
      since: stamp('2027-01-11T09:09:00'),
    });
    expect((await summaries()).monday).toMatchObject({
      missing_clock_out: false,
      missing_clock_out_since: null,
    });
    const working = await me();
    expect(working.open_shift).toEqual({
      since: stamp('2027-01-11T09:09:00'),
      date: '2027-01-11',
      missed_clock_out: false,
    });

    // Tuesday morning, 23 hours on: a probable missed clock-out, never "in".
    at('2027-01-12T08:00:00');
    const tuesday = await home();
    expect(tuesday.person).toMatchObject({
      state: 'missed_clock_out',
      since: stamp('2027-01-11T09:09:00'),
    });
    expect((await me()).open_shift).toMatchObject({ date: '2027-01-11', missed_clock_out: true });
    // The work summaries say so, on Monday's row and January's; Monday counts no time until corrected.
    const missing = await summaries();
    const since = { missing_clock_out: true, missing_clock_out_since: iso('2027-01-11T09:09:00') };
    expect(missing.monday).toMatchObject({ ...since, incomplete_days: 1, worked_minutes: 0 });
    expect(missing.january).toMatchObject(since);
    // 16 hours is the line: Tuesday 01:08:30 is not yet, 01:09 is.
    at('2027-01-12T01:08:30');
    expect((await home()).person.state).toBe('in');
    at('2027-01-12T01:09:00');
    expect((await home()).person.state).toBe('missed_clock_out');

    // Wednesday: the worker clocks in as usual from the portal; the new in starts a new day.
    at('2027-01-13T08:55:00');
    await me();
    const clockIn = await worker.send('POST', '/portal/api/check-ins', { type: 'in', work_mode: 'on_site' });
    expect(clockIn.statusCode, clockIn.body).toBe(201);
    // Recorded at the service's clock, which runs on from 08:55.
    const wednesdayIn = new Date(clockIn.json().timestamp).toISOString();
    const wednesday = await home();
    expect(wednesday.person).toMatchObject({ state: 'in', since: wednesdayIn });
    expect((await me()).open_shift).toMatchObject({ date: '2027-01-13', missed_clock_out: false });
    // Monday is a problem day: its shift has no out.
    expect(wednesday.problems).toEqual([
      expect.objectContaining({ date: '2027-01-11', incomplete_shifts: 1 }),
    ]);

    // The worker asks for the missing out; the company approves; Monday is settled and leaves the problem list,
    // although the added out is a late record (it is the correction's, reviewed by both).
    await me();
    const requested = await worker.send('POST', '/portal/api/corrections', {
      reason: 'Olvidé fichar la salida',
      add: [{ type: 'out', timestamp: iso('2027-01-11T18:00:00') }],
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const correction = requested.json();
    const approved = await company.live.post(`/v1/check-in-corrections/${correction.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('applied');
    const added = (
      await company.live.get('/v1/check-ins', {
        query: { employee_id: employeeId, from: iso('2027-01-11T17:00:00'), to: iso('2027-01-11T19:00:00') },
      })
    ).json().data;
    expect(added).toEqual([
      expect.objectContaining({ type: 'out', late: true, correction_id: correction.id }),
    ]);
    const settled = await home();
    expect(settled.problems).toEqual([]);
    expect(settled.person).toMatchObject({ state: 'in', since: wednesdayIn });
    // 09:09–18:00 less the 1 h 46 min break, and nothing missing any more.
    const settledSummaries = await summaries();
    expect(settledSummaries.monday).toMatchObject({
      worked_minutes: 425,
      incomplete_days: 0,
      missing_clock_out: false,
      missing_clock_out_since: null,
    });
    expect(settledSummaries.january.missing_clock_out).toBe(false);
  });
});
