import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { CompiledQuery, sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Executor } from '../../../../src/db/database.ts';
import type { WebhookDeliveriesTable } from '../../../../src/db/schema.ts';
import { allowAnySyncStamp, withSyncStamp } from '../../../../src/db/sync-stamp.ts';
import { webhookDeliveryJob } from '../../../../src/jobs/webhook-delivery.ts';
import { recordEvents } from '../../../../src/modules/events/events.service.ts';
import {
  type ClaimedDelivery,
  claimStatement,
  recordSuccesses,
  type Success,
} from '../../../../src/modules/webhooks/deliveries.repo.ts';
import {
  claimDueDeliveries,
  LEASE_SECONDS,
  RETRY_DELAYS_SECONDS,
  recordOutcome,
} from '../../../../src/modules/webhooks/deliveries.service.ts';
import { withFormats } from '../../../../src/platform/validation.ts';
import { toDate } from '../../../../src/time/clock.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { type Receiver, startReceiver } from '../../../helpers/receiver.ts';
import { fieldErrors, hire } from '../../../helpers/resources.ts';

let ctx: TestContext;
let receiver: Receiver;
let company: TestCompany;

beforeAll(async () => {
  ctx = await createTestContext();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});
beforeEach(async () => {
  company = await ctx.createCompany();
  receiver.requests.length = 0;
  receiver.respond = () => 200;
});
// Each test's endpoints (and, with them, their deliveries) go, so no test sends another test's deliveries.
afterEach(async () => {
  await sql`delete from webhook_endpoints`.execute(ctx.db);
});

const job = () => webhookDeliveryJob({ db: ctx.db, clock: ctx.clock, targets: ctx.deps.webhookTargets });

/** Runs the delivery worker until nothing is due: every claimed attempt is sent and its outcome recorded. */
async function deliverDue(): Promise<void> {
  const worker = job();
  for (;;) {
    const claimed = await worker.tick();
    await worker.drain?.();
    if (claimed === 0) return;
  }
}

