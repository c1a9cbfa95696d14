import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * The dashboard's company settings (issue 17): holidays (a yearly list, add, remove), absence types,
 * administrators, the tracking start and the late-record threshold, through the dashboard's API.
 */
let ctx: TestContext;
let company: TestCompany;
let session: DashboardSession;
let worker: { id: string };

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid', trackingStart: '2026-01-01' });
  worker = await hire(company.live, { hire_date: '2026-01-01' });
  const admin = await createAdmin(ctx, company.id);
  session = await dashboardSession(ctx, admin.email, admin.password);
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.advance(60));

/** The expected minutes of the worker's day, from the work summaries. */
async function expectedOn(date: string): Promise<number> {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'day', from: date, to: date, employee_id: worker.id },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0]?.expected_minutes ?? 0;
}

describe('holidays', () => {
  it('adds one (nobody expected that day), lists the year, and removes it (expected again)', async () => {
    // Wednesday 2026-10-07: a working day under the default schedule.
    expect(await expectedOn('2026-10-07')).toBe(480);
    const created = await session.call('POST', '/dashboard/api/live/holidays', {
      date: '2026-10-07',
      name: 'Fiesta local',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await expectedOn('2026-10-07')).toBe(0);
    const year = await session.call(
      'GET',
      '/dashboard/api/live/holidays/range?from=2026-01-01&to=2026-12-31',
    );
    expect(year.json().data).toEqual([expect.objectContaining({ date: '2026-10-07', name: 'Fiesta local' })]);
    const again = await session.call('POST', '/dashboard/api/live/holidays', {
      date: '2026-10-07',
      name: 'x',
    });
    expect(again.statusCode).toBe(422);

    const removed = await session.call('DELETE', `/dashboard/api/live/holidays/${created.json().id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await expectedOn('2026-10-07')).toBe(480);
    expect(
      (await session.call('DELETE', `/dashboard/api/live/holidays/${created.json().id}`)).statusCode,
    ).toBe(404);
    // Over a year: refused by field.
    const wide = await session.call(
      'GET',
      '/dashboard/api/live/holidays/range?from=2026-01-01&to=2027-06-30',
    );
    expect(wide.statusCode).toBe(422);
    expect(wide.json().errors).toHaveProperty('to');
  });

  it('never reaches another company’s holiday', async () => {
    const other = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    const theirs = await ctx.admin.post(`/admin/v1/companies/${other.id}/holidays`, {
      date: '2026-12-08',
      name: 'Inmaculada',
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    expect(
      (await session.call('DELETE', `/dashboard/api/live/holidays/${theirs.json().id}`)).statusCode,
    ).toBe(404);
    const mine = await session.call(
      'GET',
      '/dashboard/api/live/holidays/range?from=2026-01-01&to=2026-12-31',
    );
    expect(mine.json().data).toEqual([]);
  });
});

describe('holidays of one work centre', () => {
  /** A worker's expected minutes on a date, from the work summaries. */
  const expectedOf = async (employeeId: string, date: string) => {
    const response = await company.live.get('/v1/work-summaries', {
      query: { period: 'day', from: date, to: date, employee_id: employeeId },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data[0]?.expected_minutes ?? 0;
  };
  const centre = async (name: string) =>
    (await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name })).json().id as string;

  it("applies to that centre's employees only, counts in their absences, and follows a move", async () => {
    const valencia = await centre('Valencia');
    const bilbao = await centre('Bilbao');
    const here = await hire(company.live, { hire_date: '2026-01-01', location_id: valencia });
    const there = await hire(company.live, { hire_date: '2026-01-01', location_id: bilbao });
    // Thursday 2026-10-08: a working day for both.
    expect(await expectedOf(here.id, '2026-10-08')).toBe(480);

    const local = await session.call('POST', '/dashboard/api/live/holidays', {
      date: '2026-10-08',
      name: 'Fiesta local de Valencia',
      location_id: valencia,
    });
    expect(local.statusCode, local.body).toBe(201);
    expect(local.json()).toMatchObject({ location_id: valencia });
    expect(await expectedOf(here.id, '2026-10-08')).toBe(0);
    expect(await expectedOf(there.id, '2026-10-08')).toBe(480);
    // The same date for another centre, and for the whole company, are other holidays; the same centre twice is not.
    const twice = await session.call('POST', '/dashboard/api/live/holidays', {
      date: '2026-10-08',
      name: 'x',
      location_id: valencia,
    });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors).toEqual({ date: ['already has a holiday in this work centre'] });
    const elsewhere = await ctx.createCompany({});
    const foreignCentre = (
      await ctx.admin.post(`/admin/v1/companies/${elsewhere.id}/locations`, { name: 'Ajena' })
    ).json().id;
    const foreign = await session.call('POST', '/dashboard/api/live/holidays', {
      date: '2026-10-09',
      name: 'x',
      location_id: foreignCentre,
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors).toEqual({ location_id: ['is not a location of this company'] });

    // A week of vacation over it: four working days for Valencia, five for Bilbao.
    const days = async (employeeId: string) => {
      const created = await company.live.post('/v1/absences', {
        employee_id: employeeId,
        type: 'vacation',
        start_date: '2026-10-05',
        end_date: '2026-10-09',
      });
      expect(created.statusCode, created.body).toBe(201);
      return Number(created.json().days_count);
    };
    expect(await days(here.id)).toBe(4);
    expect(await days(there.id)).toBe(5);

    // Listed with its centre; the yearly list holds both kinds.
    const listed = await session.call(
      'GET',
      '/dashboard/api/live/holidays/range?from=2026-10-01&to=2026-10-31',
    );
    expect(listed.json().data).toContainEqual(
      expect.objectContaining({
        date: '2026-10-08',
        name: 'Fiesta local de Valencia',
        location_id: valencia,
      }),
    );

    // Moving the Bilbao worker to Valencia gives them Valencia's calendar for the open period.
    const moved = await company.live.patch(`/v1/employees/${there.id}`, { location_id: valencia });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await expectedOf(there.id, '2026-10-08')).toBe(0);
    expect(await expectedOf(there.id, '2026-10-15')).toBe(480);
    const other = await hire(company.live, { hire_date: '2026-01-01', location_id: bilbao });
    expect(await expectedOf(other.id, '2026-10-08')).toBe(480);

    // Removed: a working day again for the centre's employees.
    expect((await session.call('DELETE', `/dashboard/api/live/holidays/${local.json().id}`)).statusCode).toBe(
      204,
    );
    expect(await expectedOf(here.id, '2026-10-08')).toBe(480);
    expect(await expectedOf(other.id, '2026-10-08')).toBe(480);
  });
});

describe('absence types, administrators and recording settings', () => {
  it('adds an absence type the absences then accept', async () => {
    const created = await session.call('POST', '/dashboard/api/live/absence-types', {
      key: 'training',
      label: 'Formación',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(
      (await session.call('POST', '/dashboard/api/live/absence-types', { key: 'training', label: 'x' }))
        .statusCode,
    ).toBe(422);
    const absence = await company.live.post('/v1/absences', {
      employee_id: worker.id,
      type: 'training',
      start_date: '2026-12-14',
      end_date: '2026-12-14',
    });
    expect(absence.statusCode, absence.body).toBe(201);
    expect(absence.json().type).toEqual({ key: 'training', label: 'Formación' });
  });

  it('lists the administrators and adds one who can log in', async () => {
    const added = await session.call('POST', '/dashboard/api/admins', {
      email: 'rrhh.segunda@example.com',
      password: 'una contraseña larga',
    });
    expect(added.statusCode, added.body).toBe(201);
    const list = (await session.call('GET', '/dashboard/api/admins')).json().data;
    expect(list.map((admin: { email: string }) => admin.email)).toContain('rrhh.segunda@example.com');
    expect(JSON.stringify(list)).not.toMatch(/password|hash/);
    await dashboardSession(ctx, 'rrhh.segunda@example.com', 'una contraseña larga');
    const short = await session.call('POST', '/dashboard/api/admins', {
      email: 'x@example.com',
      password: 'short',
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toHaveProperty('password');
  });

  it('disables another administrator: no login, sessions end, the record stays; never oneself', async () => {
    const other = await createAdmin(ctx, company.id);
    const theirs = await dashboardSession(ctx, other.email, other.password);
    expect((await theirs.call('GET', '/dashboard/api/session')).statusCode).toBe(200);
    const disabled = await session.call('POST', `/dashboard/api/admins/${other.id}/disable`);
    expect(disabled.statusCode, disabled.body).toBe(204);
    expect((await theirs.call('GET', '/dashboard/api/session')).statusCode).toBe(401);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: other.email, password: other.password }),
    });
    expect(login.statusCode).toBe(401);
    const list = (await session.call('GET', '/dashboard/api/admins')).json().data;
    expect(list.find((admin: { id: string }) => admin.id === other.id).disabled_at).toMatch(/Z$/);
    // Again: no such active administrator. Oneself: refused by field.
    expect((await session.call('POST', `/dashboard/api/admins/${other.id}/disable`)).statusCode).toBe(404);
    const me = (await session.call('GET', '/dashboard/api/session')).json().admin.id;
    const self = await session.call('POST', `/dashboard/api/admins/${me}/disable`);
    expect(self.statusCode).toBe(422);
    expect(self.json().errors).toHaveProperty('id');
    // Another company's administrator is not found.
    const elsewhere = await ctx.createCompany({});
    const stranger = await createAdmin(ctx, elsewhere.id);
    expect((await session.call('POST', `/dashboard/api/admins/${stranger.id}/disable`)).statusCode).toBe(404);
  });

  it('sets the tracking start and the late-record threshold', async () => {
    const changed = await session.call('PATCH', '/dashboard/api/settings', {
      tracking_start_date: '2025-11-01',
      late_record_hours: 12,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().company).toMatchObject({
      tracking_start_date: '2025-11-01',
      late_record_hours: 12,
    });
    // The operator's threshold (24 hours by default) is the ceiling, from the dashboard as from the operator API.
    const above = await session.call('PATCH', '/dashboard/api/settings', { late_record_hours: 72 });
    expect(above.statusCode, above.body).toBe(422);
    const bad = await session.call('PATCH', '/dashboard/api/settings', { late_record_hours: 0 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.late_record_hours).toEqual(['must be at least 1']);
  });
});

describe("the dashboard's language", () => {
  it('is Spanish by default in a Spanish zone, English elsewhere, and each administrator can choose', async () => {
    const first = (await session.call('GET', '/dashboard/api/session')).json();
    expect(first.admin.language).toBeNull();
    expect(first.language).toBe('es');

    const chosen = await session.call('PATCH', '/dashboard/api/me', { language: 'en' });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ language: 'en', admin: { language: 'en' } });
    // Kept for the next session too (the choice is the administrator's, not the browser's).
    const again = (await session.call('GET', '/dashboard/api/session')).json();
    expect(again).toMatchObject({ language: 'en', admin: { language: 'en' } });
    // Another administrator of the same company still gets the company's default.
    const other = await createAdmin(ctx, company.id);
    const theirs = await dashboardSession(ctx, other.email, other.password);
    expect((await theirs.call('GET', '/dashboard/api/session')).json().language).toBe('es');

    const bad = await session.call('PATCH', '/dashboard/api/me', { language: 'fr' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().code).toBe('validation_failed');
    expect(bad.json().errors).toEqual({ language: ['must be one of: es, en, null'] });
    const unknown = await session.call('PATCH', '/dashboard/api/me', { language: 'es', theme: 'dark' });
    expect(unknown.statusCode).toBe(422);
    const reset = await session.call('PATCH', '/dashboard/api/me', { language: null });
    expect(reset.json()).toMatchObject({ language: 'es', admin: { language: null } });

    const abroad = await ctx.createCompany({ timezone: 'America/Mexico_City' });
    const foreign = await createAdmin(ctx, abroad.id);
    const foreignSession = await dashboardSession(ctx, foreign.email, foreign.password);
    expect((await foreignSession.call('GET', '/dashboard/api/session')).json().language).toBe('en');
  });
});
