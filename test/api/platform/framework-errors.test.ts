import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import openapi from '../../../openapi-v1.json' with { type: 'json' };
import { useCompanyContext } from '../../helpers/context.ts';
import { createAdmin, dashboardSession } from '../../helpers/dashboard.ts';

const env = useCompanyContext();

type Answer = { statusCode: number; headers: Record<string, unknown>; body: string };

function expectProblem(response: Answer, status: number, code: string): Record<string, unknown> {
  expect(response.statusCode, response.body).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, type: `http://jornada.test/docs/errors/${code}` });
  return body;
}

const PROTOTYPE_NAMES = [
  'toString',
  'constructor',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
];

/** Every /v1 operation that takes a body, from the committed description. */
const bodyOperations = Object.entries(
  openapi.paths as Record<string, Record<string, { requestBody?: unknown }>>,
)
  .flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => typeof operation === 'object' && operation.requestBody !== undefined)
      .map(([method, _]) => ({ method: method.toUpperCase() as 'POST' | 'PATCH', path })),
  )
  .map(({ method, path }) => ({
    method,
    // A month parameter takes a month; every other one an id.
    url: path.replace('{month}', '2026-10').replace(/\{[^}]+\}/g, '0191a8e0-0000-7000-8000-000000000000'),
  }));

describe('field names like Object.prototype members', () => {
  it('finds the 29 operations with a body (the sandbox’s sample event, a webhook replay and the concept maps’ two are four)', () => {
    expect(bodyOperations).toHaveLength(29);
  });

  it.each(bodyOperations)('answers 422 naming the field on $method $url', async ({ method, url }) => {
    // A fresh rate-limit window for each operation's 8 requests (the key's limit is 120 a minute).
    env.ctx.clock.advance(60);
    for (const name of PROTOTYPE_NAMES) {
      const response = await env.company.live.request(method, url, { [name]: 1 });
      const body = expectProblem(response, 422, 'validation_failed');
      expect(Object.keys(body.errors as object)).toContain(name);
    }
  });

  it('keeps "__proto__" a plain field name too', async () => {
    const response = await env.company.live.request('POST', '/v1/employees', '{"__proto__": {"x": 1}}');
    expect(response.statusCode).toBe(422);
  });
});

