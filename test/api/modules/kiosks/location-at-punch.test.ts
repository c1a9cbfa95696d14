import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metresBetween } from '../../../../src/modules/locations/locations.service.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { joinPortal } from '../../../helpers/portal.ts';
import { rewriteCheckIn } from '../../../helpers/tamper.ts';

/**
 * Issue 40, location at the punch (LOPDGDD art. 90): only where the company turns it on for a work centre, only
 * at the moment of the punch, rounded to about 100 m, with the distance to the centre and whether it was outside
 * the geofence; the worker may decline; nothing is stored where the centre has it off, whatever a device sends.
 */
let ctx: TestContext;
let company: TestCompany;
/** Puerta del Sol, Madrid: the centre of the geofence. */
const SOL = { latitude: 40.416_775, longitude: -3.703_79 };

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());

async function centre(settings: Record<string, unknown>) {
  const created = await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Sol' });
  expect(created.statusCode, created.body).toBe(201);
  const patched = await ctx.admin.patch(
    `/admin/v1/companies/${company.id}/locations/${created.json().id}`,
    settings,
  );
  expect(patched.statusCode, patched.body).toBe(200);
  return patched.json() as { id: string };
}

describe('location at the punch', () => {
  it('is off by default and shown by GET /v1/locations/{id} once turned on', async () => {
    const plain = (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Plain' })
    ).json();
    expect(plain).toMatchObject({ location_capture: 'off', geofence: null });
    const on = await centre({ location_capture: 'at_punch', geofence: { ...SOL, radius_m: 200 } });
    const read = (await company.live.get(`/v1/locations/${on.id}`)).json();
    expect(read).toMatchObject({ location_capture: 'at_punch', geofence: { ...SOL, radius_m: 200 } });
    const tiny = await ctx.admin.patch(`/admin/v1/companies/${company.id}/locations/${on.id}`, {
      geofence: { ...SOL, radius_m: 1 },
    });
    expect(tiny.statusCode).toBe(422);
  });

  it('keeps a rounded position, its distance and the geofence flag; or the refusal', async () => {
    const on = await centre({ location_capture: 'at_punch', geofence: { ...SOL, radius_m: 200 } });
    const { worker } = await joinPortal(ctx, company.live, { location_id: on.id });
    // The portal learns that this worker's centre asks, and its name for the notice.
    expect((await worker.send('GET', '/portal/api/me')).json()).toMatchObject({
      location_capture: 'at_punch',
      work_centre: 'Sol',
    });
    // About 55 m from the centre: inside.
    const near = { latitude: 40.417_2, longitude: -3.703_6, accuracy_m: 12.4 };
    const inside = await worker.send('POST', '/portal/api/check-ins', { type: 'in', location: near });
    expect(inside.statusCode, inside.body).toBe(201);
    const distance = Math.round(metresBetween(near, SOL) / 10) * 10;
    expect(inside.json().location).toEqual({
      latitude: 40.417,
      longitude: -3.704,
      accuracy_m: 12,
      distance_m: distance,
      outside_geofence: false,
    });
    // About 1.6 km away: outside.
    ctx.clock.advance(3600);
    const far = { latitude: 40.43, longitude: -3.7, accuracy_m: 30 };
    const outside = await worker.send('POST', '/portal/api/check-ins', { type: 'out', location: far });
    expect(outside.json().location).toMatchObject({ outside_geofence: true });
    expect(outside.json().location.distance_m).toBeGreaterThan(1_000);
    ctx.clock.advance(3600);
    const declined = await worker.send('POST', '/portal/api/check-ins', { type: 'in', location: 'declined' });
    expect(declined.statusCode).toBe(201);
    expect(declined.json().location).toBe('declined');
    // The API shows it, and the stored row holds nothing finer than the rounded position.
    const read = (await company.live.get(`/v1/check-ins/${inside.json().id}`)).json();
    expect(read.location).toEqual(inside.json().location);
    const stored = await ctx.db
      .selectFrom('check_ins')
      .select('location')
      .where('id', '=', inside.json().id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.location)).not.toContain('40.4172');
    // The punches outside the area, as the dashboard lists them: the one outside, in a timeline or a sync.
    const employeeId = inside.json().employee_id;
    const ranges: Array<Record<string, string>> = [
      { from: '2020-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' },
      {},
    ];
    for (const range of ranges) {
      const listed = await company.live.get('/v1/check-ins', {
        query: { employee_id: employeeId, outside_geofence: 'true', ...range },
      });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json().data.map((checkIn: { id: string }) => checkIn.id)).toEqual([outside.json().id]);
    }
  });

  it('never stores a position where the centre has it off, whatever the device sends', async () => {
    const off = (await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Off' })).json();
    const { worker } = await joinPortal(ctx, company.live, { location_id: off.id });
    expect((await worker.send('GET', '/portal/api/me')).json().location_capture).toBe('off');
    const punched = await worker.send('POST', '/portal/api/check-ins', {
      type: 'in',
      location: { latitude: 40.4, longitude: -3.7, accuracy_m: 5 },
    });
    expect(punched.statusCode, punched.body).toBe(201);
    expect(punched.json().location).toBeNull();
    const stored = await ctx.db
      .selectFrom('check_ins')
      .select('location')
      .where('id', '=', punched.json().id)
      .executeTakeFirstOrThrow();
    expect(stored.location).toBeNull();
    // A worker without a centre: nothing either.
    const { worker: loose } = await joinPortal(ctx, company.live);
    const free = await loose.send('POST', '/portal/api/check-ins', {
      type: 'in',
      location: { latitude: 40.4, longitude: -3.7, accuracy_m: 5 },
    });
    expect(free.json().location).toBeNull();
  });

  it('puts the position in the chain entry, so that changing it later breaks verification', async () => {
    const on = await centre({ location_capture: 'at_punch', geofence: { ...SOL, radius_m: 200 } });
    const { worker } = await joinPortal(ctx, company.live, { location_id: on.id });
    const punched = await worker.send('POST', '/portal/api/check-ins', {
      type: 'in',
      location: { latitude: 40.417, longitude: -3.704, accuracy_m: 10 },
    });
    expect(punched.statusCode).toBe(201);
    const verify = async () =>
      (await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: company.id } })).json();
    const before = await verify();
    expect(before.ok, JSON.stringify(before.problems)).toBe(true);
    await rewriteCheckIn(ctx.db, punched.json().id, {
      location: JSON.stringify({ ...punched.json().location, outside_geofence: true }),
    });
    const after = await verify();
    expect(after.ok).toBe(false);
    expect(JSON.stringify(after.problems)).toContain(punched.json().id);
  });
});
