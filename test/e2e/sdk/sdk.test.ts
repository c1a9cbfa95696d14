import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Jornada,
  JornadaConnectionError,
  JornadaError,
  type JornadaOptions,
  WebhookVerificationError,
  webhooks,
} from '@jornada/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';
import {
  E2E_ADMIN_TOKEN,
  freePort,
  httpClient,
  type ServiceNode,
  startServiceNode,
  stopServiceNode,
} from '../../helpers/service.ts';

/**
 * The TypeScript SDK (@jornada/sdk, as built into sdk/dist) against a real `jornada serve --role=all` process on
 * the fake clock: real HTTP, real retries, real deliveries.
 */
let database: TestDatabase;
let node: ServiceNode;
let receiver: Receiver;
let base = '';
let call: ReturnType<typeof httpClient>;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  call = httpClient(base);
  node = await startServiceNode(database.url, 'all', {
    port,
    env: { JORNADA_WEBHOOKS_ALLOW_PRIVATE: '1', JORNADA_PUBLIC_URL: base },
  });
}, 60_000);

afterAll(async () => {
  if (node) await stopServiceNode(node);
  await receiver?.close();
  await database?.drop();
});

const SCOPES = ['org:empleados:read', 'org:empleados:write', 'webhooks:manage'];

/** A company of `seats` seats, with a key of the given mode holding SCOPES. */
async function company(name: string, mode: 'live' | 'test' = 'live', seats = 300) {
  const created = await call('POST', '/admin/v1/companies', { name, seats }, E2E_ADMIN_TOKEN);
  expect(created.status, created.text).toBe(201);
  const key = await call(
    'POST',
    `/admin/v1/companies/${created.body.id}/api-keys`,
    { mode, scopes: SCOPES },
    E2E_ADMIN_TOKEN,
  );
  expect(key.status, key.text).toBe(201);
  return key.body.secret as string;
}

/** The service's clock moves forward: what waiting looks like to a service on the fake clock. */
async function advanceServiceClock(ms: number) {
  const moved = await call('POST', '/admin/v1/clock/advance', { seconds: ms / 1000 }, E2E_ADMIN_TOKEN);
  expect(moved.status, moved.text).toBe(200);
}

type Exchange = {
  method: string;
  url: string;
  status: number | 'no answer';
  /** The answer's Retry-After, when it had one. */
  retryAfter?: string;
};

/** An SDK client whose fetch records every attempt, and whose waits move the service's clock. */
function client(apiKey: string, options: Partial<JornadaOptions> = {}) {
  const exchanges: Exchange[] = [];
  const sleeps: number[] = [];
  const jornada = new Jornada({
    apiKey,
    baseUrl: base,
    fetch: async (input, init) => {
      const exchange: Exchange = { method: init?.method ?? 'GET', url: String(input), status: 'no answer' };
      exchanges.push(exchange);
      const response = await fetch(input, init);
      exchange.status = response.status;
      const retryAfter = response.headers.get('retry-after');
      if (retryAfter !== null) exchange.retryAfter = retryAfter;
      return response;
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      await advanceServiceClock(ms);
    },
    ...options,
  });
  return { jornada, exchanges, sleeps };
}

const person = (n: number, prefix: string) => ({
  first_name: 'Persona',
  last_name: `${prefix} ${String(n).padStart(3, '0')}`,
  email: `${prefix.toLowerCase()}.${n}@example.com`,
});

