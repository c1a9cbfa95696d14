import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import {
  CreateForceMajeureDayBody,
  ForceMajeureDay,
  ListForceMajeureDaysQuery,
} from './force-majeure.schemas.ts';
import { listForceMajeureDays, markForceMajeure, unmarkForceMajeure } from './force-majeure.ts';

/** Days whose overtime was force majeure (issue 38, ET 35.3): not counted towards the yearly cap. */
export function forceMajeureRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/force-majeure-days',
      operationId: 'listForceMajeureDays',
      summary: 'List days marked force majeure',
      tag: 'Work summaries',
      scope: 'org:fichajes:read',
      querystring: ListForceMajeureDaysQuery,
      responses: { 200: { description: 'A page of marks.', schema: ListOf(ForceMajeureDay) } },
    },
    async (request) => await listForceMajeureDays(deps, requireTenant(request), request.query),
  );
  route(
    app,
    {
      method: 'POST',
      url: '/v1/force-majeure-days',
      operationId: 'createForceMajeureDay',
      summary: 'Mark a day’s overtime force majeure',
      tag: 'Work summaries',
      scope: 'org:fichajes:write',
      body: CreateForceMajeureDayBody,
      responses: { 201: { description: 'The mark.', schema: ForceMajeureDay } },
      errors: ['conflict'],
    },
    async (request, reply) =>
      reply.code(201).send(await markForceMajeure(deps, requireTenant(request), request.body)),
  );
  route(
    app,
    {
      method: 'DELETE',
      url: '/v1/force-majeure-days/:id',
      operationId: 'deleteForceMajeureDay',
      summary: 'Remove a force majeure mark',
      tag: 'Work summaries',
      scope: 'org:fichajes:write',
      params: IdParams,
      responses: { 204: { description: 'Removed.', schema: null } },
      errors: ['conflict'],
    },
    async (request, reply) => {
      await unmarkForceMajeure(deps, requireTenant(request), request.params.id);
      return reply.code(204).send();
    },
  );
}