async function subscribe(
  owner: TestCompany,
  events: string[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; secret: string; url: string }> {
  const response = await owner.live.post('/v1/webhook-endpoints', {
    url: `${receiver.url}/hooks/${Math.random().toString(36).slice(2)}`,
    events,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** Columns of one delivery as stored, read from the table (for what the API does not show). */
async function storedDelivery<Column extends keyof WebhookDeliveriesTable & string>(
  owner: TestCompany,
  id: string,
  columns: Column[],
) {
  return await ctx.db
    .selectFrom('webhook_deliveries')
    .select(columns)
    .where('company_id', '=', owner.id)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function deliveriesOf(owner: TestCompany, endpointId: string) {
  const response = await owner.live.get(`/v1/webhook-endpoints/${endpointId}/deliveries`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<Record<string, unknown> & { id: string }>;
}

const seconds = (instant: unknown) => Date.parse(String(instant)) / 1000;

/** A 204 success of a claimed attempt, as the worker hands it to recordSuccesses. */
const successOf = (delivery: ClaimedDelivery): Success => ({
  company_id: delivery.company_id,
  id: delivery.id,
  claim_id: delivery.claim_id,
  attempts: delivery.attempts,
  response_status: 204,
  request_headers: { 'webhook-id': 'evt_x' },
  response_body: '',
});

describe('webhook endpoints', () => {
  it('creates an endpoint and shows the whsec_ secret in that response only', async () => {
    const response = await company.live.post('/v1/webhook-endpoints', {
      url: `${receiver.url}/hook`,
      events: ['employee.created', 'absence.approved'],
      description: 'Payroll sync',
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({
      id: expect.any(String),
      url: `${receiver.url}/hook`,
      events: ['employee.created', 'absence.approved'],
      description: 'Payroll sync',
      status: 'active',
      disabled_reason: null,
      created_at: expect.any(String),
      updated_at: created.created_at,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(created.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const fetched = (await company.live.get(`/v1/webhook-endpoints/${created.id}`)).json();
    const { secret: _secret, ...withoutSecret } = created;
    expect(fetched).toEqual(withoutSecret);
    const listed = (await company.live.get('/v1/webhook-endpoints')).json();
    expect(listed.data).toEqual([withoutSecret]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
  });

  it('never keeps the creation response for idempotency: the secret is not stored with it', async () => {
    const headers = { 'idempotency-key': 'create-endpoint-once' };
    const body = { url: `${receiver.url}/hook`, events: ['employee.created'] };
    const first = await company.live.post('/v1/webhook-endpoints', body, { headers });
    const second = await company.live.post('/v1/webhook-endpoints', body, { headers });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().id).not.toBe(first.json().id);
    expect(second.json().secret).not.toBe(first.json().secret);
    const stored = await ctx.db
      .selectFrom('idempotency_keys')
      .select('response_body')
      .where('company_id', '=', company.id)
      .execute();
    expect(JSON.stringify(stored)).not.toContain('whsec_');
  });

  it.each([
    ['no url', { events: ['employee.created'] }, 'url'],
    ['a relative url', { url: '/hook', events: ['employee.created'] }, 'url'],
    [
      'plain http to a remote host',
      { url: 'http://hooks.example.com/x', events: ['employee.created'] },
      'url',
    ],
    ['ftp', { url: 'ftp://127.0.0.1/x', events: ['employee.created'] }, 'url'],
    ['credentials in the url', { url: 'https://user:pw@127.0.0.1/x', events: ['employee.created'] }, 'url'],
    ['no events', { url: 'https://127.0.0.1/x', events: [] }, 'events'],
    ['an unknown event type', { url: 'https://127.0.0.1/x', events: ['employee.fired'] }, 'events.0'],
    ['ping, which is implicit', { url: 'https://127.0.0.1/x', events: ['ping'] }, 'events.0'],
    [
      'duplicate events',
      { url: 'https://127.0.0.1/x', events: ['employee.created', 'employee.created'] },
      'events',
    ],
    ['an unknown field', { url: 'https://127.0.0.1/x', events: ['employee.created'], secret: 'x' }, 'secret'],
    [
      'a description too long',
      { url: 'https://127.0.0.1/x', events: ['employee.created'], description: 'x'.repeat(501) },
      'description',
    ],
  ])('refuses %s with 422', async (_name, body, field) => {
    const response = await company.live.post('/v1/webhook-endpoints', body);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json().code).toBe('validation_failed');
    expect(Object.keys(response.json().errors).join(' ')).toContain(field);
    expect((await company.live.get('/v1/webhook-endpoints')).json().data).toEqual([]);
  });

  it('allows at most 5 active endpoints: the sixth, and re-enabling a sixth, are 409', async () => {
    const endpoints = [];
    for (let index = 0; index < 5; index++) endpoints.push(await subscribe(company, ['employee.created']));
    const sixth = await company.live.post('/v1/webhook-endpoints', {
      url: `${receiver.url}/sixth`,
      events: ['employee.created'],
    });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().code).toBe('conflict');

    const first = endpoints[0] as { id: string };
    const disabled = await company.live.patch(`/v1/webhook-endpoints/${first.id}`, { status: 'disabled' });
    expect(disabled.json()).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
    const replacement = await subscribe(company, ['employee.created']);
    const reenable = await company.live.patch(`/v1/webhook-endpoints/${first.id}`, { status: 'active' });
    expect(reenable.statusCode).toBe(409);
    expect((await company.live.get(`/v1/webhook-endpoints/${first.id}`)).json().status).toBe('disabled');

    expect((await company.live.delete(`/v1/webhook-endpoints/${replacement.id}`)).statusCode).toBe(204);
    const again = await company.live.patch(`/v1/webhook-endpoints/${first.id}`, { status: 'active' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'active', disabled_reason: null });
  });

  it('holds the cap under concurrency: 8 parallel creations give exactly 5 × 201 and 3 × 409', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        company.live.post('/v1/webhook-endpoints', {
          url: `${receiver.url}/parallel/${index}`,
          events: ['checkin.created'],
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    const active = await ctx.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('company_id', '=', company.id)
      .execute();
    expect(active).toHaveLength(5);
  });

  it('updates url, events and description; a PATCH that changes nothing keeps updated_at', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    ctx.clock.advance(5);
    const patched = await company.live.patch(`/v1/webhook-endpoints/${endpoint.id}`, {
      url: `${receiver.url}/moved`,
      events: ['checkin.created', 'absence.requested'],
      description: 'moved',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      url: `${receiver.url}/moved`,
      events: ['checkin.created', 'absence.requested'],
      description: 'moved',
    });
    expect(patched.json().secret).toBeUndefined();
    ctx.clock.advance(5);
    const same = await company.live.patch(`/v1/webhook-endpoints/${endpoint.id}`, { description: 'moved' });
    expect(same.json().updated_at).toBe(patched.json().updated_at);
    const since = await company.live.get('/v1/webhook-endpoints', {
      query: { updated_since: new Date(Date.parse(patched.json().updated_at) + 1000).toISOString() },
    });
    expect(since.json().data).toEqual([]);
    const bad = await company.live.patch(`/v1/webhook-endpoints/${endpoint.id}`, {
      url: 'http://example.com',
    });
    expect(bad.statusCode).toBe(422);
    expect(fieldErrors(bad.json(), 'url')).toEqual(['must be an https:// URL']);
    const unknown = await company.live.patch(`/v1/webhook-endpoints/${endpoint.id}`, { secret: 'whsec_x' });
    expect(unknown.statusCode).toBe(422);
  });

  it('deletes an endpoint, also while the subscription is inactive; its pending deliveries are never sent', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    expect(await deliveriesOf(company, endpoint.id)).toHaveLength(1);
    await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { subscription_status: 'canceled' });
    expect((await company.live.get('/v1/webhook-endpoints')).json().code).toBe('subscription_inactive');
    expect((await company.live.delete(`/v1/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(204);
    await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { subscription_status: 'active' });
    expect((await company.live.get(`/v1/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404);
    expect((await company.live.delete(`/v1/webhook-endpoints/${endpoint.id}`)).statusCode).toBe(404);
    const left = await ctx.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('company_id', '=', company.id)
      .execute();
    expect(left).toEqual([]);
    await deliverDue();
    expect(receiver.requests).toHaveLength(0);
  });

  it('requires the webhooks:manage scope on every route', async () => {
    const key = await ctx.createKey(company.id, 'live', ['org:empleados:read', 'org:empleados:write']);
    const response = await ctx.as(key.secret).get('/v1/webhook-endpoints');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'invalid_scope',
      errors: { required_scope: 'webhooks:manage' },
    });
  });
});

describe('delivery', () => {
  it('delivers employee.created signed so that standardwebhooks verify accepts it', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    const employee = await hire(company.live);
    // The fake clock runs on from its offset, so the attempt's second lies between these two readings.
    const sentFrom = Math.floor(ctx.clock.now().epochMilliseconds / 1000);
    await deliverDue();
    const sentBy = Math.floor(ctx.clock.now().epochMilliseconds / 1000);
    const [request] = await receiver.waitFor(1);
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toMatch(/^Jornada-Webhooks\//);
    expect(request?.headers['webhook-id']).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(request?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const verified = new Webhook(endpoint.secret).verify(request?.body as string, request?.headers ?? {});
    expect(verified).toEqual({
      id: request?.headers['webhook-id'],
      type: 'employee.created',
      created_at: employee.created_at,
      company_id: company.id,
      data: { employee_id: employee.id },
    });
    // The body matches the envelope the OpenAPI description documents for its type.
    const openapi = (await ctx.app.inject({ url: '/v1/openapi.json' })).json();
    // JSON Schema 2020-12, the dialect of OpenAPI 3.1: the envelope is referred to, extra fields are refused.
    const ajv = withFormats(new Ajv2020({ strict: false }));
    ajv.addSchema(openapi, 'openapi');
    const documented = ajv.compile({
      $ref: 'openapi#/webhooks/employee.created/post/requestBody/content/application~1json/schema',
    });
    expect(documented(verified), JSON.stringify(documented.errors)).toBe(true);
    const event = verified as Record<string, unknown>;
    expect(documented({ ...event, extra: 1 })).toBe(false);
    expect(documented({ ...event, type: 'employee.updated' })).toBe(false);
    const timestamp = Number(request?.headers['webhook-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(sentFrom);
    expect(timestamp).toBeLessThanOrEqual(sentBy);
    // A tampered body or another secret fails verification.
    expect(() => new Webhook(endpoint.secret).verify(`${request?.body} `, request?.headers ?? {})).toThrow();
    const [delivery] = await deliveriesOf(company, endpoint.id);
    expect(delivery).toMatchObject({
      endpoint_id: endpoint.id,
      event_id: request?.headers['webhook-id'],
      event_type: 'employee.created',
      status: 'succeeded',
      attempts: 1,
      last_response_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
  });

  it('fans an event out to every subscribed active endpoint of its tenant, and to nobody else', async () => {
    const other = await ctx.createCompany();
    const subscribed = await subscribe(company, ['employee.created', 'checkin.created']);
    const alsoSubscribed = await subscribe(company, ['employee.created']);
    const notSubscribed = await subscribe(company, ['absence.requested']);
    const disabled = await subscribe(company, ['employee.created']);
    await company.live.patch(`/v1/webhook-endpoints/${disabled.id}`, { status: 'disabled' });
    const otherTenant = await subscribe(other, ['employee.created', 'checkin.created']);
    const sandbox = await subscribe({ ...company, live: company.test } as TestCompany, ['employee.created']);

    const employee = await hire(company.live);
    await deliverDue();
    await receiver.waitFor(2);
    const paths = receiver.requests.map((request) => request.path).sort();
    expect(paths).toEqual([new URL(subscribed.url).pathname, new URL(alsoSubscribed.url).pathname].sort());
    const ids = new Set(receiver.requests.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const quiet of [notSubscribed, disabled]) expect(await deliveriesOf(company, quiet.id)).toEqual([]);
    expect(await deliveriesOf(other, otherTenant.id)).toEqual([]);
    expect(await deliveriesOf({ ...company, live: company.test } as TestCompany, sandbox.id)).toEqual([]);
    for (const request of receiver.requests) {
      expect(JSON.parse(request.body)).toMatchObject({
        company_id: company.id,
        data: { employee_id: employee.id },
      });
    }
  });

  it('sends a ping from /test to that endpoint alone and answers 202 with the delivery', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    const sibling = await subscribe(company, ['employee.created']);
    const response = await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/test`);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({
      endpoint_id: endpoint.id,
      event_type: 'ping',
      status: 'pending',
      attempts: 0,
      last_attempt_at: null,
    });
    await deliverDue();
    const [request] = await receiver.waitFor(1);
    expect(receiver.requests).toHaveLength(1);
    expect(request?.path).toBe(new URL(endpoint.url).pathname);
    expect(
      new Webhook(endpoint.secret).verify(request?.body as string, request?.headers ?? {}),
    ).toMatchObject({
      id: response.json().event_id,
      type: 'ping',
      company_id: company.id,
      data: {},
    });
    expect(await deliveriesOf(company, sibling.id)).toEqual([]);
  });

  it('shows a delivery with the request it sent and the first 4 KB of the answer', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    const response = await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/test`);
    const id = response.json().id;
    const before = await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${id}`);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({ id, status: 'pending', request: null, response: null });
    receiver.respond = () => 409;
    await deliverDue();
    const [sent] = await receiver.waitFor(1);
    const detail = (await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${id}`)).json();
    expect(detail).toMatchObject({
      id,
      // Failed, so due again later: the detail shows the last attempt.
      status: 'pending',
      attempts: 1,
      last_response_status: 409,
      request: { url: endpoint.url, body: sent?.body },
      response: { status: 409, body: 'status 409' },
    });
    // The headers as the receiver got them: the signature verifies against the body shown.
    for (const name of [
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'content-type',
      'user-agent',
    ]) {
      expect(detail.request.headers[name], name).toBe(sent?.headers[name]);
    }
    expect(() =>
      new Webhook(endpoint.secret).verify(detail.request.body, detail.request.headers),
    ).not.toThrow();
    // Another endpoint's delivery, or another company's, is not found here.
    const other = await subscribe(company, ['employee.created']);
    expect((await company.live.get(`/v1/webhook-endpoints/${other.id}/deliveries/${id}`)).statusCode).toBe(
      404,
    );
    const stranger = await ctx.createCompany();
    expect(
      (await stranger.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${id}`)).statusCode,
    ).toBe(404);
  });

  it('records a success whose answer holds NUL bytes, and a failure with one, instead of sending them again', async () => {
    const binary = http.createServer((request, reply) =>
      reply.writeHead(request.url === '/fails' ? 400 : 200).end(Buffer.from([0x6f, 0x6b, 0x00, 0x21])),
    );
    await new Promise<void>((resolve) => binary.listen(0, '127.0.0.1', () => resolve()));
    try {
      const base = `http://127.0.0.1:${(binary.address() as AddressInfo).port}`;
      const details = [];
      for (const path of ['/succeeds', '/fails']) {
        const endpoint = (
          await company.live.post('/v1/webhook-endpoints', {
            url: `${base}${path}`,
            events: ['employee.created'],
          })
        ).json();
        const id = (await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/test`)).json().id;
        await deliverDue();
        details.push(
          (await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${id}`)).json(),
        );
      }
      expect(details[0]).toMatchObject({
        status: 'succeeded',
        attempts: 1,
        response: { status: 200, body: 'ok\uFFFD!' },
      });
      expect(details[1]).toMatchObject({
        status: 'pending',
        attempts: 1,
        last_response_status: 400,
        response: { status: 400, body: 'ok\uFFFD!' },
      });
    } finally {
      binary.close();
    }
  });

  it('keeps only the first 4 KB of a long answer', async () => {
    const long = http.createServer((_request, reply) => reply.writeHead(500).end('x'.repeat(20_000)));
    await new Promise<void>((resolve) => long.listen(0, '127.0.0.1', () => resolve()));
    try {
      const created = await company.live.post('/v1/webhook-endpoints', {
        url: `http://127.0.0.1:${(long.address() as AddressInfo).port}/long`,
        events: ['employee.created'],
      });
      const endpoint = created.json();
      const id = (await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/test`)).json().id;
      await deliverDue();
      const detail = (await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${id}`)).json();
      expect(detail.response).toEqual({ status: 500, body: 'x'.repeat(4096) });
    } finally {
      long.close();
    }
  });

  it('retries 1 min, 5 min and 30 min after each failure, and succeeds at the fourth attempt', async () => {
    receiver.respond = (_request, index) => (index < 3 ? 500 : 200);
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    await deliverDue();
    for (const [index, delay] of [60, 300, 1_800].entries()) {
      const [delivery] = await deliveriesOf(company, endpoint.id);
      expect(delivery).toMatchObject({
        status: 'pending',
        attempts: index + 1,
        last_response_status: 500,
        last_error: 'answered 500',
      });
      expect(seconds(delivery?.next_attempt_at) - seconds(delivery?.last_attempt_at)).toBeGreaterThanOrEqual(
        delay,
      );
      expect(seconds(delivery?.next_attempt_at) - seconds(delivery?.last_attempt_at)).toBeLessThanOrEqual(
        delay + 1,
      );
      ctx.clock.advance(delay - 2);
      await deliverDue();
      expect(receiver.requests).toHaveLength(index + 1); // not yet due
      ctx.clock.advance(3);
      await deliverDue();
      expect(receiver.requests).toHaveLength(index + 2);
    }
    const stamps = receiver.requests.map((request) => Number(request.headers['webhook-timestamp']));
    const gaps = stamps.slice(1).map((stamp, index) => stamp - (stamps[index] as number));
    expect(gaps).toHaveLength(3);
    for (const [index, delay] of [60, 300, 1_800].entries()) {
      expect(gaps[index]).toBeGreaterThanOrEqual(delay);
      expect(gaps[index]).toBeLessThanOrEqual(delay + 2);
    }
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect((await deliveriesOf(company, endpoint.id))[0]).toMatchObject({
      status: 'succeeded',
      attempts: 4,
      last_response_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
  });

  it('ends a delivery as failed after the sixth retry (7 attempts); a manual retry is one more attempt', async () => {
    receiver.respond = () => 503;
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    await deliverDue();
    for (const delay of RETRY_DELAYS_SECONDS) {
      ctx.clock.advance(delay + 1);
      await deliverDue();
    }
    expect(receiver.requests).toHaveLength(7);
    const [failed] = await deliveriesOf(company, endpoint.id);
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 7,
      last_response_status: 503,
      next_attempt_at: null,
    });
    ctx.clock.advance(7 * 24 * 3600);
    await deliverDue();
    expect(receiver.requests).toHaveLength(7);

    const retried = await company.live.post(
      `/v1/webhook-endpoints/${endpoint.id}/deliveries/${failed?.id}/retry`,
    );
    expect(retried.statusCode).toBe(202);
    expect(retried.json()).toMatchObject({ status: 'pending', attempts: 7 });
    const again = await company.live.post(
      `/v1/webhook-endpoints/${endpoint.id}/deliveries/${failed?.id}/retry`,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('conflict');
    await deliverDue();
    expect(receiver.requests).toHaveLength(8);
    expect((await deliveriesOf(company, endpoint.id))[0]).toMatchObject({ status: 'failed', attempts: 8 });

    // That failure came more than 7 days into the streak: the endpoint was disabled, and must be re-enabled.
    const endpointNow = (await company.live.get(`/v1/webhook-endpoints/${endpoint.id}`)).json();
    expect(endpointNow).toMatchObject({ status: 'disabled', disabled_reason: 'consecutive_failures' });
    await company.live.patch(`/v1/webhook-endpoints/${endpoint.id}`, { status: 'active' });
    receiver.respond = () => 204;
    const fixed = await company.live.post(
      `/v1/webhook-endpoints/${endpoint.id}/deliveries/${failed?.id}/retry`,
    );
    expect(fixed.statusCode, fixed.body).toBe(202);
    await deliverDue();
    expect((await deliveriesOf(company, endpoint.id))[0]).toMatchObject({ status: 'succeeded', attempts: 9 });
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    // A succeeded delivery may be sent again too.
    const resend = await company.live.post(
      `/v1/webhook-endpoints/${endpoint.id}/deliveries/${failed?.id}/retry`,
    );
    expect(resend.statusCode).toBe(202);
  });

  it('does not follow redirects, and counts 3xx, connection errors and 4xx as failures', async () => {
    receiver.respond = () => 302;
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    await deliverDue();
    expect(receiver.requests).toHaveLength(1);
    expect((await deliveriesOf(company, endpoint.id))[0]).toMatchObject({
      status: 'pending',
      last_response_status: 302,
      last_error: 'redirect 302 not followed',
    });

    const closed = await startReceiver();
    const closedUrl = `${closed.url}/gone`;
    await closed.close();
    const refused = await company.live.post('/v1/webhook-endpoints', {
      url: closedUrl,
      events: ['checkin.created'],
    });
    const employee = await hire(company.live);
    await company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: ctx.clock.now().toString({ smallestUnit: 'second' }),
    });
    await deliverDue();
    expect((await deliveriesOf(company, refused.json().id))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_response_status: null,
      last_error: 'connection failed',
    });
  });

  it('fails an attempt that gets no answer within 10 seconds', async () => {
    receiver.respond = () => 'hang';
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    const started = Date.now();
    await deliverDue();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(9_900);
    expect((await deliveriesOf(company, endpoint.id))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_response_status: null,
      last_error: 'no answer within 10 s',
    });
  }, 20_000);

  it('disables an endpoint whose deliveries all failed for 7 days, and stops sending to it', async () => {
    receiver.respond = () => 500;
    const endpoint = await subscribe(company, ['employee.created', 'employee.updated']);
    const employee = await hire(company.live);
    const streakStart = ctx.clock.now();
    await deliverDue();
    for (const delay of RETRY_DELAYS_SECONDS) {
      ctx.clock.advance(delay + 1);
      await deliverDue();
    }
    const status = async () => (await company.live.get(`/v1/webhook-endpoints/${endpoint.id}`)).json();
    expect(await status()).toMatchObject({ status: 'active' });

    // A new event 15 minutes before the seventh day: its first retries still fall inside the 7 days.
    const sinceStart = (ctx.clock.now().epochMilliseconds - streakStart.epochMilliseconds) / 1000;
    ctx.clock.advance(7 * 24 * 3600 - 15 * 60 - sinceStart);
    await company.live.patch(`/v1/employees/${employee.id}`, { first_name: 'Renamed' });
    await deliverDue();
    for (const delay of [60, 300]) {
      ctx.clock.advance(delay + 1);
      await deliverDue();
      expect(await status()).toMatchObject({ status: 'active', disabled_reason: null });
    }
    ctx.clock.advance(1_800 + 1); // this attempt is past the 7 days
    await deliverDue();
    expect(await status()).toMatchObject({ status: 'disabled', disabled_reason: 'consecutive_failures' });
    const [latest] = await deliveriesOf(company, endpoint.id);
    expect(latest).toMatchObject({ event_type: 'employee.updated', status: 'failed', attempts: 4 });

    const sent = receiver.requests.length;
    await hire(company.live);
    ctx.clock.advance(3600);
    await deliverDue();
    expect(receiver.requests).toHaveLength(sent);
    expect(await deliveriesOf(company, endpoint.id)).toHaveLength(2);
    const ping = await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/test`);
    expect(ping.statusCode).toBe(409);

    receiver.respond = () => 200;
    const enabled = await company.live.patch(`/v1/webhook-endpoints/${endpoint.id}`, { status: 'active' });
    expect(enabled.json()).toMatchObject({ status: 'active', disabled_reason: null });
    await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${latest?.id}/retry`);
    await deliverDue();
    expect((await deliveriesOf(company, endpoint.id))[0]).toMatchObject({ status: 'succeeded' });
  });

  it('restarts the 7 days after any success', async () => {
    let failing = true;
    receiver.respond = () => (failing ? 500 : 200);
    const endpoint = await subscribe(company, ['employee.updated']);
    const employee = await hire(company.live);
    const rename = (name: string) => company.live.patch(`/v1/employees/${employee.id}`, { first_name: name });
    await rename('Day 0');
    await deliverDue();
    ctx.clock.advance(3 * 24 * 3600);
    failing = false;
    await rename('Day 3');
    await deliverDue();
    failing = true;
    ctx.clock.advance(5 * 24 * 3600); // 8 days after the first failure, 5 after the success
    await rename('Day 8');
    await deliverDue();
    expect((await company.live.get(`/v1/webhook-endpoints/${endpoint.id}`)).json().status).toBe('active');
  });

  it('pauses deliveries while the company has no active service, and resumes them after', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    for (const change of [{ subscription_status: 'canceled' }, { company_status: 'suspended' }]) {
      await ctx.admin.patch(`/admin/v1/companies/${company.id}`, change);
      ctx.clock.advance(3600);
      await deliverDue();
      expect(receiver.requests).toHaveLength(0);
      expect(
        await ctx.db
          .selectFrom('webhook_deliveries')
          .select(['status', 'attempts'])
          .where('company_id', '=', company.id)
          .execute(),
      ).toEqual([{ status: 'pending', attempts: 0 }]);
      await ctx.admin.patch(`/admin/v1/companies/${company.id}`, {
        subscription_status: 'active',
        company_status: 'active',
      });
    }
    await deliverDue();
    expect(receiver.requests).toHaveLength(1);
    expect((await deliveriesOf(company, endpoint.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('claims disjoint rows across concurrent workers, and re-claims a dead attempt only after its lease', async () => {
    const endpoint = await subscribe(company, ['checkin.created']);
    const employee = await hire(company.live);
    const base = ctx.clock.now().subtract({ hours: 40 });
    for (let index = 0; index < 40; index++) {
      await company.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type: index % 2 === 0 ? 'in' : 'out',
        timestamp: base.add({ minutes: index * 30 }).toString({ smallestUnit: 'second' }),
      });
    }
    // Four workers at once, then again until nothing is left: a claim that finds the tenant's cursor taken by
    // another claim skips it (SKIP LOCKED), so no row is ever taken twice.
    const claims = await Promise.all(
      Array.from({ length: 4 }, () => claimDueDeliveries(ctx.db, ctx.clock, 15)),
    );
    for (let more = await claimDueDeliveries(ctx.db, ctx.clock, 15); more.length > 0; ) {
      claims.push(more);
      more = await claimDueDeliveries(ctx.db, ctx.clock, 15);
    }
    const claimed = claims.flat().map((delivery) => delivery.id);
    expect(claimed).toHaveLength(40);
    expect(new Set(claimed).size).toBe(40);

    // Nothing was recorded: as if the worker died mid-send. Before the lease ends, nobody takes the rows.
    expect(await claimDueDeliveries(ctx.db, ctx.clock, 100)).toEqual([]);
    ctx.clock.advance(LEASE_SECONDS + 1);
    const reclaimed = await claimDueDeliveries(ctx.db, ctx.clock, 100);
    expect(reclaimed).toHaveLength(40);
    expect(reclaimed.every((delivery) => delivery.attempts === 2)).toBe(true);

    // The dead worker's late outcome is fenced off: its claim ended with its lease (and the row's attempt number
    // moved on).
    const stale = claims.flat()[0];
    if (!stale) throw new Error('no claim');
    await recordOutcome(ctx.db, ctx.clock, stale, { succeeded: true, responseStatus: 200, error: null });
    const row = await storedDelivery(company, stale.id, ['status', 'attempts']);
    expect(row).toEqual({ status: 'pending', attempts: 2 });
    expect(await deliveriesOf(company, endpoint.id)).toHaveLength(25);

    // The same fence holds when successes are recorded together: the stale one changes nothing, the owner's counts.
    const owner = reclaimed.find((delivery) => delivery.id === stale.id);
    if (!owner) throw new Error('not reclaimed');
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(stale)])).toBe(0);
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(owner)])).toBe(1);
    const recorded = await storedDelivery(company, stale.id, [
      'status',
      'attempts',
      'last_response_status',
      'next_attempt_at',
    ]);
    expect(recorded).toEqual({
      status: 'succeeded',
      attempts: 2,
      last_response_status: 204,
      next_attempt_at: null,
    });
  });

  it('records nothing for a success whose lease is taken over while the batch is being recorded', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    const [claimed] = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    if (!claimed) throw new Error('nothing claimed');
    // Another worker's claim of the same row, not yet committed when the batch starts: the batch reads the row
    // as claimed by its own attempt, waits for that transaction, and must then leave the row to it.
    const { promise: committed, resolve: takeOver } = Promise.withResolvers<void>();
    const { promise: locked, resolve: updated } = Promise.withResolvers<void>();
    const other = ctx.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('webhook_deliveries')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('company_id', '=', company.id)
        .where('id', '=', claimed.id)
        .execute();
      updated();
      await committed;
    });
    // The other transaction holds the row (updated, not committed) before the batch starts.
    await locked;
    const recording = recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(claimed)]);
    // The batch is waiting on the other transaction's row lock.
    await new Promise((resolve) => setTimeout(resolve, 200));
    takeOver();
    await other;
    expect(await recording).toBe(0);
    const [row] = await deliveriesOf(company, endpoint.id);
    expect(row).toMatchObject({ status: 'pending', attempts: claimed.attempts + 1 });
  });

  it('pages deliveries newest first with a cursor', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    const hired = [];
    for (let index = 0; index < 5; index++) {
      hired.push(await hire(company.live));
      ctx.clock.advance(1);
    }
    const first = (
      await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, { query: { limit: 3 } })
    ).json();
    expect(first.meta.has_more).toBe(true);
    const second = (
      await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, {
        query: { limit: 3, cursor: first.meta.next_cursor },
      })
    ).json();
    expect(second.meta).toEqual({ next_cursor: null, has_more: false });
    const all = [...first.data, ...second.data];
    expect(all).toHaveLength(5);
    const created = all.map((delivery: { created_at: string }) => delivery.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const tampered = await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, {
      query: { cursor: `${first.meta.next_cursor}x` },
    });
    expect(tampered.statusCode).toBe(422);
  });
});