describe('@jornada/sdk against the real service', () => {
  // First: the service's clock is still near the real one, which a signature's timestamp is checked against.
  it('verifies a real delivery and rejects a tampered one', async () => {
    const { jornada } = client(await company('SDK webhooks'));
    const endpoint = await jornada.createWebhookEndpoint({
      url: `${receiver.url}/sdk`,
      events: ['employee.created'],
      description: 'SDK test',
    });
    const employee = await jornada.createEmployee(person(1, 'Webhook'));
    const [delivery] = await receiver.waitFor(1, 30_000);
    if (!delivery) throw new Error('no delivery');

    const event = jornada.webhooks.verify(delivery.body, delivery.headers, endpoint.secret);
    expect(event.type).toBe('employee.created');
    if (event.type !== 'employee.created') throw new Error('narrowed by type');
    expect(event.data.employee_id).toBe(employee.id);
    // The same with Fetch's Headers and a byte body, and without a client.
    expect(
      webhooks.verify(
        new TextEncoder().encode(delivery.body),
        new Headers(delivery.headers),
        endpoint.secret,
      ),
    ).toEqual(event);

    const tampered = delivery.body.replace(employee.id, '00000000-0000-4000-8000-000000000000');
    expect(tampered).not.toBe(delivery.body);
    expect(() => jornada.webhooks.verify(tampered, delivery.headers, endpoint.secret)).toThrow(
      WebhookVerificationError,
    );
    const otherSecret = `whsec_${Buffer.from('not the endpoint secret').toString('base64')}`;
    expect(() => webhooks.verify(delivery.body, delivery.headers, otherSecret)).toThrow(
      WebhookVerificationError,
    );
    const { 'webhook-signature': _, ...unsigned } = delivery.headers;
    expect(() => webhooks.verify(delivery.body, unsigned, endpoint.secret)).toThrow(WebhookVerificationError);
  }, 60_000);

  it('pages through 250 employees: the items equal the unpaged list, one page at a time', async () => {
    const key = await company('SDK paging');
    const { jornada, exchanges, sleeps } = client(key);
    // 250 creations at a live key's 120 a minute: the SDK waits out each 429 (moving the service's clock).
    const created: string[] = [];
    for (let n = 1; n <= 250; n++) created.push((await jornada.createEmployee(person(n, 'Paging'))).id);
    // At least one 429 (two when no real minute boundary passes during the creations), each waited out once.
    expect(sleeps.length).toBeGreaterThanOrEqual(1);
    expect(exchanges.filter((exchange) => exchange.status === 429)).toHaveLength(sleeps.length);

    exchanges.length = 0;
    const items = [];
    for await (const employee of jornada.listEmployees()) items.push(employee);
    // The default page of 25: ten requests, each following the previous page's cursor.
    expect(exchanges).toHaveLength(10);
    expect(exchanges.every((exchange) => exchange.status === 200)).toBe(true);

    // The unpaged list: every employee of the company, in the listing's order, each once.
    expect(items.map((employee) => employee.id).sort()).toEqual([...created].sort());
    expect(new Set(items.map((employee) => employee.id)).size).toBe(250);
    // The same listing by hand, over plain HTTP, gives the same items in the same order.
    const byHand: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: unknown[]; meta: { next_cursor: string | null } } } = await call(
        'GET',
        `/v1/employees?limit=100${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
        undefined,
        key,
      );
      byHand.push(...page.body.data);
      cursor = page.body.meta.next_cursor;
    } while (cursor !== null);
    expect(items).toEqual(byHand);
    const pages = [];
    for await (const page of jornada.listEmployees({ limit: 100 }).pages()) pages.push(page);
    expect(pages.map((page) => page.data.length)).toEqual([100, 100, 50]);
    expect(pages.flatMap((page) => page.data)).toEqual(items);
    // Awaited, a listing is its first page; iteration stops fetching when the caller stops reading.
    const first = await jornada.listEmployees({ limit: 10 });
    expect(first.data).toEqual(items.slice(0, 10));
    expect(first.meta.has_more).toBe(true);
    exchanges.length = 0;
    let read = 0;
    for await (const _ of jornada.listEmployees({ limit: 10 })) if (++read === 15) break;
    expect(exchanges).toHaveLength(2);
  }, 120_000);

  it('waits out a 429 for its Retry-After, then gets the answer', async () => {
    const { jornada } = client(await company('SDK throttled', 'test'));
    const { jornada: watched, exchanges, sleeps } = client(await company('SDK throttled, watched', 'test'));
    // A test key admits 30 requests a minute: the 31st is refused, waited out and sent again.
    for (let n = 0; n < 30; n++) await watched.getOrganization();
    expect(exchanges.map((exchange) => exchange.status)).toEqual(Array(30).fill(200));
    const organization = await watched.getOrganization();
    expect(organization.name).toBe('SDK throttled, watched (sandbox)');
    expect(exchanges.slice(30).map((exchange) => exchange.status)).toEqual([429, 200]);
    const retryAfter = exchanges.flatMap((exchange) =>
      exchange.retryAfter === undefined ? [] : [exchange.retryAfter],
    );
    expect(retryAfter).toHaveLength(1);
    const seconds = Number(retryAfter[0]);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    // It waited exactly what the service asked for, no less (it would be refused again) and no more.
    expect(sleeps).toEqual([seconds * 1000]);

    // Without retries, the refusal is a typed error carrying the problem's code and the wait.
    for (let n = 0; n < 30; n++) await jornada.getOrganization();
    const refused = await jornada.getOrganization({ maxRetries: 0 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JornadaError);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: expect.any(Number) });
    expect((refused as JornadaError).problem.type).toBe(`${base}/docs/errors/rate_limited`);
    expect((refused as JornadaError).requestId).toEqual(expect.any(String));
  }, 60_000);

  it('throws typed errors with the problem code, and never retries them', async () => {
    const { jornada, exchanges } = client(await company('SDK errors'));
    const missing = await jornada
      .getEmployee('0192f3a4-6b1c-7d2e-8f30-4a5b6c7d8e9f')
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(JornadaError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    const invalid = await jornada
      .createEmployee({ first_name: 'Ana', last_name: 'Sin Correo', email: 'not an email' })
      .catch((error: unknown) => error);
    expect(invalid).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(Object.keys((invalid as JornadaError).errors)).toContain('email');
    expect(exchanges.map((exchange) => exchange.status)).toEqual([404, 422]);
  });

  it('stops waiting to retry when the caller aborts, and says which URL it could not reach', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    let waiting = (_: unknown) => {};
    const waited = new Promise((resolve) => {
      waiting = resolve;
    });
    const jornada = new Jornada({
      apiKey: 'jrn_live_unused',
      baseUrl: closed,
      sleep: (ms) => {
        waiting(ms);
        return new Promise(() => {}); // a wait that would never end
      },
    });
    const controller = new AbortController();
    const pending = jornada.getOrganization({ signal: controller.signal }).catch((error: unknown) => error);
    expect(await waited).toBeLessThanOrEqual(500); // the first backoff after a refused connection
    controller.abort(new Error('the caller gave up'));
    expect(await pending).toMatchObject({ message: 'the caller gave up' });
    // Without retries the failure is a connection error naming the URL.
    const refused = await jornada.getOrganization({ maxRetries: 0 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JornadaConnectionError);
    expect((refused as Error).message).toContain(`cannot reach ${closed}/v1/organization`);
  });

  it('sends a POST again after a dropped connection, and the record is created once', async () => {
    const key = await company('SDK dropped');
    const proxy = await startDroppingProxy(new URL(base));
    try {
      const sleeps: number[] = [];
      const jornada = new Jornada({
        apiKey: key,
        baseUrl: proxy.url,
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      });
      // The first creation reaches the service, which creates the employee; its answer is lost on the way back.
      proxy.drop = (request, index) => index === 0 && request.method === 'POST';
      const employee = await jornada.createEmployee(person(1, 'Dropped'));
      expect(proxy.seen.map((seen) => `${seen.method} ${seen.url} ${seen.outcome}`)).toEqual([
        'POST /v1/employees dropped',
        'POST /v1/employees 201',
      ]);
      const [first, second] = proxy.seen;
      // Both attempts carried one generated key; the second was answered from the first's stored response.
      expect(first?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(second?.idempotencyKey).toBe(first?.idempotencyKey);
      expect(second?.replayed).toBe('true');
      expect(employee.id).toBe(JSON.parse(first?.answer ?? '{}').id);
      expect(sleeps).toHaveLength(1);
      const all = await jornada.listEmployees({ limit: 100 }).toArray();
      expect(all.filter((one) => one.email === 'dropped.1@example.com')).toHaveLength(1);

      // A GET is sent again the same way; a POST that takes no Idempotency-Key is not: it could act twice.
      proxy.seen.length = 0;
      proxy.drop = (request, index) => request.method === 'GET' && index === 0;
      expect((await jornada.getEmployee(employee.id)).id).toBe(employee.id);
      expect(proxy.seen.map((seen) => seen.outcome)).toEqual(['dropped', 200]);
      proxy.seen.length = 0;
      proxy.drop = (request) => request.url === '/v1/webhook-endpoints';
      const lost = await jornada
        .createWebhookEndpoint({
          url: `${receiver.url}/lost`,
          events: ['employee.updated'],
          description: 'lost',
        })
        .catch((error: unknown) => error);
      expect(lost).toBeInstanceOf(JornadaConnectionError);
      expect((lost as JornadaConnectionError).url).toBe(`${proxy.url}/v1/webhook-endpoints`);
      expect(proxy.seen).toHaveLength(1);
      expect(proxy.seen[0]?.idempotencyKey).toBeUndefined();
    } finally {
      await proxy.close();
    }
  }, 60_000);
});

type Seen = {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  outcome: number | 'dropped';
  answer: string;
  replayed: string | undefined;
};

/**
 * A reverse proxy in front of the service that can lose answers: a request `drop` picks is forwarded, the
 * service's whole answer is read, and the client's connection is then destroyed without a byte of it.
 */
async function startDroppingProxy(upstream: URL) {
  const proxy = {
    url: '',
    seen: [] as Seen[],
    drop: (_request: http.IncomingMessage, _index: number) => false,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    const index = proxy.seen.length;
    const seen: Seen = {
      method: request.method ?? '',
      url: request.url ?? '',
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      outcome: 'dropped',
      answer: '',
      replayed: undefined,
    };
    proxy.seen.push(seen);
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          seen.answer = Buffer.concat(chunks).toString();
          seen.replayed = answer.headers['idempotent-replayed'] as string | undefined;
          if (proxy.drop(request, index)) {
            request.socket.destroy();
            return;
          }
          seen.outcome = answer.statusCode ?? 0;
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          response.end(Buffer.concat(chunks));
        });
      },
    );
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
