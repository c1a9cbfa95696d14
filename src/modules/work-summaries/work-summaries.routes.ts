import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { DateRangeQuery, deprecatedUpdatedSinceHeaders, ListOf } from '../../platform/pagination.ts';
import { PORTAL_OPERATION, requireWorker } from '../../platform/sessions.ts';
import { ListWorkSummariesQuery, WorkSummary } from './work-summaries.schemas.ts';
import { listWorkSummaries } from './work-summaries.service.ts';

export function workSummariesRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/work-summaries',
      operationId: 'listWorkSummaries',
      summary: 'List work summaries',
      description:
        'Closed-workday aggregates per employee and day or calendar month, ordered by employee and period. Days not yet closed and incomplete days are left out of the minute fields (see incomplete_days). Data of the current day is never included; close payroll on completed periods.',
      tag: 'Work summaries',
      scope: 'org:fichajes:read',
      querystring: ListWorkSummariesQuery,
      responses: { 200: { description: 'A page of work summaries.', schema: ListOf(WorkSummary) } },
    },
    async (request, reply) => {
      reply.headers(deprecatedUpdatedSinceHeaders(request.query.updated_since));
      return await listWorkSummaries(deps, requireTenant(request), request.query);
    },
  );
}

/** The worker's own day figures in the portal. */
export function workSummariesPortalRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: '/portal/api/days',
      operationId: 'portalDays',
      summary: 'The worker’s own day figures',
      scope: null,
      querystring: DateRangeQuery,
      responses: { 200: { description: 'A page of days.', schema: ListOf(WorkSummary) } },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await listWorkSummaries(deps, tenant, {
        ...request.query,
        period: 'day',
        employee_id: employee.id,
      });
    },
  );
}
