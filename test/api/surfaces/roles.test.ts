import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationName, type Role, roleAllows } from '../../../src/modules/admins/roles.ts';
import { declaredOperations } from '../../../src/platform/operation.ts';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../helpers/dashboard.ts';
import { joinPortal, type PortalWorker } from '../../helpers/portal.ts';
import { hire } from '../../helpers/resources.ts';

/**
 * Roles (issue 39): every /dashboard/api operation of the route table, called by an owner, an admin, a team lead
 * and payroll, is refused with 403 role_forbidden exactly when the role may not call it; what the table allows
 * follows from what each role is (payroll reads, a team lead decides their people's requests, an admin does all
 * but the administrators); and a team lead's reach is their units: another unit's records are 404, as another
 * company's are, and only their requests reach their inbox.
 */
let ctx: TestContext;
let company: TestCompany;
const sessions = {} as Record<Role, DashboardSession>;
const ids = {} as Record<Role, string>;
let north: { unit: string; sub: string; employee: string; subEmployee: string; worker: PortalWorker };
let south: { unit: string; employee: string; worker: PortalWorker };

const unit = async (name: string, parent_id?: string) => {
  const response = await ctx.admin.post(`/admin/v1/companies/${company.id}/units`, { name, parent_id });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
};

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  pinClock(ctx.clock, '2027-02-01T09:00:00Z');
  const northUnit = await unit('Norte');
  const northSub = await unit('Norte · almacén', northUnit);
  const southUnit = await unit('Sur');
  const n = await joinPortal(ctx, company.live, {
    first_name: 'Nora',
    last_name: 'Norte',
    unit_id: northUnit,
  });
  const s = await joinPortal(ctx, company.live, { first_name: 'Sara', last_name: 'Sur', unit_id: southUnit });
  const sub = await hire(company.live, { first_name: 'Sub', last_name: 'Almacén', unit_id: northSub });
  north = { unit: northUnit, sub: northSub, employee: n.employee.id, subEmployee: sub.id, worker: n.worker };
  south = { unit: southUnit, employee: s.employee.id, worker: s.worker };
  const roles: Array<[Role, string[]]> = [
    ['owner', []],
    ['admin', []],
    ['team_lead', [northUnit]],
    ['payroll', []],
  ];
  for (const [role, unit_ids] of roles) {
    const admin = await createAdmin(ctx, company.id, { role, unit_ids });
    ids[role] = admin.id;
    sessions[role] = await dashboardSession(ctx, admin.email, admin.password);
  }
});
afterAll(() => ctx.close());

/** The dashboard's operations from the route table: the session's own, and the tenant ones in both data modes. */
const DASHBOARD_OPERATIONS = () =>
  [...declaredOperations.values()].filter((operation) => operation.url.startsWith('/dashboard/api/'));

/** A path of the route table with its parameters filled: ids that name nothing, a month. */
const pathOf = (url: string) =>
  url.replace(':month', '2026-10').replace(/:[a-zA-Z]+/g, '0195d2a0-7c41-7e2b-9a55-3c1f0b6d2e21');

