import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, dashboardSession } from '../../../helpers/dashboard.ts';
import { joinPortal, type PortalWorker } from '../../../helpers/portal.ts';
import { eventsOf, hire } from '../../../helpers/resources.ts';

/**
 * Planned shifts (issue 38): a published shift plans its day's expected minutes (a night shift from its start,
 * across the clock change by its real length), a date that has passed keeps its shifts, overlaps and bulk
 * errors are listed by field, a rota pattern plans two months, and the worker sees what is published.
 */
let ctx: TestContext;
let company: TestCompany;
let admin: { email: string; password: string };
let worker: PortalWorker;
let workerId: string;
let workerEmail: string;

const ZONE = 'Europe/Madrid';
const instant = (local: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(ZONE).toInstant();
const stamp = (local: string) => new Date(instant(local).epochMilliseconds).toISOString();
/** Moves the fake clock to a Madrid wall-clock time. */
const at = (local: string) => pinClock(ctx.clock, instant(local).toString());
const NO_SCHEDULE = { mon: 0, tue: 0, wed: 0, thu: 0, fri: 0, sat: 0, sun: 0 };

async function person(employeeId: string) {
  const session = await dashboardSession(ctx, admin.email, admin.password);
  const response = await session.call('GET', '/dashboard/api/live/today');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().people.find((row: { employee_id: string }) => row.employee_id === employeeId);
}

async function expectedOn(employeeId: string, from: string, to = from, period: 'day' | 'month' = 'day') {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period, from, to, employee_id: employeeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0]?.expected_minutes ?? 0;
}

async function plan(body: Record<string, unknown>) {
  const response = await company.live.post('/v1/shifts', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
  admin = await createAdmin(ctx, company.id);
  at('2026-10-20T09:00:00');
  const joined = await joinPortal(ctx, company.live, { first_name: 'Noche', last_name: 'Turno' });
  worker = joined.worker;
  workerId = joined.employee.id;
  workerEmail = joined.employee.email;
});
afterAll(() => ctx.close());

