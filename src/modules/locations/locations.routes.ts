import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../platform/deps.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { ListLocationsQuery, Location } from './locations.schemas.ts';
import { getLocation, listLocations } from './locations.service.ts';

export function locationsRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url: '/v1/locations',
    tag: 'Organization structure',
    scope: 'org:empleados:read',
    item: Location,
    querystring: ListLocationsQuery,
    noun: { one: 'location', many: 'locations' },
    list: (tenant, query) => listLocations(deps, tenant, query),
    get: (tenant, id) => getLocation(deps, tenant, id),
  });
}
