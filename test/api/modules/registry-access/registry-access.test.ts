import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_REQUESTS_PER_ADDRESS } from '../../../../src/modules/registry-access/access.service.ts';
import {
  createTestContext,
  reportWorker,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Read-only access for the Inspección and the workers' representatives (issue 16, docs/registry.md): a secret
 * link per grant, scoped to a period and workers, every use logged, revocable, expiring.
 */
let ctx: TestContext;
let company: TestCompany;
let ana: { id: string; first_name: string; last_name: string };
let luis: { id: string };

beforeAll(async () => {
  ctx = await createTestContext();
  const created = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  company = created;
  await ctx.admin.patch(`/admin/v1/companies/${company.id}`, {
    legal_name: 'Panadería Sol, S.L.',
    tax_id: 'B12345674',
  });
  ana = await hire(company.live, { hire_date: '2026-01-01', first_name: 'Ana', national_id: '12345678Z' });
  luis = await hire(company.live, { hire_date: '2026-01-01', first_name: 'Luis' });
  for (const [employee, type, timestamp] of [
    [ana.id, 'in', '2026-10-08T22:00:00+02:00'],
    [ana.id, 'out', '2026-10-09T06:30:00+02:00'],
    [luis.id, 'in', '2026-10-07T09:00:00+02:00'],
    [luis.id, 'out', '2026-10-07T17:00:00+02:00'],
  ] as const) {
    const response = await company.live.post('/v1/check-ins', { employee_id: employee, type, timestamp });
    expect(response.statusCode, response.body).toBe(201);
  }
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.advance(60));

const inDays = (days: number) =>
  ctx.clock
    .now()
    .add({ hours: days * 24 })
    .toString({ smallestUnit: 'second' });
const tokenOf = (url: string) => url.split('/registry-access/')[1] as string;

async function grant(body: Record<string, unknown>) {
  const response = await company.live.post('/v1/registry/access-grants', {
    kind: 'inspection',
    label: 'ITSS Valencia, expediente 46/123',
    from: '2026-10-01',
    to: '2026-10-31',
    expires_at: inDays(30),
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const open = (path: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url: path, headers, remoteAddress: '203.0.113.7' });

describe('granting access', () => {
  it('refuses a bad period, an expiry past 90 days or gone, unknown workers, unknown fields, and a key without the scope', async () => {
    for (const [body, field] of [
      [{ to: '2026-09-01' }, 'to'],
      [{ to: '2031-01-01' }, 'to'],
      [{ expires_at: inDays(91) }, 'expires_at'],
      [{ expires_at: inDays(-1) }, 'expires_at'],
      [{ employee_ids: ['0191a8e0-0000-7000-8000-000000000000'] }, 'employee_ids[0]'],
      [{ kind: 'auditor' }, 'kind'],
      [{ secret: 'x' }, 'secret'],
    ] as const) {
      const response = await company.live.post('/v1/registry/access-grants', {
        kind: 'inspection',
        label: 'x',
        from: '2026-10-01',
        to: '2026-10-31',
        expires_at: inDays(30),
        ...body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.json().errors).join()).toContain(field);
    }
    const key = await ctx.createKey(company.id, 'live', ['org:fichajes:read']);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: '/v1/registry/access-grants',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        kind: 'inspection',
        label: 'x',
        from: '2026-10-01',
        to: '2026-10-31',
        expires_at: inDays(1),
      }),
    });
    expect(refused.statusCode).toBe(403);
  });

  it('answers the secret link once; the listing and the grant never show it', async () => {
    const created = await grant({});
    expect(created).toMatchObject({
      kind: 'inspection',
      from: '2026-10-01',
      to: '2026-10-31',
      employee_ids: null,
      revoked_at: null,
      url: expect.stringMatching(/^http:\/\/jornada\.test\/registry-access\/[\w-]{43}$/),
    });
    const shown = (await company.live.get(`/v1/registry/access-grants/${created.id}`)).json();
    expect(shown).not.toHaveProperty('url');
    const listed = (await company.live.get('/v1/registry/access-grants')).json().data;
    expect(listed.map((row: { id: string }) => row.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(tokenOf(created.url));
    const other = await ctx.createCompany();
    expect((await other.live.get(`/v1/registry/access-grants/${created.id}`)).statusCode).toBe(404);
    expect((await other.live.delete(`/v1/registry/access-grants/${created.id}`)).statusCode).toBe(404);
  });
});

describe('the inspection’s view', () => {
  it('lists the company, months and workers, and each worker’s full month, by path or Bearer token', async () => {
    const created = await grant({});
    const token = tokenOf(created.url);
    const summary = await open(`/registry-access/${token}/api/summary`);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toMatchObject({
      kind: 'inspection',
      company: { legal_name: 'Panadería Sol, S.L.', tax_id: 'B12345674' },
      time_zone: 'Europe/Madrid',
      months: ['2026-10'],
    });
    expect(
      summary
        .json()
        .workers.map((worker: { id: string }) => worker.id)
        .sort(),
    ).toEqual([ana.id, luis.id].sort());

    const month = await open(`/registry-access/api/workers/${ana.id}/2026-10`, {
      authorization: `Bearer ${token}`,
    });
    expect(month.statusCode, month.body).toBe(200);
    expect(month.json().days).toHaveLength(31);
    expect(month.json().days[7]).toMatchObject({
      date: '2026-10-08',
      intervals: '22:00-06:30 (+1)',
      worked_hhmm: '8:30',
    });
    const summaries = (
      await company.live.get('/v1/work-summaries', {
        query: { period: 'month', from: '2026-10-01', to: '2026-10-31', employee_id: ana.id },
      })
    ).json().data[0];
    expect(month.json().totals).toMatchObject({
      worked_minutes: summaries.worked_minutes,
      night_minutes: summaries.night_minutes,
    });
    // Outside the grant: another month, an unknown worker.
    expect((await open(`/registry-access/${token}/api/workers/${ana.id}/2026-09`)).statusCode).toBe(404);
    expect(
      (await open(`/registry-access/${token}/api/workers/0191a8e0-0000-7000-8000-000000000000/2026-10`))
        .statusCode,
    ).toBe(404);
    expect((await open('/registry-access/api/summary', { authorization: 'Bearer nope' })).statusCode).toBe(
      401,
    );
    expect((await open(`/registry-access/${'x'.repeat(43)}/api/summary`)).statusCode).toBe(404);
  });

  it('downloads a month as CSV: the registry report’s rows for the covered workers', async () => {
    const inspection = await grant({});
    const token = tokenOf(inspection.url);
    const csv = await open(`/registry-access/${token}/api/months/2026-10.csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="registro-2026-10.csv"');
    // The same lines as the time_registry_monthly report of the month (workers by name here, by id there).
    const created = await company.live.post('/v1/reports', {
      type: 'time_registry_monthly',
      format: 'csv',
      params: { month: '2026-10' },
    });
    const job = reportWorker(ctx);
    while ((await job.tick()) > 0) {}
    const url = new URL((await company.live.get(`/v1/reports/${created.json().id}`)).json().download_url);
    const report = await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    const lines = (body: string) => body.split('\r\n').filter(Boolean);
    expect(lines(csv.body)).toHaveLength(1 + 2 * 32);
    expect(lines(csv.body)[0]).toBe(lines(report.body)[0]);
    expect(lines(csv.body).slice(1).sort()).toEqual(lines(report.body).slice(1).sort());
    expect(csv.body).toContain('22:00-06:30 (+1)');
    // Named workers only; months outside the grant are 404.
    const luisOnly = tokenOf((await grant({ employee_ids: [luis.id] })).url);
    const narrow = await open(`/registry-access/${luisOnly}/api/months/2026-10.csv`);
    expect(narrow.statusCode).toBe(200);
    expect(narrow.body).toContain(luis.id);
    expect(narrow.body).not.toContain(ana.id);
    expect((await open(`/registry-access/${token}/api/months/2026-09.csv`)).statusCode).toBe(404);
    // Each download is in the grant's access log.
    const log = (await company.live.get(`/v1/registry/access-grants/${inspection.id}/accesses`)).json();
    expect(log.data.map((access: { what: string }) => access.what).sort()).toEqual([
      'csv 2026-09',
      'csv 2026-10',
    ]);
  });

  it('covers only the workers named', async () => {
    const created = await grant({ employee_ids: [luis.id] });
    const token = tokenOf(created.url);
    const summary = (await open(`/registry-access/${token}/api/summary`)).json();
    expect(summary.workers.map((worker: { id: string }) => worker.id)).toEqual([luis.id]);
    expect((await open(`/registry-access/${token}/api/workers/${ana.id}/2026-10`)).statusCode).toBe(404);
  });
});

describe('the representatives’ view', () => {
  it('shows monthly totals by name, never an interval or a national id', async () => {
    const created = await grant({ kind: 'representatives', label: 'Comité de empresa' });
    const token = tokenOf(created.url);
    const summary = await open(`/registry-access/${token}/api/summary`);
    expect(summary.statusCode).toBe(200);
    const month = await open(`/registry-access/${token}/api/workers/${ana.id}/2026-10`);
    expect(month.statusCode, month.body).toBe(200);
    expect(month.json()).toEqual({
      worker: { name: `${ana.first_name} ${ana.last_name}` },
      month: '2026-10',
      totals: {
        worked_minutes: 510,
        overtime_minutes: expect.any(Number),
        night_minutes: 480,
        worked_hhmm: '8:30',
        overtime_hhmm: expect.any(String),
        night_hhmm: '8:00',
      },
    });
    const csv = await open(`/registry-access/${token}/api/months/2026-10.csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = csv.body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean);
    expect(rows[0]).toBe(
      'employee_name,month,worked_minutes,worked_hhmm,overtime_minutes,overtime_hhmm,night_minutes,night_hhmm',
    );
    expect(rows).toHaveLength(3);
    expect(rows).toContain(
      `${ana.first_name} ${ana.last_name},2026-10,510,8:30,${month.json().totals.overtime_minutes},${month.json().totals.overtime_hhmm},480,8:00`,
    );
    expect(csv.body).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    for (const body of [summary.body, month.body, csv.body]) {
      expect(body).not.toContain('12345678Z');
      expect(body).not.toContain('22:00');
    }
  });
});

describe('revoking, expiring and the access log', () => {
  it('logs every use with time and address, answers 404 once revoked or expired, and logs those too', async () => {
    const created = await grant({});
    const token = tokenOf(created.url);
    expect((await open(`/registry-access/${token}/api/summary`)).statusCode).toBe(200);
    expect((await open(`/registry-access/${token}/api/workers/${luis.id}/2026-10`)).statusCode).toBe(200);
    expect((await company.live.delete(`/v1/registry/access-grants/${created.id}`)).statusCode).toBe(204);
    expect((await company.live.delete(`/v1/registry/access-grants/${created.id}`)).statusCode).toBe(204);
    expect((await open(`/registry-access/${token}/api/summary`)).statusCode).toBe(404);
    const accesses = (await company.live.get(`/v1/registry/access-grants/${created.id}/accesses`)).json()
      .data;
    expect(
      accesses.map((row: { what: string; outcome: string; ip: string }) => [row.what, row.outcome, row.ip]),
    ).toEqual([
      ['summary', 'ok', '203.0.113.7'],
      [`worker ${luis.id} 2026-10`, 'ok', '203.0.113.7'],
      ['summary', 'revoked', '203.0.113.7'],
    ]);
    expect(
      (await company.live.get(`/v1/registry/access-grants/${created.id}`)).json().revoked_at,
    ).not.toBeNull();

    const short = await grant({ expires_at: inDays(1) });
    ctx.clock.advance(2 * 86_400);
    expect((await open(`/registry-access/${tokenOf(short.url)}/api/summary`)).statusCode).toBe(404);
    const expired = (await company.live.get(`/v1/registry/access-grants/${short.id}/accesses`)).json().data;
    expect(expired.map((row: { outcome: string }) => row.outcome)).toEqual(['expired']);
  });
});

describe('who may grant, revoke and close (issue 35)', () => {
  it('needs org:registro:write; org:fichajes:write still works until the sunset, with Deprecation and Sunset', async () => {
    const body = {
      kind: 'inspection',
      label: 'ITSS',
      from: '2026-10-01',
      to: '2026-10-31',
      expires_at: inDays(30),
    };
    const as = async (
      scopes: Parameters<typeof ctx.createKey>[2],
      method: 'POST' | 'DELETE',
      url: string,
    ) => {
      const key = await ctx.createKey(company.id, 'live', scopes);
      return await ctx.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        ...(method === 'POST' ? { payload: JSON.stringify(body) } : {}),
      });
    };
    // A read-only key made and revoked grants before: no longer.
    const reader = await as(['org:informes:read'], 'POST', '/v1/registry/access-grants');
    expect(reader.statusCode).toBe(403);
    expect(reader.json().errors.required_scope).toBe('org:registro:write');
    const registro = await as(['org:registro:write'], 'POST', '/v1/registry/access-grants');
    expect(registro.statusCode, registro.body).toBe(201);
    expect(registro.headers.deprecation).toBeUndefined();
    expect(registro.json().created_by).toMatchObject({ type: 'api_key' });
    const legacy = await as(['org:fichajes:write'], 'POST', '/v1/registry/access-grants');
    expect(legacy.statusCode, legacy.body).toBe(201);
    expect(legacy.headers.deprecation).toMatch(/^@\d+$/);
    expect(legacy.headers.sunset).toBe('Tue, 30 Nov 2027 00:00:00 GMT');
    expect(
      (await as(['org:informes:read'], 'DELETE', `/v1/registry/access-grants/${legacy.json().id}`))
        .statusCode,
    ).toBe(403);
    const revoker = await ctx.createKey(company.id, 'live', ['org:registro:write']);
    expect(
      (
        await ctx.app.inject({
          method: 'DELETE',
          url: `/v1/registry/access-grants/${legacy.json().id}`,
          headers: { authorization: `Bearer ${revoker.secret}` },
        })
      ).statusCode,
    ).toBe(204);
    const revoked = (await company.live.get(`/v1/registry/access-grants/${legacy.json().id}`)).json();
    expect(revoked.revoked_by).toEqual({ type: 'api_key', id: revoker.id });
    // After the sunset the old scope no longer admits the call.
    ctx.clock.advance((Date.parse('2027-12-01T00:00:00Z') - ctx.clock.now().epochMilliseconds) / 1000);
    expect((await as(['org:fichajes:write'], 'POST', '/v1/registry/access-grants')).statusCode).toBe(403);
  });
});

