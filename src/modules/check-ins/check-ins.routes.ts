import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { CheckIn, CreateCheckInBody, ListCheckInsQuery } from './check-ins.schemas.ts';
import { getCheckIn, listCheckIns, recordCheckIn } from './check-ins.service.ts';

const tag = 'Check-ins';

export function checkInsRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/check-ins',
      operationId: 'listCheckIns',
      summary: 'List check-ins',
      description:
        'Ordered by (updated_at, id), the sync order. With from/to and no updated_since the order is the timeline: by timestamp. `from` is inclusive, `to` exclusive.',
      tag,
      scope: 'org:fichajes:read',
      querystring: ListCheckInsQuery,
      responses: { 200: { description: 'A page of check-ins.', schema: ListOf(CheckIn) } },
    },
    async (request) => listCheckIns(deps.db, deps.cursors, requireTenant(request).companyId, request.query),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/v1/check-ins/:id',
      operationId: 'getCheckIn',
      summary: 'Get a check-in',
      tag,
      scope: 'org:fichajes:read',
      params: IdParams,
      responses: { 200: { description: 'The check-in.', schema: CheckIn } },
    },
    async (request) => getCheckIn(deps.db, requireTenant(request).companyId, request.params.id),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/v1/check-ins',
      operationId: 'createCheckIn',
      summary: 'Record a check-in',
      description:
        'Check-ins are immutable. Out-of-order and late (offline) check-ins are accepted; an exact duplicate of the same employee, type and timestamp is 422. Send an Idempotency-Key to retry safely. Emits `checkin.created`.',
      tag,
      scope: 'org:fichajes:write',
      body: CreateCheckInBody,
      responses: { 201: { description: 'The recorded check-in.', schema: CheckIn } },
    },
    async (request, reply) => {
      const checkIn = await recordCheckIn(deps.db, deps.clock, requireTenant(request), request.body);
      return reply.code(201).send(checkIn);
    },
  );
}
