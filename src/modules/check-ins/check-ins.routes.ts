import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { CheckIn, CreateCheckInBody, ListCheckInsQuery } from './check-ins.schemas.ts';
import { getCheckIn, listCheckIns, recordCheckIn } from './check-ins.service.ts';

const tag = 'Check-ins';

export function checkInsRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url: '/v1/check-ins',
    tag,
    scope: 'org:fichajes:read',
    item: CheckIn,
    querystring: ListCheckInsQuery,
    noun: { one: 'check-in', many: 'check-ins' },
    listDescription:
      'Ordered by (updated_at, id), the sync order. With from/to and no updated_since the order is the timeline: by timestamp. `from` is inclusive, `to` exclusive.',
    list: (tenant, query) => listCheckIns(deps, tenant, query),
    get: (tenant, id) => getCheckIn(deps, tenant, id),
  });

  route(
    app,
    {
      method: 'POST',
      url: '/v1/check-ins',
      operationId: 'createCheckIn',
      summary: 'Record a check-in',
      description:
        'Check-ins are immutable. Out-of-order and late (offline) check-ins are accepted; an exact duplicate of the same employee, type and timestamp is 422. A check-in whose local day is in a closed month is 409 conflict (`errors.closed_month`): the change goes through a correction. Send an Idempotency-Key to retry safely. Emits `checkin.created`.',
      tag,
      scope: 'org:fichajes:write',
      body: CreateCheckInBody,
      responses: { 201: { description: 'The recorded check-in.', schema: CheckIn } },
      errors: ['conflict'],
    },
    async (request, reply) => {
      const checkIn = await recordCheckIn(deps, requireTenant(request), request.body);
      return reply.code(201).send(checkIn);
    },
  );
}