describe('roles', () => {
  it('refuses with role_forbidden exactly what the role may not call, on every dashboard route', async () => {
    const operations = DASHBOARD_OPERATIONS();
    expect(operations.length).toBeGreaterThan(150);
    const wrong: string[] = [];
    for (const role of ['payroll', 'team_lead', 'admin', 'owner'] as const) {
      for (const operation of operations) {
        // Logging out would end the session the other cases use; the login needs none.
        if (['dashboardLogout', 'dashboardLogin', 'dashboardPasskeyLogin'].includes(operation.operationId))
          continue;
        const mode = operation.url.startsWith('/dashboard/api/test/')
          ? 'test'
          : operation.url.startsWith('/dashboard/api/live/')
            ? 'live'
            : null;
        const allowed = roleAllows(role, operation.operationId, mode);
        const response = await sessions[role].call(operation.method, pathOf(operation.url));
        const forbidden = response.statusCode === 403 && response.json().code === 'role_forbidden';
        if (forbidden === allowed || response.statusCode === 429) {
          wrong.push(
            `${role} ${operation.method} ${operation.url}: ${response.statusCode} ${response.body.slice(0, 80)}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets payroll read only, a team lead decide only, an admin do all but the administrators', () => {
    const names = new Set(DASHBOARD_OPERATIONS().map((operation) => operationName(operation.operationId)));
    const method = new Map(
      DASHBOARD_OPERATIONS().map((operation) => [operationName(operation.operationId), operation.method]),
    );
    // What every role does to its own session, inbox and passkeys.
    const own = (name: string) =>
      /^dashboard(Login|Logout|UpdateMe|.*Passkey.*|ReadNotifications|UpdateNotificationPreferences)$/.test(
        name,
      );
    const writes = (role: Role) =>
      [...names].filter((name) => method.get(name) !== 'GET' && !own(name) && roleAllows(role, name, 'live'));
    expect(writes('payroll')).toEqual(['createReport']);
    expect(writes('team_lead').sort()).toEqual([
      'approveAbsence',
      'approveCheckInCorrection',
      'rejectAbsence',
      'rejectCheckInCorrection',
    ]);
    const refusedToAdmin = [...names].filter((name) => !roleAllows('admin', name, 'live'));
    expect(refusedToAdmin.sort()).toEqual([
      'dashboardCreateAdmin',
      'dashboardDisableAdmin',
      'dashboardUpdateAdmin',
    ]);
    // Developers' tools are no team lead's or payroll's.
    for (const role of ['team_lead', 'payroll'] as const) {
      for (const name of ['listApiKeys', 'listWebhookEndpoints', 'dashboardRequestLog', 'emitSampleEvent']) {
        expect(roleAllows(role, name, 'live'), `${role} ${name}`).toBe(false);
      }
      expect(roleAllows(role, 'listEmployees', 'test')).toBe(false);
    }
  });

  it('tells the dashboard what the role may do, and an admin cannot switch the addon', async () => {
    const payroll = (await sessions.payroll.call('GET', '/dashboard/api/session')).json();
    expect(payroll.admin.role).toBe('payroll');
    expect(payroll.can).toContain('listWorkSummaries');
    expect(payroll.can).not.toContain('approveAbsence');
    const addon = await sessions.admin.call('PATCH', '/dashboard/api/settings', { addon_enabled: false });
    expect(addon.statusCode, addon.body).toBe(403);
    expect(addon.json()).toMatchObject({ code: 'role_forbidden', errors: { role: 'admin' } });
    const other = await sessions.admin.call('PATCH', '/dashboard/api/settings', { late_record_hours: 12 });
    expect(other.statusCode, other.body).toBe(200);
  });

  it("keeps a team lead within their units (and the units below): another unit's records are 404", async () => {
    const lead = sessions.team_lead;
    const listed = (await lead.call('GET', '/dashboard/api/live/employees?limit=100')).json();
    expect(listed.data.map((row: { id: string }) => row.id).sort()).toEqual(
      [north.employee, north.subEmployee].sort(),
    );
    expect((await lead.call('GET', `/dashboard/api/live/employees/${south.employee}`)).statusCode).toBe(404);
    expect((await lead.call('GET', `/dashboard/api/live/employees/${north.subEmployee}`)).statusCode).toBe(
      200,
    );
    const southAsk = await south.worker.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-03-15',
      end_date: '2027-03-16',
    });
    expect(southAsk.statusCode, southAsk.body).toBe(201);
    const northAsk = await north.worker.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-03-15',
      end_date: '2027-03-16',
    });
    expect(northAsk.statusCode, northAsk.body).toBe(201);
    const absences = (await lead.call('GET', '/dashboard/api/live/absences')).json();
    expect(absences.data.map((row: { employee_id: string }) => row.employee_id)).toEqual([north.employee]);
    const southId = southAsk.json().id as string;
    const refused = await lead.call('POST', `/dashboard/api/live/absences/${southId}/approve`, {});
    expect(refused.statusCode, refused.body).toBe(404);
    expect((await company.live.get(`/v1/absences/${southId}`)).json().status).toBe('requested');
    const approved = await lead.call(
      'POST',
      `/dashboard/api/live/absences/${northAsk.json().id}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    // The home page counts and shows their people only.
    const today = (await lead.call('GET', '/dashboard/api/live/today')).json();
    expect(today.people.map((person: { employee_id: string }) => person.employee_id).sort()).toEqual(
      [north.employee, north.subEmployee].sort(),
    );
    expect(today.pending.absences).toBe(0);
    const summaries = (
      await lead.call('GET', '/dashboard/api/live/work-summaries?period=month&from=2027-01-01&to=2027-01-31')
    ).json();
    expect(new Set(summaries.data.map((row: { employee_id: string }) => row.employee_id))).toEqual(
      new Set([north.employee, north.subEmployee]),
    );
    // Their inbox holds their people's requests only; payroll is told nothing.
    const inbox = (await lead.call('GET', '/dashboard/api/notifications?lang=es')).json();
    expect(inbox.data.map((row: { title: string }) => row.title)).toEqual(['Nora Norte pide Vacaciones']);
    expect((await sessions.owner.call('GET', '/dashboard/api/notifications')).json().data).toHaveLength(2);
    expect((await sessions.payroll.call('GET', '/dashboard/api/notifications')).json().data).toEqual([]);
  });

  it('lets an owner change roles, never leaving the company without an owner', async () => {
    const owner = sessions.owner;
    const changed = await owner.call('PATCH', `/dashboard/api/admins/${ids.payroll}`, {
      role: 'team_lead',
      unit_ids: [south.unit],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ role: 'team_lead', unit_ids: [south.unit] });
    // The open session follows at once.
    const seen = (await sessions.payroll.call('GET', '/dashboard/api/live/employees')).json();
    expect(seen.data.map((row: { id: string }) => row.id)).toEqual([south.employee]);
    const noUnits = await owner.call('PATCH', `/dashboard/api/admins/${ids.payroll}`, { role: 'team_lead' });
    expect(noUnits.statusCode).toBe(422);
    expect(noUnits.json().errors.unit_ids).toBeDefined();
    const foreign = await owner.call('PATCH', `/dashboard/api/admins/${ids.payroll}`, {
      role: 'team_lead',
      unit_ids: ['0195d2a0-7c41-7e2b-9a55-3c1f0b6d2e21'],
    });
    expect(foreign.statusCode).toBe(422);
    const self = await owner.call('PATCH', `/dashboard/api/admins/${ids.owner}`, { role: 'admin' });
    expect(self.statusCode).toBe(422);
    // The company's first administrator (the test company's) and this one are the owners: demote one, then the
    // other cannot go.
    const admins = (await owner.call('GET', '/dashboard/api/admins')).json().data as Array<{
      id: string;
      role: string;
    }>;
    for (const other of admins.filter((admin) => admin.role === 'owner' && admin.id !== ids.owner)) {
      expect((await owner.call('POST', `/dashboard/api/admins/${other.id}/disable`, {})).statusCode).toBe(
        204,
      );
    }
    const byAdmin = await sessions.admin.call('PATCH', `/dashboard/api/admins/${ids.owner}`, {
      role: 'admin',
    });
    expect(byAdmin.statusCode).toBe(403);
    expect(
      (await sessions.admin.call('POST', `/dashboard/api/admins/${ids.owner}/disable`, {})).statusCode,
    ).toBe(403);
    const promoted = await owner.call('PATCH', `/dashboard/api/admins/${ids.admin}`, { role: 'owner' });
    expect(promoted.statusCode).toBe(200);
    const promotedSession = sessions.admin;
    const demoteLast = await promotedSession.call('PATCH', `/dashboard/api/admins/${ids.owner}`, {
      role: 'payroll',
    });
    expect(demoteLast.statusCode, demoteLast.body).toBe(200);
    const lastOwner = await sessions.owner.call('PATCH', `/dashboard/api/admins/${ids.admin}`, {
      role: 'admin',
    });
    expect(lastOwner.statusCode).toBe(403);
    const disableLast = await promotedSession.call('PATCH', `/dashboard/api/admins/${ids.admin}`, {
      role: 'admin',
    });
    expect(disableLast.statusCode).toBe(422);
  });
});
