import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { ListLocationsQuery, Location } from './locations.schemas.ts';
import { getLocation, listLocations } from './locations.service.ts';

export function locationsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/locations',
      operationId: 'listLocations',
      summary: 'List locations',
      tag: 'Organization structure',
      scope: 'org:empleados:read',
      querystring: ListLocationsQuery,
      responses: { 200: { description: 'A page of locations.', schema: ListOf(Location) } },
    },
    async (request) => listLocations(deps.db, deps.cursors, requireTenant(request).companyId, request.query),
  );
  route(
    app,
    {
      method: 'GET',
      url: '/v1/locations/:id',
      operationId: 'getLocation',
      summary: 'Get a location',
      tag: 'Organization structure',
      scope: 'org:empleados:read',
      params: IdParams,
      responses: { 200: { description: 'The location.', schema: Location } },
    },
    async (request) => getLocation(deps.db, requireTenant(request).companyId, request.params.id),
  );
}
