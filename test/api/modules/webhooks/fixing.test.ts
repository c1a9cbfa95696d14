import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { RETRY_DELAYS_SECONDS } from '../../../../src/modules/webhooks/deliveries.service.ts';
import { hire } from '../../../helpers/resources.ts';
import { company, ctx, deliverDue, deliveriesOf, receiver, subscribe, useWebhookWorld } from './world.ts';

/**
 * Issue 41, webhooks you can fix: after mending a receiver, a retry sends the delivery now whatever its state
 * (a delivery in backoff waited up to 24 hours), and a replay sends a time range's events again, each with its
 * own `webhook-id`.
 */
useWebhookWorld();

const retry = (endpointId: string, deliveryId: string) =>
  company.live.post(`/v1/webhook-endpoints/${endpointId}/deliveries/${deliveryId}/retry`);

describe('retrying now (issue 41)', () => {
  it('brings a scheduled retry forward, and the schedule goes on if that attempt fails too', async () => {
    receiver.respond = () => 503;
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    await deliverDue();
    await deliverDue();
    expect(receiver.requests).toHaveLength(1);
    const [waiting] = await deliveriesOf(company, endpoint.id);
    // In backoff: the next attempt a minute away.
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(Date.parse(String(waiting?.next_attempt_at))).toBeGreaterThan(ctx.clock.now().epochMilliseconds);

    // The receiver is mended; the retry is sent at once, not in a minute.
    receiver.respond = () => 204;
    const retried = await retry(endpoint.id, waiting?.id as string);
    expect(retried.statusCode, retried.body).toBe(202);
    expect(Date.parse(retried.json().next_attempt_at)).toBeLessThanOrEqual(ctx.clock.now().epochMilliseconds);
    await deliverDue();
    expect(receiver.requests).toHaveLength(2);
    expect((await deliveriesOf(company, endpoint.id))[0]).toMatchObject({ status: 'succeeded', attempts: 2 });

    // Another delivery in backoff, retried while the receiver still fails: the automatic schedule goes on.
    receiver.respond = () => 500;
    await hire(company.live);
    await deliverDue();
    const [second] = await deliveriesOf(company, endpoint.id);
    expect(second).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await retry(endpoint.id, second?.id as string)).statusCode).toBe(202);
    await deliverDue();
    const after = (await deliveriesOf(company, endpoint.id))[0];
    expect(after).toMatchObject({ status: 'pending', attempts: 2 });
    expect(Date.parse(String(after?.next_attempt_at))).toBeGreaterThan(
      ctx.clock.now().epochMilliseconds + ((RETRY_DELAYS_SECONDS[1] as number) - 5) * 1000,
    );
  });

  it('answers a first attempt not sent yet as it is, sends it once, and refuses another tenant’s delivery', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    const [fresh] = await deliveriesOf(company, endpoint.id);
    const retried = await retry(endpoint.id, fresh?.id as string);
    expect(retried.statusCode, retried.body).toBe(202);
    expect(retried.json()).toMatchObject({ status: 'pending', attempts: 0 });
    await deliverDue();
    expect(receiver.requests).toHaveLength(1);
    const other = await ctx.createCompany();
    const theirs = await other.live.post(
      `/v1/webhook-endpoints/${endpoint.id}/deliveries/${fresh?.id}/retry`,
    );
    expect(theirs.statusCode).toBe(404);
  });
});

describe('replaying a range (issue 41)', () => {
  it('sends the range’s events of the subscribed types again, each with its webhook-id, once per replay', async () => {
    const endpoint = await subscribe(company, ['employee.created', 'employee.updated']);
    const from = ctx.clock.now().toString();
    const first = await hire(company.live);
    const second = await hire(company.live);
    await company.live.patch(`/v1/employees/${first.id}`, { first_name: 'Renamed' });
    // Not subscribed: never replayed to this endpoint.
    await company.live.post(`/v1/employees/${second.id}/terminate`, { termination_date: '2026-12-31' });
    ctx.clock.advance(60);
    const to = ctx.clock.now().toString();
    ctx.clock.advance(60);
    // After the range.
    await hire(company.live);
    await deliverDue();
    const original = receiver.requests.map((request) => request.headers['webhook-id']);
    expect(original).toHaveLength(4);

    const replayed = await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/replay`, { from, to });
    expect(replayed.statusCode, replayed.body).toBe(202);
    expect(replayed.json()).toMatchObject({ deliveries: 3, types: ['employee.created', 'employee.updated'] });
    await deliverDue();
    const again = receiver.requests.slice(4);
    expect(again.map((request) => request.headers['webhook-id'])).toEqual(original.slice(0, 3));
    const events = again.map((request) => new Webhook(endpoint.secret).verify(request.body, request.headers));
    expect(events.map((event) => (event as { type: string }).type)).toEqual([
      'employee.created',
      'employee.created',
      'employee.updated',
    ]);

    // Narrowed by type.
    const updates = await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/replay`, {
      from,
      to,
      types: ['employee.updated'],
    });
    expect(updates.json()).toMatchObject({ deliveries: 1, types: ['employee.updated'] });
  });

  it('refuses a backwards range, an unknown type, another tenant’s endpoint and a disabled one', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    const now = ctx.clock.now();
    const backwards = await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/replay`, {
      from: now.toString(),
      to: now.subtract({ hours: 1 }).toString(),
    });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors).toHaveProperty('to');
    const unknown = await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/replay`, {
      from: now.subtract({ hours: 1 }).toString(),
      to: now.toString(),
      types: ['employee.exploded'],
    });
    expect(unknown.statusCode).toBe(422);
    // A type the endpoint does not subscribe to names nothing to send.
    const unsubscribed = await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/replay`, {
      from: now.subtract({ hours: 1 }).toString(),
      to: now.toString(),
      types: ['absence.approved'],
    });
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(422);
    expect(unsubscribed.json().errors).toHaveProperty('types');
    const other = await ctx.createCompany();
    const theirs = await other.live.post(`/v1/webhook-endpoints/${endpoint.id}/replay`, {
      from: now.subtract({ hours: 1 }).toString(),
      to: now.toString(),
    });
    expect(theirs.statusCode).toBe(404);
    await company.live.patch(`/v1/webhook-endpoints/${endpoint.id}`, { status: 'disabled' });
    const disabled = await company.live.post(`/v1/webhook-endpoints/${endpoint.id}/replay`, {
      from: now.subtract({ hours: 1 }).toString(),
      to: now.toString(),
    });
    expect(disabled.statusCode).toBe(409);
  });
});