describe('planned shifts', () => {
  it('plans a night across the October clock change by its real length', async () => {
    // Saturday 24 October 2026, 22:00 to Sunday 06:00: the clocks go back at 03:00, so it lasts 9 hours.
    const shift = await plan({
      employee_id: workerId,
      date: '2026-10-24',
      start: '22:00',
      end: '06:00',
      status: 'published',
    });
    expect(shift).toMatchObject({ planned_minutes: 540, kind: 'work', status: 'published' });
    // A Saturday: nothing by the weekly schedule, 540 by the shift (the summaries list days that have passed).
    at('2026-10-26T09:00:00');
    expect(await expectedOn(workerId, '2026-10-24')).toBe(540);
    expect(await expectedOn(workerId, '2026-10-31')).toBe(0);
  });

  it('expects a night worker from the start of the shift, never in the morning', async () => {
    at('2027-01-04T08:00:00');
    const night = await plan({
      employee_id: workerId,
      date: '2027-01-04',
      start: '22:00',
      end: '06:00',
      break_minutes: 30,
      status: 'published',
    });
    expect(night.planned_minutes).toBe(450);
    // Monday morning: by the weekly schedule they would be "expected, not clocked in yet".
    expect(await person(workerId)).toMatchObject({
      state: 'scheduled',
      expected_minutes: 450,
      shift: { start: stamp('2027-01-04T22:00:00'), end: stamp('2027-01-05T06:00:00') },
    });
    at('2027-01-04T22:10:00');
    expect(await person(workerId)).toMatchObject({ state: 'missing' });
    // Published: the event, and the worker sees it.
    expect(await eventsOf(ctx.db, company.id)).toContainEqual(
      expect.objectContaining({
        type: 'shift.published',
        data: { shift_id: night.id, employee_id: workerId, date: '2027-01-04' },
      }),
    );
  });

  it('keeps the shifts of a date that has passed, and refuses overlaps', async () => {
    at('2027-01-05T10:00:00');
    expect(await expectedOn(workerId, '2027-01-04')).toBe(450);
    const late = await company.live.post('/v1/shifts', {
      employee_id: workerId,
      date: '2027-01-04',
      start: '08:00',
      end: '12:00',
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('conflict');
    const [monday] = (
      await company.live.get('/v1/shifts', {
        query: { employee_id: workerId, from: '2027-01-04', to: '2027-01-04' },
      })
    ).json().data;
    expect((await company.live.patch(`/v1/shifts/${monday.id}`, { start: '21:00' })).statusCode).toBe(409);
    expect((await company.live.delete(`/v1/shifts/${monday.id}`)).statusCode).toBe(409);

    await plan({ employee_id: workerId, date: '2027-01-06', start: '08:00', end: '16:00' });
    const overlap = await company.live.post('/v1/shifts', {
      employee_id: workerId,
      date: '2027-01-06',
      start: '15:00',
      end: '20:00',
    });
    expect(overlap.statusCode).toBe(422);
    expect(overlap.json().errors).toEqual({ start: ['overlaps another shift of the employee'] });
    // Monday's night runs into Tuesday 06:00: a Tuesday shift from 05:00 overlaps it too.
    const early = await company.live.post('/v1/shifts', {
      employee_id: workerId,
      date: '2027-01-07',
      start: '05:00',
      end: '09:00',
    });
    expect(early.statusCode, early.body).toBe(201);
  });

  it('creates or replaces in bulk, all or nothing, with every error by index', async () => {
    const other = await ctx.createCompany({ timezone: ZONE });
    const stranger = await hire(other.live);
    const colleague = await hire(company.live, { work_schedule: NO_SCHEDULE });
    const bad = await company.live.post('/v1/shifts/bulk', {
      shifts: [
        { employee_id: colleague.id, date: '2027-01-11', start: '08:00', end: '16:00' },
        { employee_id: stranger.id, date: '2027-01-11', start: '08:00', end: '16:00' },
        { employee_id: colleague.id, date: '2027-01-11', start: '10:00', end: '12:00' },
        { employee_id: colleague.id, date: '2027-01-12', start: '08:00', end: '09:00', break_minutes: 60 },
      ],
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      'shifts/0/start': ['overlaps another shift of the employee'],
      'shifts/1/employee_id': ['is not an employee of this company'],
      'shifts/2/start': ['overlaps another shift of the employee'],
      'shifts/3/break_minutes': ['must be shorter than the shift'],
    });
    expect(
      (await company.live.get('/v1/shifts', { query: { employee_id: colleague.id } })).json().data,
    ).toEqual([]);

    const created = await company.live.post('/v1/shifts/bulk', {
      shifts: [
        { employee_id: colleague.id, date: '2027-01-11', start: '08:00', end: '16:00', status: 'published' },
        { employee_id: colleague.id, date: '2027-01-12', start: '08:00', end: '16:00', break_minutes: 30 },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    const [firstId, secondId] = created.json().ids as string[];
    const get = async (id: string) => (await company.live.get(`/v1/shifts/${id}`)).json();
    const first = await get(firstId as string);
    const second = await get(secondId as string);
    expect(first).toMatchObject({ planned_minutes: 480, status: 'published' });
    expect(second).toMatchObject({ planned_minutes: 450, status: 'draft' });
    const replaced = await company.live.post('/v1/shifts/bulk', {
      shifts: [
        {
          id: first.id,
          employee_id: colleague.id,
          date: '2027-01-11',
          start: '09:00',
          end: '13:00',
          status: 'published',
        },
      ],
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toEqual({ ids: [first.id] });
    expect(await get(first.id)).toMatchObject({ planned_minutes: 240, created_at: first.created_at });
    expect(await eventsOf(ctx.db, company.id)).toContainEqual(
      expect.objectContaining({
        type: 'shift.updated',
        data: expect.objectContaining({ shift_id: first.id }),
      }),
    );
    // Another company sees none of it.
    expect((await other.live.get(`/v1/shifts/${first.id}`)).statusCode).toBe(404);
    expect((await other.live.get('/v1/shifts')).json().data).toEqual([]);
    // Publishing the second, then deleting it: its day is planned by the weekly schedule again (none).
    expect((await company.live.patch(`/v1/shifts/${second.id}`, { status: 'published' })).statusCode).toBe(
      200,
    );
    expect((await company.live.delete(`/v1/shifts/${second.id}`)).statusCode).toBe(204);
    expect(await eventsOf(ctx.db, company.id)).toContainEqual(
      expect.objectContaining({
        type: 'shift.deleted',
        data: expect.objectContaining({ shift_id: second.id }),
      }),
    );
    at('2027-01-13T10:00:00');
    expect(await expectedOn(colleague.id, '2027-01-11')).toBe(240);
    expect(await expectedOn(colleague.id, '2027-01-12')).toBe(0);
  });

  it('takes 5,000 shifts with their notes in one request, past the 1 MiB of other bodies', async () => {
    const planner = await hire(company.live, { work_schedule: NO_SCHEDULE });
    const first = Temporal.PlainDate.from('2028-01-03');
    const note = 'Cubre la baja de mostrador; llaves en recepción. '.repeat(5);
    const shifts = Array.from({ length: 5000 }, (_, day) => ({
      employee_id: planner.id,
      date: first.add({ days: day }).toString(),
      start: '08:00',
      end: '15:00',
      note,
    }));
    expect(JSON.stringify({ shifts }).length).toBeGreaterThan(1024 * 1024);
    const bulk = await company.live.post('/v1/shifts/bulk', { shifts });
    expect(bulk.statusCode, bulk.body.slice(0, 300)).toBe(200);
    expect(bulk.json().ids).toHaveLength(5000);
    const more = await company.live.post('/v1/shifts/bulk', { shifts: [...shifts, shifts[0]] });
    expect(more.statusCode).toBe(422);
  });

  it('applies a rota of 4 on and 2 off for two months, and publishes it', async () => {
    const template = await company.live.post('/v1/shift-templates', {
      name: 'Mañana',
      start: '06:00',
      end: '14:00',
      break_minutes: 30,
    });
    expect(template.statusCode, template.body).toBe(201);
    const t = template.json().id;
    const crew = [
      await hire(company.live, { work_schedule: NO_SCHEDULE }),
      await hire(company.live, { work_schedule: NO_SCHEDULE }),
    ];
    const rota = await company.live.post('/v1/rota-patterns', {
      name: '4×2',
      cycle: [t, t, t, t, null, null],
      apply: { employee_ids: crew.map((e) => e.id), from: '2027-02-01', to: '2027-03-31' },
    });
    expect(rota.statusCode, rota.body).toBe(201);
    // 59 days: 9 cycles of 6 (36 working days) and 5 more days (4 working): 40 each.
    expect(rota.json()).toMatchObject({ name: '4×2', applied: { created: 80, replaced: 0, skipped: 0 } });
    expect(await expectedOn(crew[0].id, '2027-02-01')).toBe(0); // drafts plan nothing
    const published = await company.live.post('/v1/shifts/publish', { from: '2027-02-01', to: '2027-03-31' });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json()).toEqual({ published: 80 });
    at('2027-03-01T10:00:00');
    // February: 4 cycles (16 working days) and 4 more: 20 days of 450 minutes.
    expect(await expectedOn(crew[0].id, '2027-02-01', '2027-02-28', 'month')).toBe(20 * 450);
    expect(await expectedOn(crew[1].id, '2027-02-05')).toBe(0); // the cycle's fifth day: rest
    expect(await expectedOn(crew[1].id, '2027-02-07')).toBe(450); // the seventh: day one again
    // Applying it again replaces no published shift (nor any date that has passed).
    at('2027-01-20T10:00:00');
    const again = await company.live.post(`/v1/rota-patterns/${rota.json().id}/apply`, {
      employee_ids: [crew[0].id],
      from: '2027-02-01',
      to: '2027-02-06',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ created: 0, replaced: 0, skipped: 4 });
  });

  it('shows the worker their published shifts, never drafts, with a badge for what changed', async () => {
    at('2027-01-05T10:00:00');
    const draft = await plan({ employee_id: workerId, date: '2027-01-08', start: '22:00', end: '06:00' });
    expect((await worker.login(workerEmail, 'correct horse battery')).statusCode).toBe(200);
    const before = (await worker.send('GET', '/portal/api/shifts')).json();
    expect(before.data.map((shift: { id: string }) => shift.id)).not.toContain(draft.id);
    expect((await worker.send('POST', '/portal/api/shifts/seen', {})).statusCode).toBe(204);
    expect((await worker.send('GET', '/portal/api/shifts')).json().unseen).toBe(0);
    ctx.clock.advance(60);
    const published = await company.live.patch(`/v1/shifts/${draft.id}`, { status: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    const after = (await worker.send('GET', '/portal/api/shifts')).json();
    expect(after).toMatchObject({ from: '2027-01-04', to: '2027-01-17', unseen: 1 });
    expect(after.data).toContainEqual(
      expect.objectContaining({ id: draft.id, start: '22:00', end: '06:00' }),
    );
  });

  it('calls a shift still open 4 hours past its published end a probable missed clock-out', async () => {
    at('2027-01-18T08:00:00');
    await plan({
      employee_id: workerId,
      date: '2027-01-18',
      start: '09:00',
      end: '14:00',
      status: 'published',
    });
    at('2027-01-18T09:00:00');
    const clocked = await company.live.post('/v1/check-ins', {
      employee_id: workerId,
      type: 'in',
      timestamp: instant('2027-01-18T09:00:00').toString({ smallestUnit: 'second' }),
    });
    expect(clocked.statusCode, clocked.body).toBe(201);
    // 17:59: 3 h 59 min past the end, 9 hours after the in: still working.
    at('2027-01-18T17:59:00');
    expect(await person(workerId)).toMatchObject({ state: 'in' });
    at('2027-01-18T18:00:00');
    expect(await person(workerId)).toMatchObject({
      state: 'missed_clock_out',
      since: stamp('2027-01-18T09:00:00'),
    });
    expect((await worker.login(workerEmail, 'correct horse battery')).statusCode).toBe(200);
    expect((await worker.send('GET', '/portal/api/me')).json().open_shift).toMatchObject({
      date: '2027-01-18',
      missed_clock_out: true,
    });
    // Just after midnight, 15 h 30 min after the in (short of the 16-hour line): by the published end alone, the
    // day is incomplete and says so.
    at('2027-01-19T00:30:00');
    const day = (
      await company.live.get('/v1/work-summaries', {
        query: { period: 'day', from: '2027-01-18', to: '2027-01-18', employee_id: workerId },
      })
    ).json().data[0];
    expect(day).toMatchObject({ missing_clock_out: true, incomplete_days: 1, worked_minutes: 0 });
  });

  it('needs the shifts scopes', async () => {
    const key = await ctx.createKey(company.id, 'live', ['org:empleados:read']);
    const reader = ctx.as(key.secret);
    expect((await reader.get('/v1/shifts')).statusCode).toBe(403);
    expect(
      (
        await reader.post('/v1/shifts', {
          employee_id: workerId,
          date: '2027-02-01',
          start: '08:00',
          end: '09:00',
        })
      ).statusCode,
    ).toBe(403);
  });
});