describe('a flood through an access link (issue 35)', () => {
  it('is throttled per address with 429 and Retry-After, and a run of refusals is one log entry with a count', async () => {
    const created = await grant({});
    const token = tokenOf(created.url);
    expect((await company.live.delete(`/v1/registry/access-grants/${created.id}`)).statusCode).toBe(204);
    const flood = (
      await Promise.all(
        Array.from({ length: 150 }, () =>
          ctx.app.inject({
            method: 'GET',
            url: `/registry-access/${token}/api/summary`,
            remoteAddress: '198.51.100.77',
          }),
        ),
      )
    ).map((response) => ({ status: response.statusCode, retry: response.headers['retry-after'] }));
    const refused = flood.filter((response) => response.status === 404);
    const throttled = flood.filter((response) => response.status === 429);
    expect(refused.length).toBe(ACCESS_REQUESTS_PER_ADDRESS);
    expect(throttled.length).toBe(150 - ACCESS_REQUESTS_PER_ADDRESS);
    expect(Number(throttled[0]?.retry)).toBeGreaterThan(0);
    const accesses = (await company.live.get(`/v1/registry/access-grants/${created.id}/accesses`)).json()
      .data;
    expect(accesses).toHaveLength(1);
    expect(accesses[0]).toMatchObject({
      outcome: 'revoked',
      ip: '198.51.100.77',
      repeats: refused.length - 1,
    });
    // Another address is not held back by this one.
    expect((await open(`/registry-access/${tokenOf((await grant({})).url)}/api/summary`)).statusCode).toBe(
      200,
    );
  });
});

