import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { deprecatedUpdatedSinceHeaders, ListOf } from '../../platform/pagination.ts';
import { ListVacationBalancesQuery, VacationBalance } from './vacation-balances.schemas.ts';
import { listVacationBalances } from './vacation-balances.service.ts';

export function vacationBalancesRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/vacation-balances',
      operationId: 'listVacationBalances',
      summary: 'List vacation balances',
      description: 'One row per employee employed during the year, ordered by employee.',
      tag: 'Vacation balances',
      scope: 'org:saldos:read',
      querystring: ListVacationBalancesQuery,
      responses: { 200: { description: 'A page of vacation balances.', schema: ListOf(VacationBalance) } },
    },
    async (request, reply) => {
      reply.headers(deprecatedUpdatedSinceHeaders(request.query.updated_since));
      return await listVacationBalances(deps, requireTenant(request), request.query);
    },
  );
}
