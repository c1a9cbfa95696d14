import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../platform/deps.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { ListUnitsQuery, Unit } from './units.schemas.ts';
import { getUnit, listUnits } from './units.service.ts';

export function unitsRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url: '/v1/units',
    tag: 'Organization structure',
    scope: 'org:empleados:read',
    item: Unit,
    querystring: ListUnitsQuery,
    noun: { one: 'unit', many: 'units' },
    list: (tenant, query) => listUnits(deps, tenant, query),
    get: (tenant, id) => getUnit(deps, tenant, id),
  });
}
