import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '../../../openapi-v1.json' with { type: 'json' };
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';

/**
 * Company A's key against company B's ids, on every route that takes an id, and every listing: the answer is
 * always 404 not_found (never 403), and no listing shows another tenant's rows.
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
    await b.live.post('/v1/employees', {
      first_name: 'B',
      last_name: 'B',
      email: 'b@example.com',
      // Hired a week ago, so that the check-in an hour ago falls after the hire at any hour of the day.
      hire_date: ctx.clock.now().toZonedDateTimeISO('UTC').toPlainDate().subtract({ days: 7 }).toString(),
    })
  ).json();
  ids.employee = employee.id;
  ids.checkIn = (
    await b.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: ctx.clock.now().subtract({ hours: 1 }).toString({ smallestUnit: 'second' }),
    })
  ).json().id;
  ids.correction = (
    await b.live.post('/v1/check-in-corrections', {
      employee_id: employee.id,
      reason: 'Forgot to clock out',
      void: [ids.checkIn],
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
  ids.accessGrant = (
    await b.live.post('/v1/registry/access-grants', {
      kind: 'inspection',
      label: 'B inspection',
      // A grant must cover a worker (issue 35): B's, from their hire date.
      from: employee.hire_date,
      to: employee.hire_date,
      expires_at: ctx.clock.now().add({ hours: 24 }).toString({ smallestUnit: 'second' }),
    })
  ).json().id;
  ids.shift = (
    await b.live.post('/v1/shifts', {
      employee_id: employee.id,
      date: '2027-06-01',
      start: '08:00',
      end: '16:00',
    })
  ).json().id;
  const template = (
    await b.live.post('/v1/shift-templates', { name: 'B morning', start: '08:00', end: '16:00' })
  ).json();
  ids.rotaPattern = (
    await b.live.post('/v1/rota-patterns', { name: 'B rota', cycle: [template.id, null] })
  ).json().id;
  ids.forceMajeure = (
    await b.live.post('/v1/force-majeure-days', {
      employee_id: employee.id,
      date: employee.hire_date,
      reason: 'B flood',
    })
  ).json().id;
  ids.conceptMap = (await b.live.post('/v1/payroll/concept-maps', { name: 'B payroll' })).json().id;
  ids.sandboxLocation = (
    await ctx.admin.post(`/admin/v1/companies/${a.sandboxId}/locations`, { name: 'A test site' })
  ).json().id;
});
afterAll(() => ctx.close());

/**
 * Every operation of the committed description whose path names an id, with company B's ids filled in: the cases
 * come from the OpenAPI, so a new route with an id fails here until it has a fixture.
 */
type Operation = { method: 'GET' | 'DELETE' | 'POST' | 'PATCH'; path: string; operationId: string };
const OPERATIONS_WITH_IDS: Operation[] = Object.entries(
  openapi.paths as Record<string, Record<string, { operationId?: string; security?: unknown[] }>>,
).flatMap(([path, operations]) =>
  path.includes('{')
    ? Object.entries(operations)
        .filter(([, operation]) => typeof operation === 'object' && operation.operationId !== undefined)
        .map(([method, operation]) => ({
          method: method.toUpperCase() as Operation['method'],
          path,
          operationId: operation.operationId as string,
        }))
    : [],
);

/** Operations that take an id but no key: another credential stands in for the tenant. */
const NOT_KEYED: Record<string, string> = {
  downloadReport: 'the signed address is the credential (test/reports.test.ts refuses a tampered one)',
  closeRegistryMonth:
    'the month names no resource of another company: each tenant closes its own (test/registry-months.test.ts)',
  listRegistryMonthAcknowledgements:
    'the month names no resource of another company: each tenant lists its own (test/portal.test.ts)',
};