describe("first attempts, claimed through the tenant's cursor (migration 0031)", () => {
  const claimsOf = async (owner: TestCompany) =>
    await ctx.db.selectFrom('webhook_claims').selectAll().where('company_id', '=', owner.id).execute();

  /** Records an employee.updated event (and its deliveries) in a stamped transaction, as the services do. */
  const recordEvent = (tx: Executor, stamp: Temporal.Instant) =>
    recordEvents(tx, company.id, toDate(stamp), [
      { type: 'employee.updated', data: { employee_id: '00000000-0000-7000-8000-000000000000' } },
    ]);

  it('never passes a delivery whose transaction commits after a later one: the claim ends at the sync horizon', async () => {
    const endpoint = await subscribe(company, ['employee.updated']);
    const held = Promise.withResolvers<void>();
    const recorded = Promise.withResolvers<string>();
    const early = withSyncStamp(ctx.db, ctx.clock, async (tx, stamp) => {
      const [eventId] = await recordEvent(tx, stamp);
      recorded.resolve(eventId as string);
      await held.promise;
    });
    const earlyEvent = await recorded.promise;
    ctx.clock.advance(1);
    const [lateEvent] = await withSyncStamp(ctx.db, ctx.clock, (tx, stamp) => recordEvent(tx, stamp));

    // The later delivery is committed, but the earlier transaction may still add one before it: nothing is
    // claimed (a cursor moved past the later one would never come back for the earlier).
    expect(await claimDueDeliveries(ctx.db, ctx.clock, 10)).toEqual([]);
    held.resolve();
    await early;
    const claimed = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    expect(claimed.map((delivery) => delivery.event_id)).toEqual([earlyEvent, lateEvent]);
    expect(claimed.every((delivery) => delivery.claim_id !== null && delivery.attempts === 1)).toBe(true);

    // In flight, each shows as its claim started it: one attempt, next due when the claim's lease ends.
    const listed = await deliveriesOf(company, endpoint.id);
    expect(listed).toHaveLength(2);
    for (const delivery of listed) {
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_status: null });
      expect(seconds(delivery.next_attempt_at) - seconds(delivery.last_attempt_at)).toBe(LEASE_SECONDS);
    }
  });

  it('deletes each claim once every delivery it took has an outcome', async () => {
    const good = await subscribe(company, ['employee.created']);
    const bad = await subscribe(company, ['employee.created']);
    const badPath = new URL(bad.url).pathname;
    receiver.respond = (request) => (request.path === badPath ? 500 : 204);
    await hire(company.live);
    await hire(company.live);
    await deliverDue();

    expect(receiver.requests).toHaveLength(4);
    expect(await claimsOf(company)).toEqual([]);
    for (const delivery of await deliveriesOf(company, good.id)) {
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, next_attempt_at: null });
      expect(delivery.last_attempt_at).toEqual(expect.any(String));
    }
    for (const delivery of await deliveriesOf(company, bad.id)) {
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_status: 500 });
      expect(seconds(delivery.next_attempt_at) - seconds(delivery.last_attempt_at)).toBe(
        RETRY_DELAYS_SECONDS[0],
      );
    }
  });

  it('keeps a claim with a success that failed to be recorded: its lease ends and that delivery is sent again', async () => {
    // One event, two endpoints: one claim of two deliveries. The first answer's success is refused; the second
    // answers later, in another batch, which would otherwise end the claim and leave the first without one.
    const refused = await subscribe(company, ['employee.created']);
    const recorded = await subscribe(company, ['employee.created']);
    const laterPath = new URL(recorded.url).pathname;
    receiver.respond = (request) =>
      request.path === laterPath ? { status: 204, afterMilliseconds: 300 } : 204;
    await hire(company.live);
    await sql`
      create function refuse_success() returns trigger language plpgsql as $$
      begin
        if new.status = 'succeeded' and new.endpoint_id = ${sql.lit(refused.id)}::uuid then
          raise exception 'refused for the test';
        end if;
        return new;
      end $$`.execute(ctx.db);
    await sql`create trigger refuse_success before update on webhook_deliveries
      for each row execute function refuse_success()`.execute(ctx.db);
    try {
      await deliverDue();
    } finally {
      await sql`drop trigger refuse_success on webhook_deliveries`.execute(ctx.db);
      await sql`drop function refuse_success()`.execute(ctx.db);
    }
    expect(receiver.requests).toHaveLength(2);
    expect(await deliveriesOf(company, recorded.id)).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
    expect(await deliveriesOf(company, refused.id)).toMatchObject([{ status: 'pending', attempts: 1 }]);
    expect(await claimsOf(company)).toHaveLength(1);

    // Before the lease ends nothing is sent; after it, the refused one is sent again, with the same webhook-id.
    await deliverDue();
    expect(receiver.requests).toHaveLength(2);
    ctx.clock.advance(LEASE_SECONDS + 1);
    await deliverDue();
    expect(receiver.requests).toHaveLength(3);
    const refusedPath = new URL(refused.url).pathname;
    const [first, again] = receiver.requests.filter((request) => request.path === refusedPath);
    expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(await claimsOf(company)).toEqual([]);
    expect(await deliveriesOf(company, refused.id)).toMatchObject([{ status: 'succeeded', attempts: 2 }]);
  });

  it('fails every pending delivery of an endpoint disabled by hand: unclaimed, in flight, waiting to retry', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    await deliverDue();
    receiver.respond = () => 500;
    await hire(company.live);
    await deliverDue();
    await hire(company.live);
    const [inFlight] = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    if (!inFlight) throw new Error('nothing claimed');
    await hire(company.live);
    const before = (await deliveriesOf(company, endpoint.id)).map((delivery) => delivery.status);
    expect(before).toEqual(['pending', 'pending', 'pending', 'succeeded']);

    const disabled = await company.live.patch(`/v1/webhook-endpoints/${endpoint.id}`, { status: 'disabled' });
    expect(disabled.statusCode).toBe(200);
    const after = await deliveriesOf(company, endpoint.id);
    expect(after.map((delivery) => delivery.status)).toEqual(['failed', 'failed', 'failed', 'succeeded']);
    for (const delivery of after.slice(0, 3)) {
      expect(delivery).toMatchObject({ next_attempt_at: null });
    }
    const detail = await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${after[0]?.id}`);
    expect(detail.json()).toMatchObject({ last_error: 'endpoint disabled (manual) before delivery' });
    // The attempt in flight answers late: its success is not recorded over the failure.
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(inFlight)])).toBe(0);
  });

  it('finds the tenants with new first attempts without reading the deliveries, and forgets them once taken', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    const newOf = async () =>
      await ctx.db
        .selectFrom('webhook_new_deliveries')
        .selectAll()
        .where('company_id', '=', company.id)
        .execute();
    await hire(company.live);
    await hire(company.live);
    // One record per transaction that made deliveries: its greatest delivery id.
    const made = await newOf();
    expect(made).toHaveLength(2);
    await deliverDue();
    expect(await newOf()).toEqual([]);

    // Deliveries gone before any claim (the endpoint deleted): the next claim forgets the tenant's record.
    await hire(company.live);
    expect(await newOf()).toHaveLength(1);
    await company.live.delete(`/v1/webhook-endpoints/${endpoint.id}`);
    expect(await claimDueDeliveries(ctx.db, ctx.clock, 10)).toEqual([]);
    expect(await newOf()).toEqual([]);

    // With a history of finished deliveries, the claim's plan reads no delivery to find work: a probe per tenant
    // became a scan of the whole table (about 30 ms with 200,000 rows and nothing due).
    const other = await subscribe(company, ['employee.created']);
    await ctx.db.transaction().execute(async (tx) => {
      await allowAnySyncStamp(tx);
      await sql`
        with made as (
          insert into events (company_id, id, type, data, created_at)
          select ${company.id}::uuid, uuidv7(), 'employee.created', '{}'::jsonb, now()
          from generate_series(1, 3000) returning company_id, id
        )
        insert into webhook_deliveries
          (company_id, id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
        select company_id, uuidv7(), ${other.id}::uuid, id, 'succeeded', 1, null, now(), now() from made`.execute(
        tx,
      );
    });
    await sql`analyze webhook_deliveries`.execute(ctx.db);
    const now = toDate(ctx.clock.now());
    const statement = claimStatement(now, now, 256, now.getTime()).compile(ctx.db);
    const plan = await ctx.db.transaction().execute(async (tx) => {
      await sql`set local plan_cache_mode = force_generic_plan`.execute(tx);
      return await tx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]),
      );
    });
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).not.toContain('Seq Scan on webhook_deliveries');
    // A claim's events are looked up by key, not hashed from the whole table (3,000 rows here) at every claim.
    expect(text).not.toContain('Seq Scan on events');
  });

  it("makes the tenant's cursor when a fan-out finds none, so that no delivery waits for ever", async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    // Made with the endpoint; gone here as if a row were lost to a manual repair.
    await ctx.db.deleteFrom('webhook_delivery_cursors').where('company_id', '=', company.id).execute();
    await hire(company.live);
    await deliverDue();
    expect(receiver.requests).toHaveLength(1);
    expect(await deliveriesOf(company, endpoint.id)).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
  });

  it("records a first attempt's time as its claim's, however late the success batch is written", async () => {
    await subscribe(company, ['employee.created']);
    await hire(company.live);
    const [claimed] = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    if (!claimed?.claim_id) throw new Error('no first attempt claimed');
    const claimedAt = toDate(ctx.clock.now());
    ctx.clock.advance(30);
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(claimed)])).toBe(1);
    const row = await storedDelivery(company, claimed.id, [
      'status',
      'attempts',
      'last_attempt_at',
      'updated_at',
    ]);
    expect(row.status).toBe('succeeded');
    expect(row.attempts).toBe(1);
    const attemptedAt = row.last_attempt_at?.getTime() ?? Number.NaN;
    expect(Math.abs(attemptedAt - claimedAt.getTime())).toBeLessThan(1_000);
    expect(row.updated_at.getTime() - attemptedAt).toBeGreaterThanOrEqual(29_000);
  });

  it("hands each claimed delivery its own endpoint's and event's values, across tenants, endpoints and events", async () => {
    const other = await ctx.createCompany();
    const endpoints = new Map<string, { url: string; secret: string }>();
    for (const owner of [company, other]) {
      for (let index = 0; index < 2; index++) {
        const endpoint = await subscribe(owner, ['employee.created']);
        endpoints.set(endpoint.id, endpoint);
      }
      for (let index = 0; index < 3; index++) await hire(owner.live);
    }
    const claimed = await claimDueDeliveries(ctx.db, ctx.clock, 100);
    expect(claimed).toHaveLength(12);
    const events = await ctx.db
      .selectFrom('events')
      .select(['company_id', 'id', 'type', 'data', 'created_at'])
      .where('company_id', 'in', [company.id, other.id])
      .execute();
    for (const delivery of claimed) {
      const endpoint = endpoints.get(delivery.endpoint_id);
      const event = events.find(
        (row) => row.company_id === delivery.company_id && row.id === delivery.event_id,
      );
      expect(event, delivery.id).toBeDefined();
      expect(delivery).toMatchObject({
        url: endpoint?.url,
        secret: endpoint?.secret,
        endpoint_status: 'active',
        event_type: event?.type,
        event_data: event?.data,
        event_created_at: event?.created_at,
      });
    }
    // Both tenants' deliveries, every endpoint and event among them.
    expect(new Set(claimed.map((delivery) => delivery.endpoint_id)).size).toBe(4);
    expect(new Set(claimed.map((delivery) => delivery.event_id)).size).toBe(6);
  });

  it('records each success of a batch exactly as it came: its headers in the order sent, any body text', async () => {
    await subscribe(company, ['employee.created']);
    for (let index = 0; index < 4; index++) await hire(company.live);
    const claimed = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    expect(claimed).toHaveLength(4);
    const bodies = ['say "hi" \\ {a,b} NULL\n\ttab', 'ñandú 🦤 \u00e9', null, ''];
    const headers: Array<Record<string, string> | null> = [
      { 'webhook-signature': 'v1,abc=', 'content-type': 'application/json', 'x-quote': 'a "b" \\ c' },
      { b: '1', a: '2' },
      null,
      { 'webhook-id': 'evt_x' },
    ];
    const successes = claimed.map(
      (delivery, index): Success => ({
        ...successOf(delivery),
        response_status: 200 + index,
        request_headers: headers[index] ?? null,
        response_body: bodies[index] ?? null,
      }),
    );
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), successes)).toBe(4);
    const { rows } = await sql<{
      id: string;
      status: string;
      code: number;
      headers: string | null;
      body: string | null;
    }>`
      select id, status, last_response_status as code, last_request_headers::text as headers,
             last_response_body as body
      from webhook_deliveries where company_id = ${company.id}`.execute(ctx.db);
    expect(rows).toHaveLength(4);
    for (const [index, delivery] of claimed.entries()) {
      const row = rows.find((candidate) => candidate.id === delivery.id);
      expect(row).toEqual({
        id: delivery.id,
        status: 'succeeded',
        code: 200 + index,
        // The exact text stored, so the keys' order too.
        headers: headers[index] ? JSON.stringify(headers[index]) : null,
        body: bodies[index],
      });
    }
  });

  it('indexes no column a first success changes, so that the success is a heap-only update', async () => {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_indexdef(i.indexrelid) as definition from pg_index i
      where i.indrelid = 'webhook_deliveries'::regclass`.execute(ctx.db);
    expect(rows.length).toBeGreaterThan(0);
    // next_attempt_at may be indexed: a first attempt's success leaves it null, as the fan-out made it.
    const changed = [
      'status',
      'attempts',
      'last_attempt_at',
      'last_response_status',
      'last_error',
      'last_request_headers',
      'last_response_body',
      'leased_until',
      'updated_at',
    ];
    for (const { definition } of rows) {
      for (const column of changed) expect(definition).not.toMatch(new RegExp(`\\b${column}\\b`));
    }
  });
});
