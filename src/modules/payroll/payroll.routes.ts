import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import {
  CreatePayrollConceptMapBody,
  ListPayrollConceptMapsQuery,
  PayrollConceptMap,
  UpdatePayrollConceptMapBody,
} from './payroll.schemas.ts';
import {
  createConceptMap,
  deleteConceptMap,
  getConceptMap,
  listConceptMaps,
  updateConceptMap,
} from './payroll.service.ts';

const tag = 'Payroll';
const url = '/v1/payroll/concept-maps';

/** Concept maps (issue 41): how the payroll_variables report is laid out for the company's payroll program. */
export function payrollRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url,
    tag,
    scope: 'org:informes:read',
    item: PayrollConceptMap,
    querystring: ListPayrollConceptMapsQuery,
    noun: { one: 'payroll concept map', many: 'payroll concept maps' },
    list: (tenant, query) => listConceptMaps(deps, tenant, query),
    get: (tenant, id) => getConceptMap(deps, tenant, id),
  });
  route(
    app,
    {
      method: 'POST',
      url,
      operationId: 'createPayrollConceptMap',
      summary: 'Create a payroll concept map',
      description:
        'Your payroll codes, worker identifier and columns for the `payroll_variables` report. Absence codes must name absence types the company has (422).',
      tag,
      scope: 'org:nomina:write',
      body: CreatePayrollConceptMapBody,
      responses: { 201: { description: 'Created.', schema: PayrollConceptMap } },
    },
    async (request, reply) =>
      reply.code(201).send(await createConceptMap(deps, requireTenant(request), request.body)),
  );
  route(
    app,
    {
      method: 'PATCH',
      url: `${url}/:id`,
      operationId: 'updatePayrollConceptMap',
      summary: 'Change a payroll concept map',
      tag,
      scope: 'org:nomina:write',
      params: IdParams,
      body: UpdatePayrollConceptMapBody,
      responses: { 200: { description: 'The map as changed.', schema: PayrollConceptMap } },
    },
    async (request) => updateConceptMap(deps, requireTenant(request), request.params.id, request.body),
  );
  route(
    app,
    {
      method: 'DELETE',
      url: `${url}/:id`,
      operationId: 'deletePayrollConceptMap',
      summary: 'Delete a payroll concept map',
      description: 'A report requested with it and not yet generated then fails.',
      tag,
      scope: 'org:nomina:write',
      params: IdParams,
      responses: { 204: { description: 'Deleted.', schema: null } },
    },
    async (request, reply) => {
      await deleteConceptMap(deps, requireTenant(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
