import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claimIdempotencyKey, renewIdempotencyLease } from '../../../src/platform/idempotency.repo.ts';
import { IDEMPOTENCY_LEASE_SECONDS } from '../../../src/platform/idempotency.ts';
import { toDate } from '../../../src/time/clock.ts';
import { useCompanyContext } from '../../helpers/context.ts';

const env = useCompanyContext();

// DELETE /v1/api-keys/{id} is the mutating public route of the platform; later modules reuse the same hooks.
async function freshKey() {
  return await env.ctx.createKey(env.company.id, 'live', ['org:empleados:read']);
}

describe('Idempotency-Key', () => {
  it('replays the stored response for the same key, method, path and body', async () => {
    const key = await freshKey();
    const first = await env.company.live.delete(`/v1/api-keys/${key.id}`, {
      headers: { 'idempotency-key': 'k-replay' },
    });
    expect(first.statusCode).toBe(204);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await env.company.live.delete(`/v1/api-keys/${key.id}`, {
      headers: { 'idempotency-key': 'k-replay' },
    });
    expect(again.statusCode).toBe(204);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['x-ratelimit-limit']).toBe('120');
  });

  it('answers 409 idempotency_conflict for the same key on another path', async () => {
    const a = await freshKey();
    const b = await freshKey();
    await env.company.live.delete(`/v1/api-keys/${a.id}`, { headers: { 'idempotency-key': 'k-conflict' } });
    const response = await env.company.live.delete(`/v1/api-keys/${b.id}`, {
      headers: { 'idempotency-key': 'k-conflict' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('idempotency_conflict');
    // Nothing executed for b.
    expect((await env.ctx.as(b.secret).get('/v1/organization')).statusCode).toBe(200);
  });

  it('answers 409 idempotency_conflict for the same key with another body', async () => {
    const key = await freshKey();
    const url = `/v1/api-keys/${key.id}`;
    const headers = { 'idempotency-key': 'k-body', 'content-type': 'application/json' };
    expect((await env.company.live.request('DELETE', url, '{}', { headers })).statusCode).toBe(204);
    const response = await env.company.live.request('DELETE', url, '{"other":1}', { headers });
    expect(response.json().code).toBe('idempotency_conflict');
  });

  it('scopes keys to the tenant', async () => {
    const other = await env.ctx.createCompany();
    const mine = await freshKey();
    const theirs = await env.ctx.createKey(other.id, 'live', ['org:empleados:read']);
    expect(
      (await env.company.live.delete(`/v1/api-keys/${mine.id}`, { headers: { 'idempotency-key': 'shared' } }))
        .statusCode,
    ).toBe(204);
    const response = await other.live.delete(`/v1/api-keys/${theirs.id}`, {
      headers: { 'idempotency-key': 'shared' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
  });

  it('does not store validation failures', async () => {
    const bad = await env.company.live.delete('/v1/api-keys/not-a-uuid', {
      headers: { 'idempotency-key': 'k-422' },
    });
    expect(bad.statusCode).toBe(422);
    const key = await freshKey();
    const good = await env.company.live.delete(`/v1/api-keys/${key.id}`, {
      headers: { 'idempotency-key': 'k-422' },
    });
    expect(good.statusCode).toBe(204);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });

  it('stores a 404 and replays it', async () => {
    const missing = '01900000-0000-7000-8000-000000000000';
    const first = await env.company.live.delete(`/v1/api-keys/${missing}`, {
      headers: { 'idempotency-key': 'k-404' },
    });
    expect(first.statusCode).toBe(404);
    const again = await env.company.live.delete(`/v1/api-keys/${missing}`, {
      headers: { 'idempotency-key': 'k-404' },
    });
    expect(again.statusCode).toBe(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/problem\+json/);
    expect(again.json()).toEqual(first.json());
  });

  it('rejects a key longer than 255 characters', async () => {
    const key = await freshKey();
    const response = await env.company.live.delete(`/v1/api-keys/${key.id}`, {
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveProperty(['header.idempotency-key']);
  });

  it('executes twenty parallel identical requests exactly once', async () => {
    const key = await freshKey();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        env.company.live.delete(`/v1/api-keys/${key.id}`, { headers: { 'idempotency-key': 'k-burst' } }),
      ),
    );
    const executed = responses.filter(
      (r) => r.statusCode === 204 && r.headers['idempotent-replayed'] === undefined,
    );
    const replayed = responses.filter((r) => r.headers['idempotent-replayed'] === 'true');
    const inFlight = responses.filter((r) => r.statusCode === 409);
    expect(executed).toHaveLength(1);
    expect(replayed.length + inFlight.length).toBe(19);
    for (const response of inFlight) {
      expect(response.json().code).toBe('conflict');
      // "Retry shortly", said in the header clients already honour.
      expect(response.headers['retry-after']).toBe('1');
    }
  });

  it('expires after 24 hours', async () => {
    const a = await freshKey();
    const b = await freshKey();
    await env.company.live.delete(`/v1/api-keys/${a.id}`, { headers: { 'idempotency-key': 'k-expiry' } });
    env.ctx.clock.advance(24 * 3600 + 1);
    const response = await env.company.live.delete(`/v1/api-keys/${b.id}`, {
      headers: { 'idempotency-key': 'k-expiry' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
  });

  it('takes over an in-flight record whose request died, after its lease', async () => {
    const key = await freshKey();
    const url = `/v1/api-keys/${key.id}`;
    // Simulate a process killed mid-request: the claim exists, no response was ever stored.
    await env.company.live.delete(url, { headers: { 'idempotency-key': 'k-dead' } });
    await env.ctx.db
      .updateTable('idempotency_keys')
      .set({
        state: 'in_flight',
        response_status: null,
        locked_until: new Date(env.ctx.clock.now().epochMilliseconds + 60_000),
      })
      .where('idempotency_key', '=', 'k-dead')
      .execute();
    const stalled = await env.company.live.delete(url, { headers: { 'idempotency-key': 'k-dead' } });
    expect(stalled.json().code).toBe('conflict');
    expect(stalled.headers['retry-after']).toBe('1');
    env.ctx.clock.advance(61);
    expect(
      (await env.company.live.delete(url, { headers: { 'idempotency-key': 'k-dead' } })).statusCode,
    ).toBe(204);
  });

  it('lets a retry run the write within seconds when the node holding the key died (issue 37)', async () => {
    const key = await freshKey();
    const url = `/v1/api-keys/${key.id}`;
    const fingerprint = createHash('sha256').update(`DELETE ${url}\nnull`).digest('hex');
    // The claim a node made just before it was killed: leased, never renewed again, never answered.
    const claimedAt = env.ctx.clock.now();
    expect(
      await claimIdempotencyKey(env.ctx.db, env.company.id, 'k-crashed', fingerprint, {
        now: toDate(claimedAt),
        lockedUntil: toDate(claimedAt.add({ seconds: IDEMPOTENCY_LEASE_SECONDS })),
        expiresAt: toDate(claimedAt.add({ hours: 24 })),
      }),
    ).toBe(true);
    const send = () => env.company.live.delete(url, { headers: { 'idempotency-key': 'k-crashed' } });
    expect((await send()).json().code).toBe('conflict');
    // A node that is alive renews its lease: the claim holds past the first lease.
    env.ctx.clock.advance(IDEMPOTENCY_LEASE_SECONDS - 2);
    await renewIdempotencyLease(
      env.ctx.db,
      env.company.id,
      'k-crashed',
      toDate(env.ctx.clock.now().add({ seconds: IDEMPOTENCY_LEASE_SECONDS })),
    );
    env.ctx.clock.advance(4);
    expect((await send()).json().code).toBe('conflict');
    // Then its node dies: nobody renews, and within the lease's seconds a retry runs the write.
    env.ctx.clock.advance(IDEMPOTENCY_LEASE_SECONDS);
    expect((await send()).statusCode).toBe(204);
    expect(IDEMPOTENCY_LEASE_SECONDS).toBeLessThanOrEqual(15);
  });
});
