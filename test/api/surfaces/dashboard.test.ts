import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession, login } from '../../helpers/dashboard.ts';
import { ensureDashboardBuilt } from '../../helpers/dashboard-build.ts';
import { hire } from '../../helpers/resources.ts';

let ctx: TestContext;
let company: TestCompany;
let other: TestCompany;
let admin: { email: string; password: string };
let session: DashboardSession;

beforeAll(async () => {
  await ensureDashboardBuilt();
  ctx = await createTestContext();
  company = await ctx.createCompany();
  other = await ctx.createCompany();
  admin = await createAdmin(ctx, company.id);
  session = await dashboardSession(ctx, admin.email, admin.password);
});
afterAll(() => ctx.close());

/** A fresh company, one of its administrators, and a logged-in session of theirs. */
async function companyWithSession() {
  const owner = await ctx.createCompany();
  const credentials = await createAdmin(ctx, owner.id);
  return { owner, own: await dashboardSession(ctx, credentials.email, credentials.password) };
}

describe('administrators', () => {
  it('stores a scrypt hash, never the password', async () => {
    const created = await createAdmin(ctx, other.id);
    const row = await ctx.db
      .selectFrom('company_admins')
      .select(['password_hash', 'company_id'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.company_id).toBe(other.id);
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(row.password_hash).not.toContain(created.password);
  });

  it('refuses a short password, a bad email, unknown fields, a sandbox and a taken email', async () => {
    const url = `/admin/v1/companies/${company.id}/admins`;
    const short = await ctx.admin.post(url, { email: 'a@example.com', password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password).toBeDefined();
    const bad = await ctx.admin.post(url, { email: 'not-an-email', password: 'long enough password' });
    expect(bad.json().errors.email).toBeDefined();
    const extra = await ctx.admin.post(url, {
      email: 'b@example.com',
      password: 'long enough password',
      x: 1,
    });
    expect(extra.statusCode).toBe(422);
    const sandbox = await ctx.admin.post(`/admin/v1/companies/${company.sandboxId}/admins`, {
      email: 'c@example.com',
      password: 'long enough password',
    });
    expect(sandbox.statusCode).toBe(422);
    const taken = await ctx.admin.post(`/admin/v1/companies/${other.id}/admins`, {
      email: admin.email.toUpperCase(),
      password: 'long enough password',
    });
    expect(taken.statusCode).toBe(409);
    expect(
      (
        await ctx.admin.post('/admin/v1/companies/0190f5b2-0000-7000-8000-000000000000/admins', {
          email: 'd@example.com',
          password: 'long enough password',
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('login and session', () => {
  it('answers 401 to a wrong password and to an unknown email, with the same message', async () => {
    const wrong = await login(ctx, admin.email, 'wrong password!!');
    const unknown = await login(ctx, 'nobody@example.com', admin.password);
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json()).toMatchObject({
        code: 'unauthenticated',
        detail: 'The email or the password is wrong.',
      });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('accepts the email in any case, and validates the body', async () => {
    expect((await login(ctx, admin.email.toUpperCase(), admin.password)).statusCode).toBe(200);
    const extra = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/login',
      payload: { email: admin.email, password: admin.password, remember: true },
    });
    expect(extra.statusCode).toBe(422);
  });

  it('sets an HttpOnly, SameSite=Strict session cookie scoped to /dashboard, not Secure over http', async () => {
    const response = await login(ctx, admin.email, admin.password);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^jornada_session=[\w-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/dashboard');
    expect(cookie).toContain('Max-Age=43200');
    expect(cookie).not.toContain('Secure');
    // The token is kept only as a hash.
    const token = cookie.slice('jornada_session='.length, cookie.indexOf(';'));
    const rows = await ctx.db.selectFrom('dashboard_sessions').select('token_hash').execute();
    expect(
      rows.some((row) => row.token_hash.toString('hex').includes(Buffer.from(token).toString('hex'))),
    ).toBe(false);
  });

  it('marks the cookie Secure when the service is served over https', async () => {
    const secure = await createTestContext({ publicUrl: 'https://jornada.example.com' });
    try {
      const owner = await secure.createCompany();
      const credentials = await createAdmin(secure, owner.id);
      const response = await login(secure, credentials.email, credentials.password);
      expect(response.statusCode).toBe(200);
      const cookie = String(response.headers['set-cookie']);
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Strict');
    } finally {
      await secure.close();
    }
  });

  it('answers the session with its company and CSRF token, and 401 without a cookie', async () => {
    const me = await session.call('GET', '/dashboard/api/session');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      admin: { email: admin.email },
      company: { id: company.id, sandbox_company_id: company.sandboxId },
      csrf_token: session.csrf,
    });
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/dashboard/api/session' });
    expect(anonymous.statusCode).toBe(401);
    const forged = await ctx.app.inject({
      method: 'GET',
      url: '/dashboard/api/live/employees',
      headers: { cookie: 'jornada_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('ends the session on logout and after 12 hours', async () => {
    const short = await dashboardSession(ctx, admin.email, admin.password);
    expect((await short.call('POST', '/dashboard/api/logout')).statusCode).toBe(204);
    expect((await short.call('GET', '/dashboard/api/session')).statusCode).toBe(401);

    const expiring = await dashboardSession(ctx, admin.email, admin.password);
    ctx.clock.advance(12 * 3600 - 1);
    expect((await expiring.call('GET', '/dashboard/api/session')).statusCode).toBe(200);
    ctx.clock.advance(2);
    expect((await expiring.call('GET', '/dashboard/api/session')).statusCode).toBe(401);
    session = await dashboardSession(ctx, admin.email, admin.password);
  });
});

describe('CSRF', () => {
  it('refuses a state-changing call without the X-CSRF-Token header, or with a wrong one', async () => {
    const before = await session.call('GET', '/dashboard/api/live/employees');
    const body = { first_name: 'No', last_name: 'Csrf', email: 'no.csrf@example.com' };
    for (const headers of [
      { 'x-csrf-token': '' },
      { 'x-csrf-token': `${session.csrf.slice(0, -1)}${session.csrf.endsWith('A') ? 'B' : 'A'}` },
    ]) {
      const refused = await ctx.app.inject({
        method: 'POST',
        url: '/dashboard/api/live/employees',
        headers: { cookie: session.cookie, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(body),
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'unauthenticated',
        errors: { csrf_token: expect.any(Array) },
      });
    }
    const missing = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/live/employees',
      headers: { cookie: session.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(missing.statusCode).toBe(403);
    const logout = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/logout',
      headers: { cookie: session.cookie },
    });
    expect(logout.statusCode).toBe(403);
    // Nothing was written, and the session still works.
    const after = await session.call('GET', '/dashboard/api/live/employees');
    expect(after.json().data).toEqual(before.json().data);
    expect((await session.call('POST', '/dashboard/api/live/employees', body)).statusCode).toBe(201);
  });
});

describe('tenant screens', () => {
  it('acts on the live company or its sandbox through the switch, with the /v1 rules', async () => {
    const live = await session.call('POST', '/dashboard/api/live/employees', {
      first_name: 'Live',
      last_name: 'One',
      email: 'live.one@example.com',
    });
    const test = await session.call('POST', '/dashboard/api/test/employees', {
      first_name: 'Test',
      last_name: 'One',
      email: 'test.one@example.com',
    });
    expect(live.statusCode).toBe(201);
    expect(test.statusCode).toBe(201);
    expect((await company.live.get(`/v1/employees/${live.json().id}`)).statusCode).toBe(200);
    expect((await company.live.get(`/v1/employees/${test.json().id}`)).statusCode).toBe(404);
    expect((await company.test.get(`/v1/employees/${test.json().id}`)).statusCode).toBe(200);
    // The same validation as /v1, unknown fields included.
    const invalid = await session.call('POST', '/dashboard/api/live/employees', {
      first_name: 'X',
      extra: 1,
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().code).toBe('validation_failed');
  });

  it('searches employees by name, email or external id, with a status filter', async () => {
    const ana = await hire(company.live, {
      first_name: 'Anabel',
      last_name: 'Searchable',
      external_id: 'PAY-77%',
    });
    const gone = await hire(company.live, { first_name: 'Anabel', last_name: 'Gone' });
    await company.live.post(`/v1/employees/${gone.id}/terminate`, { termination_date: '2026-06-30' });
    const search = (query: string) =>
      session.call('GET', `/dashboard/api/live/employees/search?${query}`).then((r) => {
        expect(r.statusCode, r.body).toBe(200);
        return r.json().data.map((e: { id: string }) => e.id);
      });
    expect(await search('q=searchable')).toEqual([ana.id]);
    expect(await search(`q=${encodeURIComponent(ana.email.toUpperCase())}`)).toEqual([ana.id]);
    expect(await search('q=PAY-77%25')).toEqual([ana.id]);
    expect(await search('q=%25')).toEqual([ana.id]);
    expect((await search('q=anabel')).sort()).toEqual([ana.id, gone.id].sort());
    expect(await search('q=anabel&status=terminated')).toEqual([gone.id]);
    expect((await session.call('GET', '/dashboard/api/live/employees/search?status=fired')).statusCode).toBe(
      422,
    );
  });

  it('issues keys of the switched mode, lists their use, and revokes with revoked_by_dashboard', async () => {
    const created = await session.call('POST', '/dashboard/api/test/api-keys', {
      name: 'From the dashboard',
      scopes: ['org:empleados:read'],
      expires_in_days: 30,
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json();
    expect(key).toMatchObject({ mode: 'test', company_id: company.sandboxId, status: 'active' });
    expect(key.secret).toMatch(/^jrn_test_/);
    const organization = await ctx.as(key.secret).get('/v1/organization');
    expect(organization.statusCode).toBe(200);
    expect(organization.json().id).toBe(company.sandboxId);

    const listed = await session.call('GET', '/dashboard/api/test/api-keys');
    const row = listed.json().data.find((item: { id: string }) => item.id === key.id);
    expect(row).toMatchObject({ last_used_ip: '127.0.0.1', last_used_at: expect.any(String) });
    expect(row.secret).toBeUndefined();
    expect(
      (await session.call('GET', '/dashboard/api/live/api-keys'))
        .json()
        .data.some((item: { id: string }) => item.id === key.id),
    ).toBe(false);

    expect((await session.call('DELETE', `/dashboard/api/test/api-keys/${key.id}`)).statusCode).toBe(204);
    expect((await ctx.as(key.secret).get('/v1/organization')).statusCode).toBe(401);
    const revoked = (await session.call('GET', '/dashboard/api/test/api-keys'))
      .json()
      .data.find((item: { id: string }) => item.id === key.id);
    expect(revoked).toMatchObject({ status: 'revoked', revoked_reason: 'revoked_by_dashboard' });
    expect((await session.call('POST', '/dashboard/api/live/api-keys', { scopes: [] })).statusCode).toBe(422);
    expect(
      (
        await session.call('POST', '/dashboard/api/live/api-keys', {
          mode: 'test',
          scopes: ['org:empleados:read'],
        })
      ).statusCode,
    ).toBe(422);
  });

  it('approves an absence that /v1 then lists as approved', async () => {
    const employee = await hire(company.live);
    const requested = await company.live.post('/v1/absences', {
      employee_id: employee.id,
      type: 'vacation',
      start_date: '2026-12-01',
      end_date: '2026-12-02',
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const queue = await session.call('GET', '/dashboard/api/live/absences?status=requested');
    expect(queue.statusCode, queue.body).toBe(200);
    expect(queue.json().data.map((a: { id: string }) => a.id)).toContain(requested.json().id);
    const approved = await session.call(
      'POST',
      `/dashboard/api/live/absences/${requested.json().id}/approve`,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const listed = await company.live.get('/v1/absences?status=approved');
    expect(listed.json().data.map((a: { id: string }) => a.id)).toContain(requested.json().id);
  });

  it('lists the latest reports of the tenant', async () => {
    const created = await session.call('POST', '/dashboard/api/live/reports', {
      type: 'time_registry_monthly',
      format: 'csv',
      params: { month: '2026-10' },
    });
    expect(created.statusCode, created.body).toBe(202);
    const list = await session.call('GET', '/dashboard/api/live/reports');
    expect(list.json().data[0]).toMatchObject({ id: created.json().id, status: 'processing' });
    expect((await session.call('GET', '/dashboard/api/test/reports')).json().data).toEqual([]);
    // The download lives at /v1 only.
    expect(
      (await session.call('GET', `/dashboard/api/live/reports/${created.json().id}/download`)).statusCode,
    ).toBe(404);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another company's resources, and changes nothing of theirs", async () => {
    const employee = await hire(other.live);
    const absence = await other.live.post('/v1/absences', {
      employee_id: employee.id,
      type: 'vacation',
      start_date: '2026-12-10',
      end_date: '2026-12-10',
    });
    const hook = await other.live.post('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/other',
      events: ['employee.created'],
    });
    const report = await other.live.post('/v1/reports', {
      type: 'time_registry_monthly',
      format: 'csv',
      params: { month: '2026-10' },
    });
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/dashboard/api/live/employees/${employee.id}`],
      ['PATCH', `/dashboard/api/live/employees/${employee.id}`, { first_name: 'Hacked' }],
      ['POST', `/dashboard/api/live/employees/${employee.id}/terminate`, { termination_date: '2026-12-31' }],
      ['GET', `/dashboard/api/live/absences/${absence.json().id}`],
      ['POST', `/dashboard/api/live/absences/${absence.json().id}/approve`],
      ['GET', `/dashboard/api/live/webhook-endpoints/${hook.json().id}`],
      ['DELETE', `/dashboard/api/live/webhook-endpoints/${hook.json().id}`],
      ['POST', `/dashboard/api/live/webhook-endpoints/${hook.json().id}/test`],
      ['GET', `/dashboard/api/live/reports/${report.json().id}`],
      ['DELETE', `/dashboard/api/live/api-keys/${other.liveKeyId}`],
      ['DELETE', `/dashboard/api/test/api-keys/${other.testKeyId}`],
      ['GET', `/dashboard/api/test/employees/${employee.id}`],
    ];
    for (const [method, url, body] of attempts) {
      const response = await session.call(method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().code).toBe('not_found');
    }
    expect((await other.live.get(`/v1/employees/${employee.id}`)).json()).toMatchObject({
      first_name: employee.first_name,
      status: 'active',
    });
    expect((await other.live.get(`/v1/absences/${absence.json().id}`)).json().status).toBe('requested');
    expect((await other.live.get(`/v1/webhook-endpoints/${hook.json().id}`)).statusCode).toBe(200);
    expect((await other.live.get('/v1/organization')).statusCode).toBe(200);
    expect((await other.test.get('/v1/organization')).statusCode).toBe(200);
  });
});

describe('integration settings and the lifecycle', () => {
  it('shows the subscription, quota use and rate limits read-only', async () => {
    const settings = await session.call('GET', '/dashboard/api/settings');
    expect(settings.statusCode).toBe(200);
    const body = settings.json();
    expect(body.company).toMatchObject({
      id: company.id,
      addon_enabled: true,
      subscription_status: 'active',
    });
    expect(body.rate_limits).toEqual({ live: 120, test: 30 });
    expect(body.usage.month).toMatch(/^\d{4}-\d{2}$/);
    expect(body.usage.live.used).toBeGreaterThan(0);
    expect(body.usage.live.quota).toBeGreaterThanOrEqual(10_000);
    expect(body.usage.test).toMatchObject({ quota: 5_000 });
    // Only the addon can be changed here.
    expect(
      (await session.call('PATCH', '/dashboard/api/settings', { subscription_status: 'active' })).statusCode,
    ).toBe(422);
  });

  it('gates the tenant screens like /v1 while the service is inactive, but lets keys be revoked', async () => {
    const { owner, own } = await companyWithSession();
    await ctx.admin.patch(`/admin/v1/companies/${owner.id}`, { subscription_status: 'canceled' });
    for (const mode of ['live', 'test']) {
      const response = await own.call('GET', `/dashboard/api/${mode}/employees`);
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('subscription_inactive');
    }
    expect((await own.call('GET', '/dashboard/api/settings')).json().company.service_active).toBe(false);
    expect((await own.call('DELETE', `/dashboard/api/live/api-keys/${owner.liveKeyId}`)).statusCode).toBe(
      204,
    );
    expect((await owner.live.get('/v1/organization')).statusCode).toBe(401);
  });

  it('switches the addon off (keys revoked, sandbox gone) and on again (a new, empty sandbox)', async () => {
    const { owner, own } = await companyWithSession();
    await own.call('POST', '/dashboard/api/test/employees', {
      first_name: 'S',
      last_name: 'B',
      email: 's.b@example.com',
    });

    const off = await own.call('PATCH', '/dashboard/api/settings', { addon_enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({
      company: { addon_enabled: false, sandbox_company_id: null },
      usage: { test: null },
    });
    expect((await owner.live.get('/v1/organization')).statusCode).toBe(401);
    expect((await owner.test.get('/v1/organization')).statusCode).toBe(401);
    const keys = await ctx.db
      .selectFrom('api_keys')
      .select('revoked_reason')
      .where('company_id', '=', owner.id)
      .execute();
    expect(keys.map((key) => key.revoked_reason)).toEqual(['addon_disabled']);
    for (const mode of ['live', 'test']) {
      expect((await own.call('GET', `/dashboard/api/${mode}/employees`)).json().code).toBe('addon_disabled');
      expect(
        (await own.call('POST', `/dashboard/api/${mode}/api-keys`, { scopes: ['org:empleados:read'] })).json()
          .code,
      ).toBe('addon_disabled');
    }

    const on = await own.call('PATCH', '/dashboard/api/settings', { addon_enabled: true });
    expect(on.statusCode).toBe(200);
    const sandboxId = on.json().company.sandbox_company_id;
    expect(sandboxId).not.toBe(owner.sandboxId);
    expect((await own.call('GET', '/dashboard/api/test/employees')).json().data).toEqual([]);
    expect(
      (await own.call('GET', '/dashboard/api/live/api-keys'))
        .json()
        .data.every((k: { status: string }) => k.status === 'revoked'),
    ).toBe(true);
  });
});

describe('the page', () => {
  it('is served at /dashboard with a strict content security policy', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/dashboard' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).toContain('<div id="root">');
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await ctx.app.inject({ method: 'GET', url: script ?? '' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toContain('javascript');
    expect((await ctx.app.inject({ method: 'GET', url: '/dashboard/api/nothing' })).statusCode).toBe(404);
  });
});