describe('a grant of some days (issue 35)', () => {
  it('shows the Inspección and the representatives those days alone, in every line and total', async () => {
    // Ana worked 8 October (night shift into the 9th), Luis 7 October: a grant for 8–20 October covers Ana's
    // night and not Luis's day.
    const inspection = await grant({ from: '2026-10-08', to: '2026-10-20' });
    const token = tokenOf(inspection.url);
    const anaMonth = (await open(`/registry-access/${token}/api/workers/${ana.id}/2026-10`)).json();
    const dates = (anaMonth.days as Array<{ date: string }>).map((day) => day.date);
    expect(dates[0]).toBe('2026-10-08');
    expect(dates.at(-1)).toBe('2026-10-20');
    expect(anaMonth.totals.worked_minutes).toBe(510);
    const luisMonth = (await open(`/registry-access/${token}/api/workers/${luis.id}/2026-10`)).json();
    expect(luisMonth.days.some((day: { date: string }) => day.date === '2026-10-07')).toBe(false);
    expect(luisMonth.totals.worked_minutes).toBe(0);
    const csvResponse = await open(`/registry-access/${token}/api/months/2026-10.csv`);
    expect(csvResponse.headers['cache-control']).toBe('no-store');
    const csv = csvResponse.body;
    const pdf = await open(`/registry-access/${token}/api/workers/${ana.id}/2026-10.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['cache-control']).toBe('no-store');
    expect(csv).not.toContain('2026-10-07');
    expect(csv).not.toContain('2026-10-05');
    expect(csv).toContain('2026-10-08');
    const representatives = await grant({ kind: 'representatives', from: '2026-10-01', to: '2026-10-07' });
    const totals = (
      await open(`/registry-access/${tokenOf(representatives.url)}/api/workers/${ana.id}/2026-10`)
    ).json();
    expect(totals.totals.worked_minutes).toBe(0);
  });

  it('refuses a grant that covers no worker (422) instead of failing on every request', async () => {
    const response = await company.live.post('/v1/registry/access-grants', {
      kind: 'inspection',
      label: 'Nadie',
      from: '2025-01-01',
      to: '2025-01-31',
      expires_at: inDays(30),
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors).toHaveProperty('from');
    const empty = await company.live.post('/v1/registry/access-grants', {
      kind: 'inspection',
      label: 'Nadie',
      from: '2026-10-01',
      to: '2026-10-31',
      employee_ids: [],
      expires_at: inDays(30),
    });
    expect(empty.statusCode, empty.body).toBe(422);
  });
});
