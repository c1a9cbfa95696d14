import { describe, expect, it } from 'vitest';
import { fieldErrors, hire } from '../../../helpers/resources.ts';

import { company, ctx, deliverDue, deliveriesOf, receiver, subscribe, useWebhookWorld } from './world.ts';

/** Webhook endpoints: creation, the secret, the cap, changes, deletion and scopes. */
useWebhookWorld();

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
