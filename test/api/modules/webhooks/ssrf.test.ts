import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { webhookDeliveryJob } from '../../../../src/jobs/webhook-delivery.ts';
import { attemptDelivery } from '../../../../src/modules/webhooks/sender.ts';
import {
  isPublicAddress,
  type ResolvedAddress,
  systemResolver,
} from '../../../../src/modules/webhooks/target.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { type Receiver, startReceiver } from '../../../helpers/receiver.ts';
import { fieldErrors, hire } from '../../../helpers/resources.ts';

/**
 * SSRF protection with JORNADA_WEBHOOKS_ALLOW_PRIVATE off (the production default). Names under .test are served
 * by this table (a resolver given to the service, as DNS would answer); every other name, like localhost, goes to
 * the system resolver.
 */
const dnsTable = new Map<string, ResolvedAddress[]>([
  ['intranet.example.test', [{ address: '10.20.30.40', family: 4 }]],
  ['metadata.example.test', [{ address: '169.254.169.254', family: 4 }]],
  [
    'mixed.example.test',
    [
      { address: '93.184.216.34', family: 4 },
      { address: 'fd00::1', family: 6 },
    ],
  ],
  ['hooks.example.test', [{ address: '93.184.216.34', family: 4 }]],
]);
const resolve = async (hostname: string) => {
  if (hostname.endsWith('.test')) {
    const answer = dnsTable.get(hostname);
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer;
  }
  return await systemResolver(hostname);
};

let ctx: TestContext;
let company: TestCompany;
beforeAll(async () => {
  ctx = await createTestContext({ webhookTargets: { allowPrivate: false, resolve } });
  company = await ctx.createCompany();
});
afterAll(() => ctx.close());

const create = (url: string) =>
  company.live.post('/v1/webhook-endpoints', { url, events: ['employee.created'] });

