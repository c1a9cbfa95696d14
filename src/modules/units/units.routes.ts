import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { ListUnitsQuery, Unit } from './units.schemas.ts';
import { getUnit, listUnits } from './units.service.ts';

export function unitsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/units',
      operationId: 'listUnits',
      summary: 'List units',
      tag: 'Organization structure',
      scope: 'org:empleados:read',
      querystring: ListUnitsQuery,
      responses: { 200: { description: 'A page of units.', schema: ListOf(Unit) } },
    },
    async (request) => listUnits(deps.db, deps.cursors, requireTenant(request).companyId, request.query),
  );
  route(
    app,
    {
      method: 'GET',
      url: '/v1/units/:id',
      operationId: 'getUnit',
      summary: 'Get a unit',
      tag: 'Organization structure',
      scope: 'org:empleados:read',
      params: IdParams,
      responses: { 200: { description: 'The unit.', schema: Unit } },
    },
    async (request) => getUnit(deps.db, requireTenant(request).companyId, request.params.id),
  );
}