/** Which of B's fixtures fills each path parameter. */
const FIXTURES: Record<string, Record<string, string>> = {
  '/v1/api-keys/{id}': { id: 'apiKey' },
  '/v1/locations/{id}': { id: 'location' },
  '/v1/units/{id}': { id: 'unit' },
  '/v1/employees/{id}': { id: 'employee' },
  '/v1/employees/{id}/terminate': { id: 'employee' },
  '/v1/employees/{id}/contract-history': { id: 'employee' },
  '/v1/employees/{id}/portal-invitation': { id: 'employee' },
  '/v1/check-ins/{id}': { id: 'checkIn' },
  '/v1/check-in-corrections/{id}': { id: 'correction' },
  '/v1/check-in-corrections/{id}/approve': { id: 'correction' },
  '/v1/check-in-corrections/{id}/reject': { id: 'correction' },
  '/v1/absences/{id}': { id: 'absence' },
  '/v1/absences/{id}/approve': { id: 'absence' },
  '/v1/absences/{id}/reject': { id: 'absence' },
  '/v1/absences/{id}/cancel': { id: 'absence' },
  '/v1/reports/{id}': { id: 'report' },
  '/v1/shifts/{id}': { id: 'shift' },
  '/v1/force-majeure-days/{id}': { id: 'forceMajeure' },
  '/v1/rota-patterns/{id}/apply': { id: 'rotaPattern' },
  '/v1/registry/access-grants/{id}': { id: 'accessGrant' },
  '/v1/registry/access-grants/{id}/accesses': { id: 'accessGrant' },
  '/v1/webhook-endpoints/{id}': { id: 'webhookEndpoint' },
  '/v1/payroll/concept-maps/{id}': { id: 'conceptMap' },
  '/v1/webhook-endpoints/{id}/test': { id: 'webhookEndpoint' },
  '/v1/webhook-endpoints/{id}/deliveries': { id: 'webhookEndpoint' },
  '/v1/webhook-endpoints/{id}/replay': { id: 'webhookEndpoint' },
  '/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/retry': {
    id: 'webhookEndpoint',
    deliveryId: 'webhookDelivery',
  },
  '/v1/webhook-endpoints/{id}/deliveries/{deliveryId}': {
    id: 'webhookEndpoint',
    deliveryId: 'webhookDelivery',
  },
};

/** A valid body where one is required, so that the answer is about the id and not the body (422). */
const BODIES: Record<string, unknown> = {
  updateEmployee: { first_name: 'Taken' },
  updateWebhookEndpoint: { status: 'disabled' },
  replayWebhookEvents: { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' },
  rejectCheckInCorrection: { reason: 'Not ours' },
  updateShift: { note: 'Not ours' },
  updatePayrollConceptMap: { name: 'Not ours' },
  applyRotaPattern: {
    employee_ids: ['0195d2a0-7c41-7e2b-9a55-3c1f0b6d2e21'],
    from: '2027-06-07',
    to: '2027-06-13',
  },
};

const LISTINGS = [
  '/v1/locations',
  '/v1/units',
  '/v1/api-keys',
  '/v1/employees',
  '/v1/check-ins',
  '/v1/check-in-corrections',
  '/v1/registry/access-grants',
  '/v1/absences',
  '/v1/webhook-endpoints',
  '/v1/shifts',
  '/v1/shift-templates',
  '/v1/rota-patterns',
  '/v1/payroll/concept-maps',
];

describe('tenant isolation', () => {
  it('covers every operation with an id', () => {
    expect(OPERATIONS_WITH_IDS.length).toBeGreaterThan(15);
  });

  for (const operation of OPERATIONS_WITH_IDS) {
    if (operation.operationId in NOT_KEYED) continue;
    it(`${operation.method} ${operation.path} (${operation.operationId}) answers 404 for another company`, async () => {
      const fixture = FIXTURES[operation.path];
      expect(fixture, `no fixture for ${operation.path}: add one to FIXTURES`).toBeDefined();
      const url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const key = fixture?.[name];
        const id = key === undefined ? undefined : ids[key];
        if (id === undefined) throw new Error(`no fixture for {${name}} of ${operation.path}`);
        return id;
      });
      const body =
        operation.method === 'GET' || operation.method === 'DELETE'
          ? undefined
          : (BODIES[operation.operationId] ?? {});
      const response = await a.live.request(operation.method, url, body);
      expect(response.statusCode, response.body).toBe(404);
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
    expect((await b.live.get(`/v1/registry/access-grants/${ids.accessGrant}`)).json().revoked_at).toBeNull();
    expect((await b.live.get(`/v1/check-in-corrections/${ids.correction}`)).json()).toMatchObject({
      status: 'pending',
      company_approval: null,
      rejection: null,
    });
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
