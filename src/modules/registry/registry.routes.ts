import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { NoBody } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { closeMonth, listClosedMonths } from './months.service.ts';
import { ClosedMonth, ListClosedMonthsQuery, MonthParams } from './registry.schemas.ts';

const tag = 'Time registry';

export function registryRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'POST',
      url: '/v1/registry/months/:month/close',
      operationId: 'closeRegistryMonth',
      summary: 'Close a month of the time registry',
      description:
        'Closes a month (YYYY-MM) that has ended in the company zone (else 422), once (else 409): nothing but a correction changes its figures from then on, and its documents are sealed. Until 2027-11-30 `org:fichajes:write` works too, with Deprecation and Sunset.',
      tag,
      scope: 'org:registro:write',
      legacyScope: 'org:fichajes:write',
      params: MonthParams,
      body: NoBody,
      responses: { 200: { description: 'The closed month.', schema: ClosedMonth } },
      errors: ['conflict'],
    },
    async (request) => closeMonth(deps, requireTenant(request), request.params.month),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/v1/registry/months',
      operationId: 'listClosedRegistryMonths',
      summary: 'List closed months',
      description: 'The closed months of the time registry, newest first.',
      tag,
      scope: 'org:fichajes:read',
      querystring: ListClosedMonthsQuery,
      responses: { 200: { description: 'A page of closed months.', schema: ListOf(ClosedMonth) } },
    },
    async (request) => listClosedMonths(deps, requireTenant(request), request.query),
  );
}
