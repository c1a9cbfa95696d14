import type { FastifyInstance } from 'fastify';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { CreateUnitBody, ListUnitsQuery, Unit } from './units.schemas.ts';
import { createUnit, getUnit, listUnits } from './units.service.ts';

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

/** The operator's: create an organisational unit. */
export function unitsAdminRoutes(app: FastifyInstance, deps: AppDeps): void {
  const CompanyParams = IdParams;
  route(
    app,
    {
      ...ADMIN_OPERATION,
      method: 'POST',
      url: '/admin/v1/companies/:id/units',
      operationId: 'adminCreateUnit',
      summary: 'Create a unit in a company or sandbox',
      params: CompanyParams,
      body: CreateUnitBody,
      responses: { 201: { description: 'The unit.', schema: Unit } },
    },
    async (request, reply) =>
      reply.code(201).send(await createUnit(deps, { companyId: request.params.id }, request.body)),
  );
}
