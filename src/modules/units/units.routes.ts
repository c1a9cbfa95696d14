import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { IdParams, Uuid } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ADMIN_OPERATION, route } from '../../platform/operation.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { DASHBOARD_OPERATION, requireSession } from '../../platform/sessions.ts';
import { CreateUnitBody, ListUnitsQuery, Unit, UpdateUnitBody } from './units.schemas.ts';
import { createUnit, getUnit, listUnits, updateUnit } from './units.service.ts';

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

/** The dashboard's units (issue 39): an HR administrator creates and changes them in Settings. */
export function unitsDashboardRoutes(api: FastifyInstance, deps: AppDeps): void {
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/dashboard/api/units',
      operationId: 'dashboardCreateUnit',
      summary: 'Create a unit of the company (a team, a department), under another or at the top',
      scope: null,
      body: CreateUnitBody,
      responses: { 201: { description: 'The unit.', schema: Unit } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await createUnit(deps, { companyId: requireSession(request).company_id }, request.body)),
  );
  route(
    api,
    {
      ...DASHBOARD_OPERATION,
      method: 'PATCH',
      url: '/dashboard/api/units/:unitId',
      operationId: 'dashboardUpdateUnit',
      summary:
        'Rename a unit, move it under another (never under itself or a unit below it), or change its centre',
      scope: null,
      params: Type.Object({ unitId: Uuid() }, { additionalProperties: false }),
      body: UpdateUnitBody,
      responses: { 200: { description: 'The unit.', schema: Unit } },
    },
    async (request) =>
      await updateUnit(
        deps,
        { companyId: requireSession(request).company_id },
        request.params.unitId,
        request.body,
      ),
  );
}
