import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { type Receiver, startReceiver } from '../helpers/receiver.ts';
import {
  E2E_ADMIN_TOKEN,
  freePort,
  httpClient,
  type ServiceNode,
  startServiceNode,
  stopServiceNode,
} from '../helpers/service.ts';

/**
 * Webhooks end to end: the real `jornada serve` processes (an API node and a separate worker node) on one
 * PostgreSQL, with JORNADA_FAKE_CLOCK=1 and JORNADA_WEBHOOKS_ALLOW_PRIVATE=1, delivering to a real local HTTP
 * receiver.
 */
const ADMIN_TOKEN = E2E_ADMIN_TOKEN;

let database: TestDatabase;
let receiver: Receiver;
let api: ServiceNode;
let key: string;
let http: ReturnType<typeof httpClient>;

const METRICS_TOKEN = 'e2e-metrics-token-0123456789';
const startNode = (role: 'api' | 'worker', port = 0) =>
  startServiceNode(database.url, role, {
    port,
    env: { JORNADA_WEBHOOKS_ALLOW_PRIVATE: '1', JORNADA_METRICS_TOKEN: METRICS_TOKEN },
  });
let workerPort = 0;
const stopNode = stopServiceNode;
const call = (method: string, path: string, body?: unknown, token = key) => http(method, path, body, token);

async function advanceClock(seconds: number): Promise<void> {
  const response = await call('POST', '/admin/v1/clock/advance', { seconds }, ADMIN_TOKEN);
  expect(response.status).toBe(200);
}