describe('framework errors go through the one problem+json handler', () => {
  it('answers a path parameter over 100 characters with 404 not_found and the usual headers', async () => {
    const response = await env.company.live.get(`/v1/employees/${'a'.repeat(101)}`, {
      headers: { 'x-request-id': 'long-param' },
    });
    expectProblem(response, 404, 'not_found');
    expect(response.headers['x-request-id']).toBe('long-param');
    expect(response.headers['x-ratelimit-limit']).toBeDefined();
    const veryLong = await env.company.live.get(`/v1/employees/${'b'.repeat(5000)}`);
    expectProblem(veryLong, 404, 'not_found');
  });

  it('answers a malformed percent-encoding in the path with 404 not_found', async () => {
    const response = await env.company.live.get('/v1/employees/%E0%A4%A');
    expectProblem(response, 404, 'not_found');
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it('answers bad JSON, a wrong content type, an empty JSON body and a too-large body', async () => {
    const post = (body: string, type: string) =>
      env.company.live.request('POST', '/v1/employees', body, { headers: { 'content-type': type } });
    expectProblem(await post('{"first_name":', 'application/json'), 422, 'validation_failed');
    expectProblem(await post('first_name=x', 'application/x-www-form-urlencoded'), 422, 'validation_failed');
    expectProblem(await post('x', 'text/plain'), 422, 'validation_failed');
    expectProblem(await post('', 'application/json'), 422, 'validation_failed');
    expectProblem(await post(`"${'x'.repeat(1_100_000)}"`, 'application/json'), 413, 'validation_failed');
  });

  it('answers a JSON null body where an object is expected with 422', async () => {
    const response = await env.company.live.request('POST', '/v1/employees', 'null');
    const body = expectProblem(response, 422, 'validation_failed');
    expect(body.errors).toHaveProperty('body');
    const patch = await env.company.live.request(
      'PATCH',
      '/v1/webhook-endpoints/0191a8e0-0000-7000-8000-000000000000',
      'null',
    );
    expectProblem(patch, 422, 'validation_failed');
  });

  it('answers an unsupported method with 405 or 404 problem+json', async () => {
    const put = await env.company.live.request('PUT', '/v1/employees', {});
    expectProblem(put, 405, 'not_found');
    for (const method of ['OPTIONS', 'HEAD'] as const) {
      const answer = await env.ctx.app.inject({
        method,
        url: '/v1/employees',
        headers: { authorization: `Bearer ${env.company.liveKey}` },
      });
      expect(answer.statusCode).toBe(405);
      expect(answer.headers.allow).toBe('GET, POST');
      if (method === 'OPTIONS') expectProblem(answer as unknown as Answer, 405, 'not_found');
    }
    const anonymous = await env.ctx.app.inject({ method: 'OPTIONS', url: '/v1/employees' });
    expectProblem(anonymous as unknown as Answer, 401, 'unauthenticated');
  });

  describe('over a real socket', () => {
    let port = 0;
    beforeAll(async () => {
      await env.ctx.app.listen({ port: 0, host: '127.0.0.1' });
      port = (env.ctx.app.server.address() as net.AddressInfo).port;
    });
    afterAll(async () => {
      await env.ctx.app.server.close();
    });

    /** Sends raw bytes and returns the status line, headers and body of the answer. */
    const raw = (request: string) =>
      new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
        });
        socket.on('error', reject);
        socket.on('close', () => {
          const [head = '', body = ''] = text.split('\r\n\r\n');
          resolve({ status: Number(head.split(' ')[1]), headers: head, body });
        });
      });

    it('answers an unknown method, a malformed request line and oversized headers as problem+json', async () => {
      for (const [request, status] of [
        ['FROB /v1/employees HTTP/1.1\r\nHost: x\r\n\r\n', 400],
        ['GET /v1/employees HTTP/1.1 extra\r\nHost: x\r\n\r\n', 400],
        [`GET /v1/employees HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(20_000)}\r\n\r\n`, 431],
      ] as const) {
        const answer = await raw(request);
        expect(answer.status).toBe(status);
        expect(answer.headers).toMatch(/content-type: application\/problem\+json/i);
        expect(JSON.parse(answer.body)).toMatchObject({ status, code: 'validation_failed' });
      }
    });
  });
});

describe('the NUL character', () => {
  it('is refused with 422 in a body string, a property name and a query parameter', async () => {
    const body = expectProblem(
      await env.company.live.post('/v1/employees', {
        first_name: 'A\u0000',
        last_name: 'B',
        email: 'nul@example.com',
      }),
      422,
      'validation_failed',
    );
    expect(body.errors).toEqual({ first_name: ['must not contain the NUL character (U+0000)'] });
    expectProblem(await env.company.live.post('/v1/employees', { 'x\u0000': 1 }), 422, 'validation_failed');
    const query = expectProblem(
      await env.company.live.get('/v1/employees', { query: { cursor: 'a\u0000b' } }),
      422,
      'validation_failed',
    );
    expect(Object.keys(query.errors as object)).toEqual(['query.cursor']);
  });

  it('is refused on the unauthenticated dashboard login and in the dashboard employee search', async () => {
    const login = await env.ctx.as(null).post('/dashboard/api/login', {
      email: 'a@example.com',
      password: 'pass\u0000word-long-enough',
    });
    expectProblem(login, 422, 'validation_failed');
    const admin = await createAdmin(env.ctx, env.company.id);
    const session = await dashboardSession(env.ctx, admin.email, admin.password);
    const search = await session.call('GET', '/dashboard/api/live/employees/search?q=x%00');
    expectProblem(search, 422, 'validation_failed');
  });
});

describe('response headers', () => {
  it('sends nosniff on every response and no-store on every JSON answer', async () => {
    const answers = [
      await env.company.live.get('/v1/organization'),
      await env.company.live.get('/v1/nothing'),
      await env.ctx.as(null).get('/healthz'),
      await env.ctx.as(null).get('/dashboard'),
      await env.ctx.as(null).get('/dashboard/api/session'),
    ];
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff');
    for (const answer of [answers[0], answers[1], answers[2], answers[4]]) {
      expect(answer?.headers['cache-control']).toBe('no-store');
    }
  });
});
