import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { RETRY_DELAYS_SECONDS } from '../../../../src/modules/webhooks/deliveries.service.ts';
import { eventToDelivery, webhookEndpointsAutoDisabled } from '../../../../src/platform/metrics.ts';
import { withFormats } from '../../../../src/platform/validation.ts';
import type { TestCompany } from '../../../helpers/context.ts';
import { startReceiver } from '../../../helpers/receiver.ts';
import { hire } from '../../../helpers/resources.ts';

import {
  company,
  ctx,
  deliverDue,
  deliveriesOf,
  receiver,
  seconds,
  subscribe,
  useWebhookWorld,
} from './world.ts';

/** Deliveries: signatures, fan-out, tests, what is kept of an answer, retries, disabling and pauses. */
useWebhookWorld();

/** How many successful deliveries' lags the histogram has observed. */
async function deliveryLagCount(): Promise<number> {
  const metric = await eventToDelivery.get();
  return (
    metric.values.find((value) => value.metricName === 'jornada_webhook_event_to_delivery_seconds_count')
      ?.value ?? 0
  );
}

describe('delivery', () => {
  it('delivers employee.created signed so that standardwebhooks verify accepts it', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    const employee = await hire(company.live);
    // The fake clock runs on from its offset, so the attempt's second lies between these two readings.
    const sentFrom = Math.floor(ctx.clock.now().epochMilliseconds / 1000);
    const observedBefore = await deliveryLagCount();
    await deliverDue();
    const sentBy = Math.floor(ctx.clock.now().epochMilliseconds / 1000);
    const [request] = await receiver.waitFor(1);
    // The event-to-delivery lag of the success is observed (jornada_webhook_event_to_delivery_seconds).
    expect(await deliveryLagCount()).toBe(observedBefore + 1);
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
    // Asked again before it was sent: still the one attempt, due now (issue 41: retry works in any state).
    const again = await company.live.post(
      `/v1/webhook-endpoints/${endpoint.id}/deliveries/${failed?.id}/retry`,
    );
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ status: 'pending', attempts: 7 });
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
    const disabledBefore = (await webhookEndpointsAutoDisabled.get()).values[0]?.value ?? 0;
    await deliverDue();
    expect(await status()).toMatchObject({ status: 'disabled', disabled_reason: 'consecutive_failures' });
    // Counted for the operator's alert (JornadaWebhookEndpointAutoDisabled).
    expect((await webhookEndpointsAutoDisabled.get()).values[0]?.value).toBe(disabledBefore + 1);
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
});
