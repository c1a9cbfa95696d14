import { Ajv2020 } from 'ajv/dist/2020.js';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveryJob } from '../../../../src/jobs/webhook-delivery.ts';
import { EVENT_TYPES } from '../../../../src/modules/events/events.service.ts';
import { WAITS_PER_CALLER } from '../../../../src/modules/sandbox/sandbox.service.ts';
import { withFormats } from '../../../../src/platform/validation.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { type Receiver, startReceiver } from '../../../helpers/receiver.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * POST /v1/sandbox/events (issue 18): a sample event of any type, sent in the sandbox like a real one to the
 * endpoints subscribed to it, signed and verifiable; never with a live key.
 */
let ctx: TestContext;
let company: TestCompany;
let receiver: Receiver;
beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

async function deliverDue(): Promise<void> {
  const worker = webhookDeliveryJob({ db: ctx.db, clock: ctx.clock, targets: ctx.deps.webhookTargets });
  for (;;) {
    const claimed = await worker.tick();
    await worker.drain?.();
    if (claimed === 0) return;
  }
}

describe('sample events', () => {
  it('are refused to live keys (404), to keys without webhooks:manage, and for unknown types', async () => {
    const live = await company.live.post('/v1/sandbox/events', { type: 'ping' });
    expect(live.statusCode).toBe(404);
    expect(live.json().code).toBe('not_found');
    const narrow = await ctx.createKey(company.id, 'test', ['org:empleados:read']);
    const denied = await ctx.as(narrow.secret).post('/v1/sandbox/events', { type: 'ping' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().errors).toEqual({ required_scope: 'webhooks:manage' });
    const unknown = await company.test.post('/v1/sandbox/events', { type: 'employee.exploded' });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['type']);
    expect((await company.test.post('/v1/sandbox/events', { type: 'ping', extra: 1 })).statusCode).toBe(422);
  });

  it('reach the sandbox endpoints subscribed to them, signed, with data naming sandbox records', async () => {
    const employee = await hire(company.test);
    const endpoint = (
      await company.test.post('/v1/webhook-endpoints', {
        url: `${receiver.url}/sandbox`,
        events: ['employee.created', 'absence.approved'],
      })
    ).json();
    const openapi = (await ctx.app.inject({ url: '/v1/openapi.json' })).json();
    const ajv = withFormats(new Ajv2020({ strict: false }));
    ajv.addSchema(openapi, 'openapi');

    for (const type of EVENT_TYPES) {
      const sent = await company.test.post('/v1/sandbox/events', { type });
      expect(sent.statusCode, sent.body).toBe(202);
      const event = sent.json();
      expect(event).toMatchObject({
        type,
        company_id: company.sandboxId,
        id: expect.stringMatching(/^evt_/),
      });
      // Its body is what the description documents for its type.
      const { deliveries, listeners, ...body } = event;
      expect(listeners, type).toBe(0);
      const documented = ajv.compile({
        $ref: `openapi#/webhooks/${type}/post/requestBody/content/application~1json/schema`,
      });
      expect(documented(body), `${type}: ${JSON.stringify(documented.errors)}`).toBe(true);
      // Queued for the endpoints subscribed to it; a ping for every active endpoint.
      const subscribed = ['employee.created', 'absence.approved', 'ping'].includes(type);
      expect(deliveries, type).toBe(subscribed ? 1 : 0);
    }
    const created = await company.test.post('/v1/sandbox/events', { type: 'employee.created' });
    expect(created.json().data).toEqual({ employee_id: employee.id });

    await deliverDue();
    const received = receiver.requests.filter((request) => request.path === '/sandbox');
    expect(received.map((request) => JSON.parse(request.body).type).sort()).toEqual(
      ['absence.approved', 'employee.created', 'employee.created', 'ping'].sort(),
    );
    for (const request of received) {
      expect(() => new Webhook(endpoint.secret).verify(request.body, request.headers)).not.toThrow();
    }
    // Listed among the endpoint's deliveries like any other.
    const listed = await company.test.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`);
    expect(listed.json().data).toHaveLength(4);
    // Nothing reached the live company's endpoints.
    expect((await company.live.get('/v1/webhook-endpoints')).json().data).toEqual([]);
  });

  it('are a feed a test key can wait on: from latest, then after each cursor', async () => {
    // A fresh minute of the test key's rate limit: the test before emitted one event of every type.
    ctx.clock.advance(60);
    expect((await company.live.get('/v1/sandbox/events', { query: { after: 'latest' } })).statusCode).toBe(
      404,
    );
    const refused: Array<Record<string, string | number>> = [
      {},
      { after: 'nope' },
      { after: 'latest', wait: 21 },
      { after: 'latest', other: 1 },
    ];
    for (const query of refused) {
      expect(
        (await company.test.get('/v1/sandbox/events', { query })).statusCode,
        JSON.stringify(query),
      ).toBe(422);
    }
    const start = (await company.test.get('/v1/sandbox/events', { query: { after: 'latest' } })).json();
    expect(start.data).toEqual([]);
    const emitted = (await company.test.post('/v1/sandbox/events', { type: 'report.completed' })).json();
    // The caller that polled the feed is a listener the sample reaches (issue 41: it said `deliveries: 0`);
    // a minute after its last poll, it no longer counts.
    expect(emitted.listeners).toBe(1);
    const page = (
      await company.test.get('/v1/sandbox/events', { query: { after: start.next_after, wait: 0 } })
    ).json();
    expect(page.data.map((event: { id: string }) => event.id)).toEqual([emitted.id]);
    expect(page.next_after).toBe(emitted.id);
    // Nothing newer: with wait 0 the answer is at once, and the cursor stays.
    const empty = (
      await company.test.get('/v1/sandbox/events', { query: { after: page.next_after, wait: 0 } })
    ).json();
    expect(empty).toEqual({ data: [], next_after: emitted.id });
    // Another company's sandbox feed never shows these.
    const other = await ctx.createCompany();
    const theirs = (
      await other.test.get('/v1/sandbox/events', { query: { after: start.next_after, wait: 0 } })
    ).json();
    expect(theirs.data).toEqual([]);
    expect((await other.test.post('/v1/sandbox/events', { type: 'ping' })).json().listeners).toBe(1);
    ctx.clock.advance(61);
    expect((await company.test.post('/v1/sandbox/events', { type: 'ping' })).json().listeners).toBe(0);
  });

  it('lets one caller hold only a few waits at once (issue 35: one session held 400)', async () => {
    ctx.clock.advance(60); // a fresh per-minute window of the test key
    const start = (await company.test.get('/v1/sandbox/events', { query: { after: 'latest' } })).json();
    const waits = Array.from({ length: WAITS_PER_CALLER }, () =>
      company.test.get('/v1/sandbox/events', { query: { after: start.next_after, wait: 5 } }),
    );
    // Let them start waiting, then one more is refused at once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const extra = await company.test.get('/v1/sandbox/events', {
      query: { after: start.next_after, wait: 5 },
    });
    expect(extra.statusCode, extra.body).toBe(429);
    expect(extra.json().detail).toContain('waiting at once');
    expect(extra.headers['retry-after']).toBe('1');
    // An event ends every wait; then the caller may wait again.
    await company.test.post('/v1/sandbox/events', { type: 'report.completed' });
    expect((await Promise.all(waits)).map((response) => response.statusCode)).toEqual(
      Array(WAITS_PER_CALLER).fill(200),
    );
    const again = await company.test.get('/v1/sandbox/events', {
      query: { after: start.next_after, wait: 1 },
    });
    expect(again.statusCode).toBe(200);
  });
});
