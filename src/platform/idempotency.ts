import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { type Clock, toDate } from '../time/clock.ts';
import { ApiError, invalid } from './errors.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyRecord,
  releaseIdempotencyKey,
  renewIdempotencyLease,
} from './idempotency.repo.ts';

const RETENTION_HOURS = 24;
/**
 * An in-flight record is leased (issue 37): its node renews the lease every RENEW_SECONDS while the request runs,
 * so a request whose node died (killed, crashed) is taken over by a retry on another node within LEASE_SECONDS,
 * instead of a minute of 409s that outlasted the SDK's retries.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 10;
const LEASE_SECONDS = IDEMPOTENCY_LEASE_SECONDS;
const RENEW_SECONDS = 3;
const STORED_HEADERS = ['content-type', 'location'];

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

function fingerprintOf(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/** The lease renewals of the requests in flight, to stop when each answers. */
const leases = new WeakMap<FastifyRequest, () => void>();

/** The first request with the key is still running: the same request can be sent again in a moment. */
const IN_FLIGHT_HEADERS = { 'Retry-After': '1' };

/**
 * Idempotency-Key on POST, PATCH and DELETE, scoped to the tenant (spec, Idempotency; issue 2). The first
 * request claims the key atomically (insert … on conflict), so twenty parallel identical requests execute once:
 * the others see the claim in flight (409 conflict) or, once it completes, the stored response.
 */
export function registerIdempotency(app: FastifyInstance, deps: { db: Db; clock: Clock }): void {
  app.decorateRequest('idempotencyKey', null);

  app.addHook('preHandler', async (request, reply) => {
    if (!['POST', 'PATCH', 'DELETE'].includes(request.method)) return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key.length === 0 || key.length > 255) {
      throw invalid({ 'header.idempotency-key': 'must be 1 to 255 characters' });
    }
    const tenant = request.tenant;
    if (!tenant || request.routeOptions.config.idempotency === 'never') return;

    const now = deps.clock.now();
    const fingerprint = fingerprintOf(request);
    const claimed = await claimIdempotencyKey(deps.db, tenant.companyId, key, fingerprint, {
      now: toDate(now),
      lockedUntil: toDate(now.add({ seconds: LEASE_SECONDS })),
      expiresAt: toDate(now.add({ hours: RETENTION_HOURS })),
    });
    if (claimed) {
      request.idempotencyKey = key;
      // Renew the lease while the request runs; the timer ends when the answer is sent (onSend), or with the
      // connection if it closes first.
      const companyId = tenant.companyId;
      const timer = setInterval(() => {
        const at = deps.clock.now();
        renewIdempotencyLease(deps.db, companyId, key, toDate(at.add({ seconds: LEASE_SECONDS }))).catch(
          () => {},
        );
      }, RENEW_SECONDS * 1000);
      timer.unref();
      const stop = () => clearInterval(timer);
      leases.set(request, stop);
      request.raw.once('close', stop);
      return;
    }

    const existing = await findIdempotencyRecord(deps.db, tenant.companyId, key);
    if (!existing) {
      throw new ApiError(
        'conflict',
        'A request with this Idempotency-Key is being processed; retry shortly.',
        { headers: IN_FLIGHT_HEADERS },
      );
    }
    if (existing.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'This Idempotency-Key was already used with a different method, path or body.',
      );
    }
    if (existing.state === 'in_flight' || existing.response_status === null) {
      throw new ApiError(
        'conflict',
        'A request with this Idempotency-Key is still in flight; retry shortly.',
        { headers: IN_FLIGHT_HEADERS },
      );
    }
    reply.headers(existing.response_headers ?? {});
    reply.header('Idempotent-Replayed', 'true');
    return reply.code(existing.response_status).send(existing.response_body || undefined); // '' is a stored empty (204) body
  });

  app.addHook('onSend', async (request, reply, payload) => {
    leases.get(request)?.();
    const key = request.idempotencyKey;
    const tenant = request.tenant;
    if (key === null || !tenant) return payload;
    request.idempotencyKey = null;
    // An empty response (204) is stored as ''. Validation failures and server errors are not stored: the client
    // may fix the request and retry.
    const body = payload === undefined || payload === null ? '' : payload;
    if (reply.statusCode === 422 || reply.statusCode >= 500 || typeof body !== 'string') {
      await releaseIdempotencyKey(deps.db, tenant.companyId, key);
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    await completeIdempotencyKey(deps.db, tenant.companyId, key, {
      status: reply.statusCode,
      headers: JSON.stringify(headers),
      body,
    });
    return payload;
  });
}
