import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, dashboardSession } from '../../../helpers/dashboard.ts';
import { joinPortal } from '../../../helpers/portal.ts';
import { eventsOf, hire } from '../../../helpers/resources.ts';

/**
 * Legal-limit alerts (issue 38): the rules of src/time/compliance.ts, kept as alerts while the record breaks
 * them: the 12-hour rest across midnight, the 9-hour day, listed by the API with their article, announced by a
 * webhook event, shown on the Today view, acknowledged there, and removed when a correction settles them.
 */
let ctx: TestContext;
let company: TestCompany;
let admin: { email: string; password: string };

const ZONE = 'Europe/Madrid';
const instant = (local: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(ZONE).toInstant();
const iso = (local: string) => instant(local).toString({ smallestUnit: 'second' });
const at = (local: string) => pinClock(ctx.clock, instant(local).toString());

async function record(employeeId: string, type: string, local: string) {
  const response = await company.live.post('/v1/check-ins', {
    employee_id: employeeId,
    type,
    timestamp: iso(local),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function alerts(query: Record<string, string> = {}) {
  const response = await company.live.get('/v1/compliance-alerts', { query });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
  admin = await createAdmin(ctx, company.id);
});
afterAll(() => ctx.close());

describe('legal-limit alerts', () => {
  it('finds less than 12 hours of rest across midnight, and a correction that settles it removes the alert', async () => {
    const { employee, worker } = await joinPortal(ctx, company.live, { hire_date: '2026-01-01' });
    at('2027-02-01T15:55:00');
    await record(employee.id, 'in', '2027-02-01T16:00:00');
    at('2027-02-02T00:31:00');
    const late = await record(employee.id, 'out', '2027-02-02T00:30:00');
    at('2027-02-02T07:59:00');
    await record(employee.id, 'in', '2027-02-02T08:00:00');
    at('2027-02-02T16:01:00');
    await record(employee.id, 'out', '2027-02-02T16:00:00');
    // Monday's workday ended at 00:30, Tuesday's started at 08:00: 7 h 30 min of rest.
    const [alert] = await alerts({ employee_id: employee.id, rule: 'rest_between_workdays' });
    expect(alert).toMatchObject({
      employee_id: employee.id,
      date: '2027-02-02',
      rule: 'rest_between_workdays',
      detail: { minutes: 450, limit_minutes: 720 },
      status: 'open',
      law: 'ET art. 34.3',
    });
    expect(await eventsOf(ctx.db, company.id)).toContainEqual(
      expect.objectContaining({
        type: 'compliance_alert.created',
        data: {
          alert_id: alert.id,
          employee_id: employee.id,
          date: '2027-02-02',
          rule: 'rest_between_workdays',
        },
      }),
    );
    // The Today view lists it, and the administrator acknowledges it there.
    const session = await dashboardSession(ctx, admin.email, admin.password);
    const home = (await session.call('GET', '/dashboard/api/live/today')).json();
    expect(home.alerts).toContainEqual(
      expect.objectContaining({ id: alert.id, rule: 'rest_between_workdays' }),
    );
    const acknowledged = await session.call(
      'POST',
      `/dashboard/api/live/compliance-alerts/${alert.id}/acknowledge`,
      {},
    );
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(acknowledged.json()).toMatchObject({ status: 'acknowledged' });
    const open = (await session.call('GET', '/dashboard/api/live/today')).json().alerts;
    expect(open.map((row: { id: string }) => row.id)).not.toContain(alert.id);
    expect(
      (await session.call('POST', `/dashboard/api/live/compliance-alerts/${alert.id}/acknowledge`, {}))
        .statusCode,
    ).toBe(404);

    // The out was really at 20:00: the worker asks for the correction, the company approves, the rest is 12 hours.
    expect((await worker.login(employee.email, 'correct horse battery')).statusCode).toBe(200);
    const correction = await worker.send('POST', '/portal/api/corrections', {
      reason: 'Salí a las 20:00',
      void: [late.id],
      add: [{ type: 'out', timestamp: iso('2027-02-01T20:00:00') }],
    });
    expect(correction.statusCode, correction.body).toBe(201);
    const approved = await company.live.post(`/v1/check-in-corrections/${correction.json().id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('applied');
    expect(await alerts({ employee_id: employee.id, rule: 'rest_between_workdays' })).toEqual([]);
  });

  it('finds remote work recorded outside the planned shift (the right to disconnect)', async () => {
    const employee = await hire(company.live, { hire_date: '2026-01-01' });
    at('2027-03-01T10:00:00');
    const shift = await company.live.post('/v1/shifts', {
      employee_id: employee.id,
      date: '2027-03-02',
      start: '09:00',
      end: '14:00',
      status: 'published',
    });
    expect(shift.statusCode, shift.body).toBe(201);
    const remote = async (type: string, local: string) => {
      at(local);
      const response = await company.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type,
        timestamp: iso(local),
        work_mode: 'remote',
      });
      expect(response.statusCode, response.body).toBe(201);
    };
    await remote('in', '2027-03-02T09:00:00');
    await remote('break_start', '2027-03-02T11:00:00');
    await remote('break_end', '2027-03-02T11:20:00');
    await remote('out', '2027-03-02T17:00:00');
    // Planned until 14:00, worked from home until 17:00: three hours outside the schedule.
    expect(await alerts({ employee_id: employee.id, rule: 'outside_schedule' })).toEqual([
      expect.objectContaining({
        date: '2027-03-02',
        detail: { minutes: 180, limit_minutes: 15 },
        law: 'LOPDGDD art. 88',
      }),
    ]);
  });

  it('finds a day of more than nine hours, and keeps each company to its own', async () => {
    const employee = await hire(company.live, { hire_date: '2026-01-01' });
    at('2027-02-08T07:55:00');
    await record(employee.id, 'in', '2027-02-08T08:00:00');
    at('2027-02-08T12:01:00');
    await record(employee.id, 'break_start', '2027-02-08T12:00:00');
    at('2027-02-08T12:31:00');
    await record(employee.id, 'break_end', '2027-02-08T12:30:00');
    at('2027-02-08T19:01:00');
    await record(employee.id, 'out', '2027-02-08T19:00:00');
    expect(await alerts({ employee_id: employee.id, rule: 'daily_hours' })).toEqual([
      expect.objectContaining({
        date: '2027-02-08',
        detail: { minutes: 630, limit_minutes: 540 },
        law: 'ET art. 34.3',
      }),
    ]);
    const other = await ctx.createCompany();
    expect((await other.live.get('/v1/compliance-alerts')).json().data).toEqual([]);
    const reader = ctx.as((await ctx.createKey(company.id, 'live', ['org:empleados:read'])).secret);
    expect((await reader.get('/v1/compliance-alerts')).statusCode).toBe(403);
  });
});
