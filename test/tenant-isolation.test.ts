import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from './helpers/context.ts';

/**
 * Company A's key against company B's ids, on every route that takes an id, and every listing: the answer is
 * always 404 not_found (never 403), and no listing shows another tenant's rows. Each module adds its routes.
 */
let ctx: TestContext;
let a: TestCompany;
let b: TestCompany;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  a = await ctx.createCompany({ name: 'A' });
  b = await ctx.createCompany({ name: 'B' });
  ids.location = (
    await ctx.admin.post(`/admin/v1/companies/${b.id}/locations`, { name: 'B site' })
  ).json().id;
  ids.unit = (await ctx.admin.post(`/admin/v1/companies/${b.id}/units`, { name: 'B unit' })).json().id;
  ids.apiKey = b.liveKeyId;
  const employee = (
    await b.live.post('/v1/employees', { first_name: 'B', last_name: 'B', email: 'b@example.com' })
  ).json();
  ids.employee = employee.id;
  ids.checkIn = (
    await b.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: ctx.clock.now().subtract({ hours: 1 }).toString({ smallestUnit: 'second' }),
    })
  ).json().id;
  ids.absence = (
    await b.live.post('/v1/absences', {
      employee_id: employee.id,
      type: 'vacation',
      start_date: employee.hire_date,
      end_date: employee.hire_date,
    })
  ).json().id;
  const endpoint = (
    await b.live.post('/v1/webhook-endpoints', { url: 'http://127.0.0.1:9/b', events: ['employee.created'] })
  ).json();
  ids.webhookEndpoint = endpoint.id;
  ids.webhookDelivery = (await b.live.post(`/v1/webhook-endpoints/${endpoint.id}/test`)).json().id;
  ids.report = (
    await b.live.post('/v1/reports', {
      type: 'time_registry_monthly',
      format: 'csv',
      params: { month: '2026-10' },
    })
  ).json().id;
  ids.sandboxLocation = (
    await ctx.admin.post(`/admin/v1/companies/${a.sandboxId}/locations`, { name: 'A test site' })
  ).json().id;
});
afterAll(() => ctx.close());

type Route = [
  method: 'GET' | 'DELETE' | 'POST' | 'PATCH',
  url: (ids: Record<string, string>) => string,
  body?: unknown,
];

const ROUTES_WITH_IDS: Route[] = [
  ['GET', (i) => `/v1/locations/${i.location}`],
  ['GET', (i) => `/v1/units/${i.unit}`],
  ['DELETE', (i) => `/v1/api-keys/${i.apiKey}`],
  ['GET', (i) => `/v1/employees/${i.employee}`],
  ['PATCH', (i) => `/v1/employees/${i.employee}`, { first_name: 'Taken' }],
  ['POST', (i) => `/v1/employees/${i.employee}/terminate`, {}],
  ['GET', (i) => `/v1/check-ins/${i.checkIn}`],
  ['GET', (i) => `/v1/absences/${i.absence}`],
  ['POST', (i) => `/v1/absences/${i.absence}/approve`, {}],
  ['POST', (i) => `/v1/absences/${i.absence}/reject`, {}],
  ['POST', (i) => `/v1/absences/${i.absence}/cancel`, {}],
  ['GET', (i) => `/v1/webhook-endpoints/${i.webhookEndpoint}`],
  ['PATCH', (i) => `/v1/webhook-endpoints/${i.webhookEndpoint}`, { status: 'disabled' }],
  ['POST', (i) => `/v1/webhook-endpoints/${i.webhookEndpoint}/test`, {}],
  ['GET', (i) => `/v1/webhook-endpoints/${i.webhookEndpoint}/deliveries`],
  ['POST', (i) => `/v1/webhook-endpoints/${i.webhookEndpoint}/deliveries/${i.webhookDelivery}/retry`, {}],
  ['DELETE', (i) => `/v1/webhook-endpoints/${i.webhookEndpoint}`],
  ['GET', (i) => `/v1/reports/${i.report}`],
];

const LISTINGS = [
  '/v1/locations',
  '/v1/units',
  '/v1/api-keys',
  '/v1/employees',
  '/v1/check-ins',
  '/v1/absences',
  '/v1/webhook-endpoints',
];

describe('tenant isolation', () => {
  const placeholders = new Proxy({}, { get: () => '{B}' }) as Record<string, string>;
  for (const [method, url, body] of ROUTES_WITH_IDS) {
    it(`${method} ${url(placeholders)} answers 404 for another company`, async () => {
      const response = await a.live.request(method, url(ids), body);
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('not_found');
    });
  }

  it('leaves B’s resources untouched after A’s attempts', async () => {
    expect((await b.live.get('/v1/organization')).statusCode).toBe(200);
    expect((await b.live.get(`/v1/employees/${ids.employee}`)).json()).toMatchObject({
      first_name: 'B',
      status: 'active',
    });
    expect((await b.live.get(`/v1/absences/${ids.absence}`)).json().status).toBe('requested');
    expect((await b.live.get(`/v1/webhook-endpoints/${ids.webhookEndpoint}`)).json().status).toBe('active');
    const deliveries = (await b.live.get(`/v1/webhook-endpoints/${ids.webhookEndpoint}/deliveries`)).json();
    expect(deliveries.data.map((delivery: { id: string }) => delivery.id)).toEqual([ids.webhookDelivery]);
  });

  it('refuses B’s delivery under A’s own endpoint', async () => {
    const own = (
      await a.live.post('/v1/webhook-endpoints', {
        url: 'http://127.0.0.1:9/a',
        events: ['employee.created'],
      })
    ).json();
    const retry = await a.live.post(
      `/v1/webhook-endpoints/${own.id}/deliveries/${ids.webhookDelivery}/retry`,
    );
    expect(retry.statusCode).toBe(404);
    expect(retry.json().code).toBe('not_found');
  });

  it('refuses B’s employee as a reference in A’s writes', async () => {
    const checkIn = await a.live.post('/v1/check-ins', {
      employee_id: ids.employee,
      type: 'in',
      timestamp: ctx.clock.now().toString({ smallestUnit: 'second' }),
    });
    expect(checkIn.statusCode).toBe(422);
    const absence = await a.live.post('/v1/absences', {
      employee_id: ids.employee,
      type: 'vacation',
      start_date: '2026-12-01',
      end_date: '2026-12-01',
    });
    expect(absence.statusCode).toBe(422);
    const employee = await a.live.post('/v1/employees', {
      first_name: 'A',
      last_name: 'A',
      email: 'a@example.com',
      location_id: ids.location,
      unit_id: ids.unit,
    });
    expect(Object.keys(employee.json().errors).sort()).toEqual(['location_id', 'unit_id']);
  });

  for (const listing of LISTINGS) {
    it(`${listing} never shows another company's rows`, async () => {
      const response = await a.live.get(listing, { query: { limit: 100 } });
      expect(response.statusCode).toBe(200);
      const listed = response.json().data.map((row: { id: string }) => row.id);
      for (const id of Object.values(ids)) {
        if (id !== ids.sandboxLocation) expect(listed).not.toContain(id);
      }
    });
  }

  it('separates a company from its own sandbox', async () => {
    expect((await a.live.get(`/v1/locations/${ids.sandboxLocation}`)).statusCode).toBe(404);
    expect((await a.test.get(`/v1/locations/${ids.sandboxLocation}`)).statusCode).toBe(200);
  });
});
