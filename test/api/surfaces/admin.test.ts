import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../src/platform/scopes.ts';
import { createTestContext, type TestContext } from '../../helpers/context.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function newCompany(body: Record<string, unknown> = { name: 'Acme' }) {
  const response = await ctx.admin.post('/admin/v1/companies', body);
  expect(response.statusCode).toBe(201);
  return response.json();
}

describe('admin API', () => {
  it('requires the admin token', async () => {
    for (const token of [null, 'wrong-token-wrong-token', 'jrn_live_x']) {
      const response = await ctx.as(token).get('/admin/v1/companies/01900000-0000-7000-8000-000000000000');
      expect(response.statusCode).toBe(401);
      expect(response.json().code).toBe('unauthenticated');
    }
  });

  it('is absent without JORNADA_ADMIN_TOKEN', async () => {
    const other = await createTestContext({ adminToken: null });
    expect((await other.as('anything-anything').post('/admin/v1/companies', { name: 'x' })).statusCode).toBe(
      404,
    );
    await other.close();
  });

  it('creates a company with defaults and a sandbox', async () => {
    const company = await newCompany({ name: 'Acme' });
    expect(company).toMatchObject({
      name: 'Acme',
      timezone: 'Europe/Madrid',
      seats: 50,
      sandbox: false,
      company_status: 'active',
      subscription_status: 'active',
      addon_enabled: true,
      service_active: true,
      default_expiration_days: null,
      max_active_keys: 10,
      vacation_carry_over_max_days: 0,
      vacation_carry_over_expiry: '03-31',
    });
    expect(company.sandbox_company_id).toMatch(/^[0-9a-f-]{36}$/);
    const sandbox = (await ctx.admin.get(`/admin/v1/companies/${company.sandbox_company_id}`)).json();
    expect(sandbox).toMatchObject({ sandbox: true, sandbox_of: company.id });
  });

  it('lists the companies, not their sandboxes, a page at a time', async () => {
    const made = [await newCompany({ name: 'Lista Uno' }), await newCompany({ name: 'Lista Dos' })];
    const seen: Array<{ id: string; sandbox: boolean; sandbox_company_id: string | null }> = [];
    let cursor: string | null = null;
    do {
      const response = await ctx.admin.get('/admin/v1/companies', {
        query: { limit: 2, ...(cursor ? { cursor } : {}) },
      });
      expect(response.statusCode, response.body).toBe(200);
      seen.push(...response.json().data);
      cursor = response.json().meta.next_cursor;
    } while (cursor);
    expect(seen.every((company) => company.sandbox === false)).toBe(true);
    expect(new Set(seen.map((company) => company.id)).size).toBe(seen.length);
    for (const company of made) {
      expect(seen).toContainEqual(
        expect.objectContaining({ id: company.id, sandbox_company_id: company.sandbox_company_id }),
      );
    }
    expect((await ctx.admin.get('/admin/v1/companies?limit=0')).statusCode).toBe(422);
    expect((await ctx.as(null).get('/admin/v1/companies')).statusCode).toBe(401);
  });

  it('validates the time zone', async () => {
    const response = await ctx.admin.post('/admin/v1/companies', { name: 'X', timezone: 'Mars/Olympus' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ timezone: ['is not a known IANA time zone'] });
  });

  it('changes company fields, service state, key and vacation policy', async () => {
    const company = await newCompany();
    const change = {
      name: 'Acme 2',
      timezone: 'Pacific/Auckland',
      seats: 3,
      company_status: 'active',
      subscription_status: 'trialing',
      addon_enabled: true,
      default_expiration_days: 30,
      max_active_keys: 4,
      vacation_carry_over_max_days: 5,
      vacation_carry_over_expiry: '06-30',
    };
    const response = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, change);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject(change);
    const bad = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, {
      vacation_carry_over_expiry: '02-30',
    });
    expect(bad.statusCode).toBe(422);
    const unknown = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { plan: 'gold' });
    expect(unknown.json().errors).toEqual({ plan: ['is not an allowed field'] });
  });

  it('issues keys: secret once, prefix, scopes, mode → tenant', async () => {
    const company = await newCompany();
    const response = await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
      mode: 'test',
      scopes: ['org:empleados:read'],
      name: 'Payroll sync',
    });
    expect(response.statusCode).toBe(201);
    const key = response.json();
    expect(key.secret).toMatch(/^jrn_test_[0-9A-Za-z]{43}$/);
    expect(key).toMatchObject({
      mode: 'test',
      company_id: company.sandbox_company_id,
      scopes: ['org:empleados:read'],
      name: 'Payroll sync',
      status: 'active',
      expires_at: null,
    });
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    const stored = await ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(key.secret);
    expect(stored.secret_hash).toHaveLength(32);

    const listed = (await ctx.admin.get(`/admin/v1/companies/${company.id}/api-keys`)).json();
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).not.toHaveProperty('secret');
  });

  it('lists live keys and sandbox test keys together, with usage fields', async () => {
    const company = await newCompany();
    const live = (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
        mode: 'live',
        scopes: [...SCOPES],
      })
    ).json();
    const test = (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
        mode: 'test',
        scopes: [...SCOPES],
      })
    ).json();
    await ctx.as(live.secret).get('/v1/organization');
    const listed = (await ctx.admin.get(`/admin/v1/companies/${company.id}/api-keys`)).json();
    expect(listed.data.map((key: { id: string }) => key.id).sort()).toEqual([live.id, test.id].sort());
    const usedKey = listed.data.find((key: { id: string }) => key.id === live.id);
    expect(usedKey.last_used_at).toMatch(/Z$/);
    expect(usedKey.last_used_ip).toBe('127.0.0.1');
    for (const field of ['revoked_at', 'revoked_reason']) expect(usedKey).toHaveProperty(field, null);
  });

  it('applies default_expiration_days when no expiry is asked for', async () => {
    const company = await newCompany();
    await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { default_expiration_days: 10 });
    const key = (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
        mode: 'live',
        scopes: ['org:saldos:read'],
      })
    ).json();
    const expected = new Date(ctx.clock.now().epochMilliseconds + 10 * 86_400_000).toISOString().slice(0, 16);
    expect(key.expires_at.slice(0, 16)).toBe(expected);
    const explicit = (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
        mode: 'live',
        scopes: ['org:saldos:read'],
        expires_in_days: 2,
      })
    ).json();
    expect(new Date(explicit.expires_at).getTime() - new Date(key.expires_at).getTime()).toBeLessThan(
      -7 * 86_400_000,
    );
  });

  it('refuses keys beyond max_active_keys with 409, counting live and test keys; revoked keys free a slot', async () => {
    const company = await newCompany();
    await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { max_active_keys: 2 });
    const body = (mode: string) => ({ mode, scopes: ['org:saldos:read'] });
    const first = (await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, body('live'))).json();
    expect(
      (await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, body('test'))).statusCode,
    ).toBe(201);
    const refused = await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, body('live'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('conflict');
    expect((await ctx.admin.delete(`/admin/v1/api-keys/${first.id}`)).statusCode).toBe(204);
    expect(
      (await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, body('live'))).statusCode,
    ).toBe(201);
  });

  it('enforces max_active_keys under concurrent issuance', async () => {
    const company = await newCompany();
    await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { max_active_keys: 3 });
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
          mode: 'live',
          scopes: ['org:saldos:read'],
        }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(3);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(5);
  });

  it('revokes a key with reason revoked_by_admin', async () => {
    const company = await newCompany();
    const key = (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
        mode: 'live',
        scopes: ['org:saldos:read'],
      })
    ).json();
    expect((await ctx.admin.delete(`/admin/v1/api-keys/${key.id}`)).statusCode).toBe(204);
    const listed = (await ctx.admin.get(`/admin/v1/companies/${company.id}/api-keys`)).json();
    expect(listed.data[0]).toMatchObject({ status: 'revoked', revoked_reason: 'revoked_by_admin' });
    expect((await ctx.as(key.secret).get('/v1/organization')).statusCode).toBe(401);
    expect(
      (await ctx.admin.delete('/admin/v1/api-keys/01900000-0000-7000-8000-000000000000')).statusCode,
    ).toBe(404);
  });

  it('creates organisation data in a company or its sandbox', async () => {
    const company = await newCompany();
    const location = await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'HQ' });
    expect(location.statusCode).toBe(201);
    expect(location.json()).toMatchObject({ name: 'HQ', timezone: 'Europe/Madrid' });
    const parent = await ctx.admin.post(`/admin/v1/companies/${company.id}/units`, {
      name: 'Ops',
      location_id: location.json().id,
    });
    expect(parent.statusCode).toBe(201);
    const child = await ctx.admin.post(`/admin/v1/companies/${company.id}/units`, {
      name: 'Night ops',
      parent_id: parent.json().id,
    });
    expect(child.json()).toMatchObject({ parent_id: parent.json().id, location_id: null });
    const type = await ctx.admin.post(`/admin/v1/companies/${company.id}/absence-types`, {
      key: 'training',
      label: 'Training',
    });
    expect(type.statusCode).toBe(201);
    expect(type.json()).toEqual({ key: 'training', label: 'Training' });
    expect(
      (
        await ctx.admin.post(`/admin/v1/companies/${company.id}/absence-types`, {
          key: 'vacation',
          label: 'Dup',
        })
      ).statusCode,
    ).toBe(422);
    const holiday = await ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, {
      date: '2026-12-25',
      name: 'Christmas',
    });
    expect(holiday.statusCode).toBe(201);
    expect(
      (await ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, { date: '2026-02-30', name: 'x' }))
        .statusCode,
    ).toBe(422);
    const sandboxLocation = await ctx.admin.post(
      `/admin/v1/companies/${company.sandbox_company_id}/locations`,
      { name: 'Test site' },
    );
    expect(sandboxLocation.statusCode).toBe(201);
  });

  it('refuses a unit whose parent or location belongs to another company', async () => {
    const a = await newCompany();
    const b = await newCompany();
    const foreignLocation = (
      await ctx.admin.post(`/admin/v1/companies/${b.id}/locations`, { name: 'B site' })
    ).json();
    const foreignUnit = (
      await ctx.admin.post(`/admin/v1/companies/${b.id}/units`, { name: 'B unit' })
    ).json();
    const response = await ctx.admin.post(`/admin/v1/companies/${a.id}/units`, {
      name: 'x',
      parent_id: foreignUnit.id,
      location_id: foreignLocation.id,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      parent_id: ['is not a unit of this company'],
      location_id: ['is not a location of this company'],
    });
  });

  it('moves the fake clock forward', async () => {
    const before = (await ctx.admin.get('/admin/v1/clock')).json().now;
    const after = (await ctx.admin.post('/admin/v1/clock/advance', { seconds: 3600 })).json().now;
    expect(new Date(after).getTime() - new Date(before).getTime()).toBeGreaterThanOrEqual(3600_000);
    expect((await ctx.admin.post('/admin/v1/clock/advance', { seconds: -5 })).statusCode).toBe(422);
  });

  it('answers 404 on the clock routes without JORNADA_FAKE_CLOCK', async () => {
    const real = await createTestContext({ fakeClock: false });
    expect((await real.admin.get('/admin/v1/clock')).statusCode).toBe(404);
    expect((await real.admin.post('/admin/v1/clock/advance', { seconds: 1 })).statusCode).toBe(404);
    await real.close();
  });

  it('serves its own OpenAPI description, separate from the public one', async () => {
    const admin = (await ctx.as(null).get('/admin/v1/openapi.json')).json();
    expect(admin.info.title).toBe('Jornada admin API');
    expect(Object.keys(admin.paths)).toContain('/admin/v1/companies');
    const publicDoc = (await ctx.as(null).get('/v1/openapi.json')).json();
    expect(Object.keys(publicDoc.paths).some((path) => path.startsWith('/admin'))).toBe(false);
  });
});
