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
    list: (companyId, query) => listUnits(deps.db, deps.cursors, companyId, query),
    get: (companyId, id) => getUnit(deps.db, companyId, id),
  });
}
