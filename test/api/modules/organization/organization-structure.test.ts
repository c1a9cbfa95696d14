import { describe, expect, it } from 'vitest';
import { useCompanyContext } from '../../../helpers/context.ts';

const env = useCompanyContext();

describe('locations and units (read-only, created through the admin API)', () => {
  it('lists and gets locations and units with their fields', async () => {
    const { admin, clock } = env.ctx;
    const tenant = env.company;
    const location = (
      await admin.post(`/admin/v1/companies/${tenant.id}/locations`, {
        name: 'Sevilla',
        timezone: 'Atlantic/Canary',
      })
    ).json();
    expect(location).toEqual({
      id: expect.any(String),
      name: 'Sevilla',
      timezone: 'Atlantic/Canary',
      address: null,
      ccc: null,
      region: null,
      municipality: null,
      location_capture: 'off',
      geofence: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: location.created_at,
    });
    const parent = (
      await admin.post(`/admin/v1/companies/${tenant.id}/units`, { name: 'Operations' })
    ).json();
    clock.advance(2);
    const child = (
      await admin.post(`/admin/v1/companies/${tenant.id}/units`, {
        name: 'Floor',
        parent_id: parent.id,
        location_id: location.id,
      })
    ).json();
    expect(child).toMatchObject({ name: 'Floor', parent_id: parent.id, location_id: location.id });

    expect((await tenant.live.get(`/v1/locations/${location.id}`)).json()).toEqual(location);
    expect((await tenant.live.get(`/v1/units/${child.id}`)).json()).toEqual(child);
    expect((await tenant.live.get('/v1/locations')).json().data).toEqual([location]);
    expect((await tenant.live.get('/v1/units')).json().data).toEqual([parent, child]);
    const since = Temporal.Instant.from(parent.updated_at).add({ seconds: 1 }).toString();
    expect((await tenant.live.get('/v1/units', { query: { updated_since: since } })).json().data).toEqual([
      child,
    ]);
    // The sandbox is another tenant: none of these are visible to the test key.
    expect((await tenant.test.get('/v1/units')).json().data).toEqual([]);
  });

  it('answers 404, refuses writes with 405, and needs org:empleados:read', async () => {
    const tenant = env.company;
    for (const url of ['/v1/locations', '/v1/units']) {
      const missing = await tenant.live.get(`${url}/0190a0a0-0000-7000-8000-000000000000`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().code).toBe('not_found');
      expect((await tenant.live.post(url, { name: 'x' })).statusCode).toBe(405);
    }
    const key = await env.ctx.createKey(tenant.id, 'live', ['org:fichajes:read']);
    const refused = await env.ctx.as(key.secret).get('/v1/units');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors.required_scope).toBe('org:empleados:read');
  });
});
