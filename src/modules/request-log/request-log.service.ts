import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Tenant } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { appendRequest, selectRequests } from './request-log.repo.ts';
import type { RequestLog } from './request-log.schemas.ts';

/**
 * The sandbox's request log (issue 18): every request made with a test key is recorded once answered (method,
 * path without its query, status, duration, request id), and the last 100 are kept, for a developer to see what
 * their integration sent. Live keys' requests are never recorded here.
 */
export function registerRequestLog(app: FastifyInstance, deps: Pick<AppDeps, 'db' | 'clock'>): void {
  app.addHook('onResponse', async (request, reply) => {
    const tenant = request.caller;
    if (tenant?.mode !== 'test' || tenant.apiKeyId === null) return;
    try {
      await appendRequest(deps.db, {
        company_id: tenant.companyId,
        at: toDate(deps.clock.now()),
        api_key_id: tenant.apiKeyId,
        method: request.method,
        path: request.url.split('?')[0] as string,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime),
        request_id: String(request.id),
      });
    } catch (error) {
      // The log is a convenience: a failure to write it never touches the answer, which is already sent.
      request.log.warn({ err: error }, 'request log not written');
    }
  });
}

/** The sandbox's last 100 requests, newest first; the live company keeps no such log (404). */
export async function listRequestLog(
  deps: Pick<AppDeps, 'db'>,
  tenant: Pick<Tenant, 'companyId' | 'sandbox'>,
): Promise<Static<typeof RequestLog>> {
  if (!tenant.sandbox) throw new ApiError('not_found', 'Only the sandbox keeps a request log.');
  const rows = await selectRequests(deps.db, tenant.companyId);
  return {
    data: rows.map(({ id: _id, at, ...row }) => ({ ...row, at: formatInstant(at) })),
  };
}