async function subscribe(path: string, events: string[]): Promise<{ id: string; secret: string }> {
  const response = await call('POST', '/v1/webhook-endpoints', { url: `${receiver.url}${path}`, events });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

async function waitForRequests(path: string, count: number, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (requestsTo(path).length < count) {
    if (Date.now() > deadline)
      throw new Error(`expected ${count} requests to ${path}, got ${requestsTo(path).length}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return requestsTo(path);
}

async function deliveryOf(endpointId: string) {
  const response = await call('GET', `/v1/webhook-endpoints/${endpointId}/deliveries`);
  expect(response.status).toBe(200);
  return response.body.data[0];
}

/** Polling for state a worker writes just after the receiver has answered (an outcome, an auto-disable). */
const settles = { timeout: 10_000, interval: 50 };

let employeeCount = 0;
async function createEmployee() {
  employeeCount += 1;
  const response = await call('POST', '/v1/employees', {
    first_name: 'Eva',
    last_name: `Worker ${employeeCount}`,
    email: `eva.${employeeCount}@example.com`,
  });
  expect(response.status).toBe(201);
  return response.body;
}

let worker: ServiceNode;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  const port = await freePort();
  http = httpClient(`http://127.0.0.1:${port}`);
  api = await startNode('api', port);
  workerPort = await freePort();
  worker = await startNode('worker', workerPort);
  const company = await call('POST', '/admin/v1/companies', { name: 'Webhooks e2e' }, ADMIN_TOKEN);
  const issued = await call(
    'POST',
    `/admin/v1/companies/${company.body.id}/api-keys`,
    { mode: 'live', scopes: ['webhooks:manage', 'org:empleados:read', 'org:empleados:write'] },
    ADMIN_TOKEN,
  );
  key = issued.body.secret;
}, 60_000);

afterAll(async () => {
  await stopNode(worker);
  await stopNode(api);
  await receiver.close();
  await database.drop();
});

describe('webhooks between real processes', () => {
  it('delivers employee.created and the ping from /test, both verified by standardwebhooks', async () => {
    const endpoint = await subscribe('/created', ['employee.created']);
    const employee = await createEmployee();
    const [created] = await waitForRequests('/created', 1);
    const webhook = new Webhook(endpoint.secret);
    expect(webhook.verify(created?.body as string, created?.headers ?? {})).toMatchObject({
      type: 'employee.created',
      data: { employee_id: employee.id },
    });

    const ping = await call('POST', `/v1/webhook-endpoints/${endpoint.id}/test`);
    expect(ping.status).toBe(202);
    const [, pinged] = await waitForRequests('/created', 2);
    expect(webhook.verify(pinged?.body as string, pinged?.headers ?? {})).toMatchObject({
      id: ping.body.event_id,
      type: 'ping',
      data: {},
    });
    await expect
      .poll(() => deliveryOf(endpoint.id), settles)
      .toMatchObject({ event_type: 'ping', status: 'succeeded' });

    // The worker node answers probes and metrics on its own port: its delivery outcomes are counted there.
    const workerBase = `http://127.0.0.1:${workerPort}`;
    expect((await fetch(`${workerBase}/healthz`)).status).toBe(200);
    expect((await fetch(`${workerBase}/readyz`)).status).toBe(200);
    expect((await fetch(`${workerBase}/v1/employees`)).status).toBe(404);
    const metrics = await fetch(`${workerBase}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(
      /^jornada_webhook_delivery_attempts_total\{outcome="succeeded"\} [2-9]/m,
    );
    expect((await fetch(`${workerBase}/metrics`)).status).toBe(401);
  }, 30_000);

  it('retries at +1 min, +5 min and +30 min under JORNADA_FAKE_CLOCK, and succeeds at attempt 4', async () => {
    const path = '/flaky';
    receiver.respond = (request) => (request.path === path && requestsTo(path).length <= 3 ? 500 : 200);
    const endpoint = await subscribe(path, ['employee.created']);
    await createEmployee();
    await waitForRequests(path, 1);
    for (const [index, delay] of [60, 300, 1_800].entries()) {
      await expect
        .poll(() => deliveryOf(endpoint.id), settles)
        .toMatchObject({ status: 'pending', attempts: index + 1, last_response_status: 500 });
      const pending = await deliveryOf(endpoint.id);
      const scheduled = (Date.parse(pending.next_attempt_at) - Date.parse(pending.last_attempt_at)) / 1000;
      expect(scheduled).toBeGreaterThanOrEqual(delay);
      expect(scheduled).toBeLessThanOrEqual(delay + 1);
      await advanceClock(delay);
      await waitForRequests(path, index + 2);
    }
    const requests = requestsTo(path);
    const stamps = requests.map((request) => Number(request.headers['webhook-timestamp']));
    for (const [index, delay] of [60, 300, 1_800].entries()) {
      const gap = (stamps[index + 1] as number) - (stamps[index] as number);
      expect(gap).toBeGreaterThanOrEqual(delay);
      expect(gap).toBeLessThanOrEqual(delay + 5);
    }
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    // Each attempt is signed for its own timestamp.
    const webhook = new Webhook(endpoint.secret);
    for (const request of requests) {
      const timestamp = new Date(Number(request.headers['webhook-timestamp']) * 1000);
      expect(request.headers['webhook-signature']).toBe(
        webhook.sign(request.headers['webhook-id'] as string, timestamp, request.body),
      );
    }
    await expect
      .poll(() => deliveryOf(endpoint.id), settles)
      .toMatchObject({
        status: 'succeeded',
        attempts: 4,
        last_response_status: 200,
        next_attempt_at: null,
      });
  }, 60_000);

  it('disables an endpoint whose deliveries failed for 7 days, under JORNADA_FAKE_CLOCK', async () => {
    const path = '/down';
    receiver.respond = (request) => (request.path === path ? 500 : 200);
    const endpoint = await subscribe(path, ['employee.created']);
    const status = async () => (await call('GET', `/v1/webhook-endpoints/${endpoint.id}`)).body;
    await createEmployee();
    const [first] = await waitForRequests(path, 1);
    // Each step waits for the failure to be recorded before moving the clock: the next retry is due from it.
    const failed = (attempts: number) =>
      expect
        .poll(() => deliveryOf(endpoint.id), settles)
        .toMatchObject({ attempts, last_response_status: 500 });
    await failed(1);
    for (const [index, delay] of [60, 300, 1_800, 7_200, 43_200, 86_400].entries()) {
      await advanceClock(delay);
      await waitForRequests(path, index + 2);
      await failed(index + 2);
    }
    await expect
      .poll(() => deliveryOf(endpoint.id), settles)
      .toMatchObject({ status: 'failed', attempts: 7 });
    expect(await status()).toMatchObject({ status: 'active' });

    // A new event 10 minutes before the streak is 7 days old: it keeps failing across the line.
    const streakStart = Number(first?.headers['webhook-timestamp']);
    const now = Date.parse((await call('GET', '/admin/v1/clock', undefined, ADMIN_TOKEN)).body.now) / 1000;
    await advanceClock(streakStart + 7 * 24 * 3600 - 600 - now);
    await createEmployee();
    await waitForRequests(path, 8);
    await failed(1);
    for (const [index, delay] of [60, 300].entries()) {
      await advanceClock(delay);
      await waitForRequests(path, index + 9);
      await failed(index + 2);
      expect(await status()).toMatchObject({ status: 'active' });
    }
    await advanceClock(1_800);
    await waitForRequests(path, 11);
    await expect
      .poll(status, settles)
      .toMatchObject({ status: 'disabled', disabled_reason: 'consecutive_failures' });

    // Disabled: new events are not sent to it.
    await createEmployee();
    await advanceClock(3_600);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(requestsTo(path)).toHaveLength(11);
  }, 90_000);

  it('delivers after the worker is killed mid-send (SIGKILL), with the same webhook-id', async () => {
    const path = '/crash';
    receiver.respond = (request) => (request.path === path && requestsTo(path).length === 1 ? 'hang' : 200);
    const endpoint = await subscribe(path, ['employee.created']);
    await createEmployee();
    const [first] = await waitForRequests(path, 1);
    await stopNode(worker, 'SIGKILL');

    const inFlight = await deliveryOf(endpoint.id);
    expect(inFlight).toMatchObject({ status: 'pending', attempts: 1 });
    expect((Date.parse(inFlight.next_attempt_at) - Date.parse(inFlight.last_attempt_at)) / 1000).toBe(60);

    worker = await startNode('worker');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(requestsTo(path)).toHaveLength(1); // the lease still holds
    await advanceClock(61);
    const [, second] = await waitForRequests(path, 2);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.body).toBe(first?.body);
    await expect
      .poll(() => deliveryOf(endpoint.id), settles)
      .toMatchObject({ status: 'succeeded', attempts: 2 });
  }, 60_000);
});