describe('registration', () => {
  it.each([
    ['https://127.0.0.1/hook', 'is 127.0.0.1 (loopback)'],
    ['https://[::1]/hook', 'is ::1 (loopback)'],
    ['https://169.254.169.254/latest/meta-data', 'is 169.254.169.254 (linkLocal)'],
    ['https://10.0.0.1/hook', 'is 10.0.0.1 (private)'],
    ['https://172.16.5.4/hook', 'is 172.16.5.4 (private)'],
    ['https://192.168.1.1/hook', 'is 192.168.1.1 (private)'],
    ['https://100.64.0.1/hook', 'is 100.64.0.1 (carrierGradeNat)'],
    ['https://224.0.0.251/hook', 'is 224.0.0.251 (multicast)'],
    ['https://0.0.0.0/hook', 'is 0.0.0.0 (unspecified)'],
    ['https://[::]/hook', 'is :: (unspecified)'],
    ['https://[fe80::1]/hook', 'is fe80::1 (linkLocal)'],
    ['https://[fd12:3456::1]/hook', 'is fd12:3456::1 (uniqueLocal)'],
    ['https://[ff02::1]/hook', 'is ff02::1 (multicast)'],
    ['https://[::ffff:10.0.0.1]/hook', 'is ::ffff:a00:1 (private)'],
    // A host name that resolves to a private address gets the answer an unresolvable one gets (issue 35).
    ['https://intranet.example.test/hook', 'does not resolve to public addresses only'],
    ['https://metadata.example.test/hook', 'does not resolve to public addresses only'],
    ['https://mixed.example.test/hook', 'does not resolve to public addresses only'],
    ['https://localhost/hook', 'does not resolve to public addresses only'],
    // IPv4 embedded in IPv6, which ipaddr.js calls unicast or which reach IPv4 through a translator.
    ['https://[::7f00:1]/hook', 'is ::7f00:1 (ipv4Compatible)'],
    ['https://[::127.0.0.1]/hook', 'is ::7f00:1 (ipv4Compatible)'],
    ['https://[::10.0.0.1]/hook', 'is ::a00:1 (ipv4Compatible)'],
    ['https://[::169.254.169.254]/hook', 'is ::a9fe:a9fe (ipv4Compatible)'],
    ['https://[::ffff:0:7f00:1]/hook', 'is ::ffff:0:7f00:1 (rfc6145)'],
    ['https://[64:ff9b::7f00:1]/hook', 'is 64:ff9b::7f00:1 (rfc6052)'],
    ['https://[64:ff9b:1::a00:1]/hook', 'is 64:ff9b:1::a00:1 (rfc6052)'],
    ['https://[2002:7f00:1::1]/hook', 'is 2002:7f00:1::1 (6to4)'],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', '(teredo)'],
    ['https://[100::1]/hook', 'is 100::1 (discard)'],
    ['https://[2001:db8::1]/hook', 'is 2001:db8::1 (reserved)'],
    ['https://[fec0::1]/hook', 'is fec0::1 (deprecatedSiteLocal)'],
  ])('refuses %s with 422', async (url, problem) => {
    const response = await create(url);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().code).toBe('validation_failed');
    expect(fieldErrors(response.json(), 'url')[0]).toContain(problem);
    expect(fieldErrors(response.json(), 'url')[0]).toMatch(/not a public address|public addresses only/);
    // A host name's addresses are never told (an address literal is the client's own).
    if (!/\/\/(\[|\d)/.test(url)) {
      expect(fieldErrors(response.json(), 'url')[0]).not.toMatch(/10\.20|169\.254|fd00|127\.0/);
    }
  });

  it('refuses plain http even to the local host, and a host that does not resolve', async () => {
    expect(fieldErrors((await create('http://127.0.0.1:8080/hook')).json(), 'url')).toEqual([
      'must be an https:// URL',
    ]);
    expect(fieldErrors((await create('http://localhost/hook')).json(), 'url')).toEqual([
      'must be an https:// URL',
    ]);
    expect(fieldErrors((await create('https://nowhere.example.test/hook')).json(), 'url')).toEqual([
      'host nowhere.example.test does not resolve to public addresses only (or does not resolve)',
    ]);
  });

  it('accepts a host that resolves to public addresses only, and checks a new url on PATCH', async () => {
    const created = await create('https://hooks.example.test/jornada');
    expect(created.statusCode, created.body).toBe(201);
    const moved = await company.live.patch(`/v1/webhook-endpoints/${created.json().id}`, {
      url: 'https://intranet.example.test/jornada',
    });
    expect(moved.statusCode).toBe(422);
    expect((await company.live.get(`/v1/webhook-endpoints/${created.json().id}`)).json().url).toBe(
      'https://hooks.example.test/jornada',
    );
    await company.live.delete(`/v1/webhook-endpoints/${created.json().id}`);
  });

  it('classifies addresses: only global unicast is public', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.216.34']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of [
      '127.0.0.2',
      '10.255.0.1',
      '100.127.255.254',
      '169.254.0.1',
      '::ffff:127.0.0.1',
      '2002::1',
      'x',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

describe('delivery', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('re-checks the address at delivery: a name that now resolves to a private address is refused unsent', async () => {
    dnsTable.set('rebinding.example.test', [{ address: '93.184.216.34', family: 4 }]);
    const endpoint = (await create('https://rebinding.example.test/hook')).json();
    expect(endpoint.status).toBe('active');
    dnsTable.set('rebinding.example.test', [{ address: '127.0.0.1', family: 4 }]);
    await hire(company.live);
    const worker = webhookDeliveryJob({ db: ctx.db, clock: ctx.clock, targets: ctx.deps.webhookTargets });
    await worker.tick();
    await worker.drain?.();
    const [delivery] = (await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`)).json()
      .data;
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_response_status: null,
      last_error:
        'refused: url host rebinding.example.test does not resolve to public addresses only (or does not resolve)',
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it('connects to the address it checked: the host name is resolved once per attempt, then pinned', async () => {
    let lookups = 0;
    const answers = ['127.0.0.1', '127.0.0.9'];
    const outcome = await attemptDelivery(
      {
        url: `http://pinned.example.test:${receiver.port}/pinned`,
        eventId: 'evt_00000000000000000000000000000001',
        timestamp: new Date(),
        body: '{"ping":true}',
        secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      },
      {
        allowPrivate: true,
        resolve: async () => [{ address: answers[lookups++] as string, family: 4 }],
      },
    );
    expect(outcome).toEqual({
      succeeded: true,
      responseStatus: 200,
      error: null,
      // What the delivery detail shows: the headers sent, the answer's body.
      requestHeaders: expect.objectContaining({ 'webhook-id': 'evt_00000000000000000000000000000001' }),
      responseBody: 'status 200',
    });
    expect(lookups).toBe(1);
    const request = receiver.requests.find((received) => received.path === '/pinned');
    expect(request?.headers.host).toBe(`pinned.example.test:${receiver.port}`);
  });
});

describe('ports', () => {
  it('allows only port 443 by default, and what the operator allows otherwise', async () => {
    expect(fieldErrors((await create('https://hooks.example.test:8443/hook')).json(), 'url')).toEqual([
      'must use port 443',
    ]);
    expect(fieldErrors((await create('https://hooks.example.test:22/hook')).json(), 'url')).toEqual([
      'must use port 443',
    ]);
    expect((await create('https://hooks.example.test:443/hook')).statusCode).toBe(201);
    const widened = await createTestContext({
      webhookTargets: { allowPrivate: false, resolve, allowedPorts: [443, 8443] },
    });
    try {
      const other = await widened.createCompany();
      const accepted = await other.live.post('/v1/webhook-endpoints', {
        url: 'https://hooks.example.test:8443/hook',
        events: ['employee.created'],
      });
      expect(accepted.statusCode, accepted.body).toBe(201);
      expect(
        fieldErrors(
          (
            await other.live.post('/v1/webhook-endpoints', {
              url: 'https://hooks.example.test:9000/hook',
              events: ['employee.created'],
            })
          ).json(),
          'url',
        ),
      ).toEqual(['must use one of the ports 443, 8443']);
    } finally {
      await widened.close();
    }
  });

  it('refuses an attempt to a port no longer allowed', async () => {
    const outcome = await attemptDelivery(
      {
        url: 'https://hooks.example.test:8443/hook',
        eventId: 'evt_00000000000000000000000000000002',
        timestamp: new Date(),
        body: '{}',
        secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      },
      { allowPrivate: false, resolve, allowedPorts: [443] },
    );
    expect(outcome).toEqual({
      succeeded: false,
      responseStatus: null,
      error: 'refused: url must use port 443',
    });
  });

  it('says "connection failed" alike for a closed port and an open one that does not speak TLS', async () => {
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    const send = (url: string) =>
      attemptDelivery(
        {
          url,
          eventId: 'evt_00000000000000000000000000000003',
          timestamp: new Date(),
          body: '{}',
          secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
        },
        { allowPrivate: true, resolve },
      );
    const closedPort = await send('http://127.0.0.1:1/hook');
    // The receiver speaks plain HTTP: a TLS handshake to it fails differently at the socket level.
    const plainPort = await send(`https://127.0.0.1:${receiver.port}/hook`);
    expect(closedPort.error).toBe('connection failed');
    expect(plainPort.error).toBe('connection failed');
    expect(closedPort.detail).toBe('ECONNREFUSED');
    expect(plainPort.detail).not.toBe(closedPort.detail);
  });
});
