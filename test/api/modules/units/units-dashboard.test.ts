import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';

/**
 * Work centres and units from the dashboard's Settings (issue 39: only the operator could create them): created,
 * renamed and moved by an owner or admin, the units kept a tree (never under themselves or a unit below), and
 * another company's unit named nowhere.
 */
let ctx: TestContext;
let company: TestCompany;
let other: TestCompany;
let admin: DashboardSession;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  other = await ctx.createCompany({ name: 'Other' });
  const owner = await createAdmin(ctx, company.id, { role: 'admin' });
  admin = await dashboardSession(ctx, owner.email, owner.password);
});
afterAll(() => ctx.close());

describe('work centres and units from the dashboard', () => {
  it('creates a work centre that the API lists', async () => {
    const created = await admin.call('POST', '/dashboard/api/locations', {
      name: 'Almacén Norte',
      region: 'ES-CT',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Almacén Norte',
      region: 'ES-CT',
      timezone: 'Europe/Madrid',
    });
    const listed = (await company.live.get('/v1/locations')).json().data as Array<{ id: string }>;
    expect(listed.map((row) => row.id)).toContain(created.json().id);
  });

  it('creates, renames and moves units, and refuses a loop or another company’s unit', async () => {
    const top = (await admin.call('POST', '/dashboard/api/units', { name: 'Operaciones' })).json();
    const team = await admin.call('POST', '/dashboard/api/units', { name: 'Sala', parent_id: top.id });
    expect(team.statusCode, team.body).toBe(201);
    expect(team.json().parent_id).toBe(top.id);
    const renamed = await admin.call('PATCH', `/dashboard/api/units/${team.json().id}`, { name: 'Sala 1' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Sala 1', parent_id: top.id });
    const loop = await admin.call('PATCH', `/dashboard/api/units/${top.id}`, { parent_id: team.json().id });
    expect(loop.statusCode).toBe(422);
    expect(loop.json().errors.parent_id).toEqual(['is this unit or a unit below it']);
    const self = await admin.call('PATCH', `/dashboard/api/units/${top.id}`, { parent_id: top.id });
    expect(self.statusCode).toBe(422);
    const foreign = (await ctx.admin.post(`/admin/v1/companies/${other.id}/units`, { name: 'Ajena' })).json();
    const across = await admin.call('PATCH', `/dashboard/api/units/${team.json().id}`, {
      parent_id: foreign.id,
    });
    expect(across.statusCode).toBe(422);
    expect(
      (await admin.call('PATCH', `/dashboard/api/units/${foreign.id}`, { name: 'Mía' })).statusCode,
    ).toBe(404);
    const units = (await company.live.get('/v1/units')).json().data as Array<{ id: string; name: string }>;
    expect(units.map((unit) => unit.name).sort()).toEqual(['Operaciones', 'Sala 1']);
  });
});
