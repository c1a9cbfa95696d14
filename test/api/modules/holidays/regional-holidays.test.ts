import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, dashboardSession } from '../../../helpers/dashboard.ts';
import { NATIONAL_2026 } from '../../../helpers/holidays.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Holidays by region (issue 38): the national and regional holidays of 2026 and 2027 ship with Jornada and apply
 * to each work centre by its region, with no typing; the company's default region serves the centres without one
 * and the employees without a centre.
 */
let ctx: TestContext;
let company: TestCompany;
let barcelona: { id: string };
let madrid: { id: string };

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid', trackingStart: '2026-01-01' });
  const centre = async (body: Record<string, unknown>) => {
    const response = await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  barcelona = await centre({ name: 'Barcelona', region: 'ES-CT', municipality: 'Barcelona' });
  madrid = await centre({ name: 'Madrid', region: 'ES-MD', municipality: 'Madrid' });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.advance(60));

async function holidays(year: number, locationId?: string) {
  const response = await company.live.get('/v1/holidays', {
    query: { year, ...(locationId ? { location_id: locationId } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<{
    date: string;
    name: string;
    name_local: string | null;
    scope: string;
    location_id: string | null;
  }>;
}

async function expectedOn(employeeId: string, date: string): Promise<number> {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'day', from: date, to: date, employee_id: employeeId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0]?.expected_minutes ?? 0;
}

describe('holidays by region', () => {
  it("applies 2026's national holidays and Catalonia's 24 June and 11 September to Barcelona, not to Madrid", async () => {
    const inBarcelona = await holidays(2026, barcelona.id);
    const inMadrid = await holidays(2026, madrid.id);
    for (const date of NATIONAL_2026) {
      expect(inBarcelona).toContainEqual(
        expect.objectContaining({ date, scope: 'national', location_id: null }),
      );
      expect(inMadrid).toContainEqual(
        expect.objectContaining({ date, scope: 'national', location_id: null }),
      );
    }
    expect(inBarcelona.filter((holiday) => holiday.scope === 'national')).toHaveLength(8);
    expect(inBarcelona).toContainEqual(
      expect.objectContaining({ date: '2026-06-24', scope: 'regional', location_id: barcelona.id }),
    );
    expect(inBarcelona).toContainEqual(
      expect.objectContaining({
        date: '2026-09-11',
        scope: 'regional',
        name_local: 'Diada de Catalunya',
        location_id: barcelona.id,
      }),
    );
    const madridDates = inMadrid.map((holiday) => holiday.date);
    expect(madridDates).not.toContain('2026-06-24');
    expect(madridDates).not.toContain('2026-09-11');
    expect(madridDates).toContain('2026-04-02'); // Jueves Santo, Madrid's and not Catalonia's
    expect(inBarcelona.map((holiday) => holiday.date)).not.toContain('2026-04-02');
    // 2027 ships too.
    expect((await holidays(2027, madrid.id)).map((holiday) => holiday.date)).toContain('2027-01-01');
    // Without a centre: every holiday of the company, each naming its centre.
    const all = await holidays(2026);
    expect(all.filter((holiday) => holiday.date === '2026-06-24')).toEqual([
      expect.objectContaining({ location_id: barcelona.id }),
    ]);
  });

  it("takes the holidays out of the employees' expected time by their centre", async () => {
    const inBarcelona = await hire(company.live, { location_id: barcelona.id });
    const inMadrid = await hire(company.live, { location_id: madrid.id });
    // Wednesday 24 June 2026: Sant Joan in Barcelona, a working day in Madrid.
    expect(await expectedOn(inBarcelona.id, '2026-06-24')).toBe(0);
    expect(await expectedOn(inMadrid.id, '2026-06-24')).toBe(480);
    // Thursday 2 April 2026: Jueves Santo in Madrid, a working day in Barcelona.
    expect(await expectedOn(inMadrid.id, '2026-04-02')).toBe(0);
    expect(await expectedOn(inBarcelona.id, '2026-04-02')).toBe(480);
  });

  it("does not charge New Year's Day as vacation", async () => {
    const employee = await hire(company.live, { location_id: madrid.id, hire_date: '2025-12-01' });
    const absence = await company.live.post('/v1/absences', {
      employee_id: employee.id,
      type: 'vacation',
      start_date: '2026-01-01',
      end_date: '2026-01-09',
    });
    expect(absence.statusCode, absence.body).toBe(201);
    // Thursday 1 to Friday 9 January: 7 working days less New Year's Day and Epiphany.
    expect(absence.json().days_count).toBe(5);
  });

  it("moves a centre's regional holidays with its region, and gives the default region to the employees without a centre", async () => {
    const valencia = await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, {
      name: 'Valencia',
    });
    expect(valencia.statusCode, valencia.body).toBe(201);
    const centre = valencia.json().id as string;
    // No region of its own and no company default: the national ones only.
    expect((await holidays(2026, centre)).every((holiday) => holiday.scope === 'national')).toBe(true);
    const moved = await ctx.admin.patch(`/admin/v1/companies/${company.id}/locations/${centre}`, {
      region: 'ES-VC',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ region: 'ES-VC' });
    expect((await holidays(2026, centre)).map((holiday) => holiday.date)).toContain('2026-03-19');
    const back = await ctx.admin.patch(`/admin/v1/companies/${company.id}/locations/${centre}`, {
      region: 'ES-MD',
    });
    expect(back.statusCode, back.body).toBe(200);
    const dates = (await holidays(2026, centre)).map((holiday) => holiday.date);
    expect(dates).not.toContain('2026-03-19');
    expect(dates).toContain('2026-04-02');

    const unassigned = await hire(company.live);
    expect(await expectedOn(unassigned.id, '2026-04-02')).toBe(480);
    const region = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { default_region: 'ES-MD' });
    expect(region.statusCode, region.body).toBe(200);
    expect(region.json()).toMatchObject({ default_region: 'ES-MD' });
    // Madrid's Jueves Santo for the employee without a centre, and still not for Barcelona's.
    expect(await expectedOn(unassigned.id, '2026-04-02')).toBe(0);
    const inBarcelona = await hire(company.live, { location_id: barcelona.id });
    expect(await expectedOn(inBarcelona.id, '2026-04-02')).toBe(480);
  });

  it('keeps a closed month’s calendar when a region changes, and expects a published shift on a holiday', async () => {
    const own = await ctx.createCompany({ timezone: 'Europe/Madrid', trackingStart: '2026-01-01' });
    const centre = (
      await ctx.admin.post(`/admin/v1/companies/${own.id}/locations`, { name: 'Girona', region: 'ES-CT' })
    ).json();
    const employee = await hire(own.live, { location_id: centre.id });
    const expected = async (date: string) =>
      (
        await own.live.get('/v1/work-summaries', {
          query: { period: 'day', from: date, to: date, employee_id: employee.id },
        })
      ).json().data[0]?.expected_minutes ?? 0;
    // Lunes de Pascua, 6 April 2026: Catalonia's, not Madrid's.
    expect(await expected('2026-04-06')).toBe(0);
    expect((await own.live.post('/v1/registry/months/2026-04/close')).statusCode).toBe(200);
    const moved = await ctx.admin.patch(`/admin/v1/companies/${own.id}/locations/${centre.id}`, {
      region: 'ES-MD',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const calendar = (await own.live.get('/v1/holidays', { query: { year: 2026, location_id: centre.id } }))
      .json()
      .data.map((holiday: { date: string }) => holiday.date);
    // The closed month keeps Catalonia's holiday; the open months take Madrid's.
    expect(calendar).toContain('2026-04-06');
    expect(calendar).not.toContain('2026-06-24');
    expect(calendar).toContain('2026-12-07');
    expect(await expected('2026-04-06')).toBe(0);

    // A published shift on a holiday: the company planned the day, so it is expected (a worked holiday).
    const future = (await own.live.get('/v1/holidays', { query: { year: 2027, location_id: centre.id } }))
      .json()
      .data.find(
        (holiday: { date: string; scope: string }) =>
          holiday.scope === 'national' && holiday.date > '2027-01-01',
      );
    const shift = await own.live.post('/v1/shifts', {
      employee_id: employee.id,
      date: future.date,
      start: '09:00',
      end: '13:00',
      status: 'published',
    });
    expect(shift.statusCode, shift.body).toBe(201);
    const stored = await ctx.db
      .selectFrom('workdays')
      .select('expected_minutes')
      .where('company_id', '=', own.id)
      .where('employee_id', '=', employee.id)
      .where('date', '=', future.date)
      .executeTakeFirst();
    expect(stored?.expected_minutes).toBe(240);
  });

  it('lets an administrator set the default region and apply the shipped calendar from the dashboard', async () => {
    const own = await ctx.createCompany({ timezone: 'Europe/Madrid', trackingStart: '2026-01-01' });
    const admin = await createAdmin(ctx, own.id);
    const session = await dashboardSession(ctx, admin.email, admin.password);
    const settings = await session.call('PATCH', '/dashboard/api/settings', { default_region: 'ES-GA' });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json().company.default_region).toBe('ES-GA');
    const year = await session.call('GET', '/dashboard/api/live/holidays?year=2026');
    expect(year.statusCode, year.body).toBe(200);
    // Galicia's 25 July, for the employees without a work centre.
    expect(year.json().data).toContainEqual(
      expect.objectContaining({ date: '2026-07-25', scope: 'regional', location_id: null }),
    );
    // Applying again changes nothing: it is already in line.
    const again = await session.call('POST', '/dashboard/api/live/holidays/import');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ added: 0, removed: 0 });
    expect(
      (await session.call('PATCH', '/dashboard/api/settings', { default_region: 'XX' })).statusCode,
    ).toBe(422);
  });

  it('refuses a region that is not one of Spain’s, and a work centre of another company', async () => {
    const bad = await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, {
      name: 'Lisboa',
      region: 'PT-11',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().code).toBe('validation_failed');
    const other = await ctx.createCompany();
    const theirs = await ctx.admin.post(`/admin/v1/companies/${other.id}/locations`, {
      name: 'Sevilla',
      region: 'ES-AN',
    });
    const leak = await company.live.get('/v1/holidays', {
      query: { year: 2026, location_id: theirs.json().id },
    });
    expect(leak.statusCode).toBe(422);
    expect((await holidays(2026)).every((holiday) => holiday.location_id !== theirs.json().id)).toBe(true);
    // A company that set no region has no built-in holidays.
    const none = await ctx.createCompany();
    expect((await none.live.get('/v1/holidays', { query: { year: 2026 } })).json().data).toEqual([]);
  });
});
