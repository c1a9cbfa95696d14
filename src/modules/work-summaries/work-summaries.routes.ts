import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { deprecatedUpdatedSinceHeaders, ListOf } from '../../platform/pagination.ts';
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
        'Closed-workday aggregates per employee and day or calendar month, ordered by employee and period. Days not yet closed and incomplete days are left out of the minute fields (see incomplete_days). Data of the current day is never included; close payroll on completed periods. The rules are in docs/time-rules.md.',
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
