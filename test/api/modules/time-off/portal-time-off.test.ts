import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { joinPortal, type PortalWorker } from '../../../helpers/portal.ts';
import { eventsOf } from '../../../helpers/resources.ts';

/**
 * Time off from the portal (issue 39, "Mis ausencias"): the worker sees their vacation balance, absences and
 * holidays; asks for time off with the balance after it shown first; an overlap is refused; a pending request
 * can be withdrawn, a decided one cannot; the company's reason for a refusal reaches the worker. A worker acts on
 * their own absences only: another worker's id is 404, whatever the body says.
 */
let ctx: TestContext;
let company: TestCompany;
let ana: PortalWorker;
let anaId: string;
let luis: PortalWorker;
let luisId: string;

const ZONE = 'Europe/Madrid';

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
  pinClock(ctx.clock, '2027-02-01T09:00:00Z');
  const joined = await joinPortal(ctx, company.live, { first_name: 'Ana', last_name: 'Vacaciones' });
  ana = joined.worker;
  anaId = joined.employee.id;
  const other = await joinPortal(ctx, company.live, { first_name: 'Luis', last_name: 'Otro' });
  luis = other.worker;
  luisId = other.employee.id;
  const holiday = await ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, {
    date: '2027-03-19',
    name: 'San José',
  });
  expect(holiday.statusCode, holiday.body).toBe(201);
});
afterAll(() => ctx.close());

const year = async (worker: PortalWorker, query = '') => {
  const response = await worker.send('GET', `/portal/api/absences${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('time off in the portal', () => {
  it('shows the balance, asks with the balance after it, refuses an overlap, and withdraws a pending request', async () => {
    const before = await year(ana);
    expect(before).toMatchObject({ year: 2027, today: '2027-02-01', absences: [] });
    expect(before.balance).toMatchObject({ employee_id: anaId, year: 2027, used_days: 0, pending_days: 0 });
    const entitled = before.balance.remaining_days;
    expect(entitled).toBeGreaterThan(0);
    expect(before.types.map((type: { key: string }) => type.key)).toContain('vacation');
    expect(before.holidays).toContainEqual(expect.objectContaining({ date: '2027-03-19', name: 'San José' }));

    // Monday 15 to Friday 19 March: San José is a holiday, so four days.
    const request = { type: 'vacation', start_date: '2027-03-15', end_date: '2027-03-19', note: 'Fallas' };
    const preview = await ana.send('POST', '/portal/api/absences/preview', request);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toEqual({ days_count: 4, remaining_days_after: entitled - 4 });
    // A preview stores nothing.
    expect((await year(ana)).absences).toEqual([]);

    const created = await ana.send('POST', '/portal/api/absences', request);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      employee_id: anaId,
      status: 'requested',
      days_count: 4,
      note: 'Fallas',
      type: { key: 'vacation' },
    });
    const id = created.json().id;
    expect(await eventsOf(ctx.db, company.id)).toContainEqual(
      expect.objectContaining({
        type: 'absence.requested',
        data: expect.objectContaining({ absence_id: id }),
      }),
    );
    const after = await year(ana);
    expect(after.balance).toMatchObject({ pending_days: 4, remaining_days: entitled - 4 });
    expect(after.absences.map((absence: { id: string }) => absence.id)).toEqual([id]);

    // Overlapping its own request: 409, nothing stored.
    const overlap = await ana.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-03-18',
      end_date: '2027-03-22',
    });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.headers['content-type']).toContain('application/problem+json');
    expect(overlap.json().code).toBe('conflict');
    // Bad dates: 422 naming the field.
    const backwards = await ana.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-04-02',
      end_date: '2027-04-01',
    });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors).toHaveProperty('end_date');
    expect((await year(ana)).absences).toHaveLength(1);

    // Withdrawn while pending.
    const cancelled = await ana.send('POST', `/portal/api/absences/${id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled' });
    expect((await year(ana)).balance).toMatchObject({ pending_days: 0, remaining_days: entitled });
  });

  it("shows the company's decision with its reason, and leaves a decided absence to the company", async () => {
    const asked = await ana.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-05-03',
      end_date: '2027-05-04',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const refused = await company.live.post(`/v1/absences/${asked.json().id}/reject`, {
      reason: 'Inventario esa semana',
    });
    expect(refused.statusCode, refused.body).toBe(200);
    const denied = (await year(ana)).absences.find(
      (absence: { id: string }) => absence.id === asked.json().id,
    );
    expect(denied).toMatchObject({ status: 'denied', denial_reason: 'Inventario esa semana' });
    expect(denied.decided_at).not.toBeNull();

    const again = await ana.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-05-10',
      end_date: '2027-05-10',
      half_day: true,
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json()).toMatchObject({ half_day: true, days_count: 0.5 });
    expect((await company.live.post(`/v1/absences/${again.json().id}/approve`)).statusCode).toBe(200);
    // Approved: the worker can no longer withdraw it (the company cancels it if need be).
    const late = await ana.send('POST', `/portal/api/absences/${again.json().id}/cancel`);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'conflict', errors: { status: 'approved' } });
    expect((await year(ana)).balance).toMatchObject({ used_days: 0.5 });
  });

  it("never reaches another worker's absences, nor another year's employment", async () => {
    const theirs = await luis.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-06-07',
      end_date: '2027-06-08',
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    // Ana cannot withdraw Luis's request, nor see it.
    const stolen = await ana.send('POST', `/portal/api/absences/${theirs.json().id}/cancel`);
    expect(stolen.statusCode).toBe(404);
    expect(
      (await year(ana)).absences.some((absence: { employee_id: string }) => absence.employee_id === luisId),
    ).toBe(false);
    // The employee is always the session's: a body naming another is refused, not obeyed.
    const smuggled = await ana.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-06-14',
      end_date: '2027-06-14',
      employee_id: luisId,
    });
    expect(smuggled.statusCode).toBe(422);
    const luisYear = await year(luis);
    expect(luisYear.absences.map((absence: { id: string }) => absence.id)).toEqual([theirs.json().id]);
    // Without a session, nothing; without the CSRF token, no write.
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/portal/api/absences' });
    expect(anonymous.statusCode).toBe(401);
    const forged = await ana.send(
      'POST',
      '/portal/api/absences',
      { type: 'vacation', start_date: '2027-07-01', end_date: '2027-07-01' },
      { csrf: false },
    );
    expect(forged.statusCode).toBe(403);
    // A year before the hire: no balance.
    expect((await year(ana, '?year=2020')).balance).toBeNull();
  });
});
