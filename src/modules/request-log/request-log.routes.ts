import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { DASHBOARD_OPERATION } from '../../platform/sessions.ts';
import { RequestLog } from './request-log.schemas.ts';
import { listRequestLog } from './request-log.service.ts';

/** The sandbox's request log in the dashboard (test mode; live answers 404). */
export function requestLogDashboardRoutes(app: FastifyInstance, deps: AppDeps, mode: 'live' | 'test'): void {
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/request-log',
      operationId: `dashboard${mode}RequestLog`,
      summary: 'The last 100 requests of the sandbox’s test keys (test mode only; live: 404)',
      scope: null,
      responses: { 200: { description: 'The requests, newest first.', schema: RequestLog } },
    },
    async (request) => listRequestLog(deps, requireTenant(request)),
  );
}
