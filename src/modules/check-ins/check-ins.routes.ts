import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { route } from '../../platform/operation.ts';
import { DateRangeQuery, ListOf } from '../../platform/pagination.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { PORTAL_OPERATION, requireWorker } from '../../platform/sessions.ts';
import { formatInstant } from '../../time/clock.ts';
import { startOfDate } from '../../time/zones.ts';
import { ApprovalToSign, AuthenticationResponse, SignedApprovalBody } from '../passkeys/passkeys.schemas.ts';
import {
  CheckIn,
  CheckInType,
  CreateCheckInBody,
  ListCheckInsQuery,
  PunchPositionBody,
  WorkMode,
} from './check-ins.schemas.ts';
import {
  answerCheckIn,
  canClock,
  checkInAnswerToSign,
  getCheckIn,
  listCheckIns,
  listUnansweredCheckIns,
  recordCheckIn,
} from './check-ins.service.ts';

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
        'Check-ins are immutable. Out-of-order and late (offline) check-ins are accepted; an exact duplicate of the same employee, type and timestamp is 422. A check-in whose local day is in a closed month is 409 conflict (`errors.closed_month`): the change goes through a correction. Emits `checkin.created`.',
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

const PortalCheckInBody = Type.Object(
  {
    type: CheckInType,
    work_mode: Type.Optional(WorkMode),
    location: Type.Optional(PunchPositionBody),
  },
  { additionalProperties: false },
);

/** A rejection of a record someone else made: the reason, and the passkey's signature when the worker has one. */
const SignedRejectBody = Type.Object(
  {
    reason: Type.String({ minLength: 1, maxLength: 500 }),
    assertion: Type.Optional(AuthenticationResponse),
  },
  { additionalProperties: false },
);

const CheckInAnswerBody = Type.Object(
  {
    response: Type.Union([Type.Literal('accepted'), Type.Literal('rejected')]),
    reason: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

/** The worker's own check-ins in the portal: clocking now, reading them, answering records others made. */
export function checkInsPortalRoutes(app: FastifyInstance, deps: AppDeps): void {
  const PREFIX = '/portal/api';
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/check-ins`,
      operationId: 'portalCreateCheckIn',
      summary: 'Clock in, out or a break, now',
      description:
        'Recorded at the service’s clock, with source `portal` and the worker as recorded_by; the rules of `POST /v1/check-ins` apply. A worker whose employment has ended reads their records but cannot clock (409).',
      scope: null,
      body: PortalCheckInBody,
      errors: ['conflict'],
      responses: { 201: { description: 'The check-in.', schema: CheckIn } },
    },
    async (request, reply) => {
      const { tenant, employee, zone } = requireWorker(request);
      const now = deps.clock.now();
      if (!canClock(employee, zone, now)) {
        throw new ApiError('conflict', 'Your employment has ended: your records stay readable here.', {
          errors: { termination_date: employee.termination_date ?? '' },
        });
      }
      const checkIn = await recordCheckIn(
        deps,
        tenant,
        {
          employee_id: employee.id,
          type: request.body.type,
          timestamp: formatInstant(new Date(now.epochMilliseconds)),
          ...(request.body.work_mode ? { work_mode: request.body.work_mode } : {}),
        },
        'portal',
        request.body.location === undefined ? {} : { position: request.body.location },
      );
      return reply.code(201).send(checkIn);
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/check-ins`,
      operationId: 'portalCheckIns',
      summary: 'The worker’s own check-ins, voided ones included, in time order',
      scope: null,
      querystring: DateRangeQuery,
      responses: { 200: { description: 'A page of check-ins.', schema: ListOf(CheckIn) } },
    },
    async (request) => {
      const { tenant, employee, zone } = requireWorker(request);
      const { from, to, limit, cursor } = request.query;
      const end = Temporal.PlainDate.from(to).add({ days: 1 }).toString();
      return await listCheckIns(deps, tenant, {
        employee_id: employee.id,
        from: startOfDate(from, zone).toString(),
        to: startOfDate(end, zone).toString(),
        status: 'all',
        limit: limit ?? 100,
        cursor,
      });
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/check-ins/unanswered`,
      operationId: 'portalUnansweredCheckIns',
      summary:
        'Check-ins someone else recorded for the worker, waiting for the worker to accept or reject them',
      scope: null,
      responses: {
        200: {
          description: 'The check-ins, oldest first.',
          schema: Type.Object({ data: Type.Array(CheckIn) }),
        },
      },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await listUnansweredCheckIns(deps, tenant, employee.id);
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/check-ins/:id/accept`,
      operationId: 'portalAcceptCheckIn',
      summary: 'Accept a check-in someone else recorded for the worker',
      scope: null,
      params: IdParams,
      body: Type.Optional(SignedApprovalBody),
      errors: ['conflict'],
      responses: { 200: { description: 'The check-in with the answer.', schema: CheckIn } },
    },
    async (request) =>
      answerCheckIn(
        deps,
        requireWorker(request).tenant,
        request.params.id,
        { response: 'accepted' },
        request.body?.assertion,
      ),
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/check-ins/:id/approval`,
      operationId: 'portalCheckInAnswerApproval',
      summary: 'What the worker’s passkey signs to accept or reject a record someone else made',
      scope: null,
      params: IdParams,
      body: CheckInAnswerBody,
      responses: { 200: { description: 'The approval to sign.', schema: ApprovalToSign } },
    },
    async (request) =>
      checkInAnswerToSign(deps, requireWorker(request).tenant, request.params.id, request.body),
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/check-ins/:id/reject`,
      operationId: 'portalRejectCheckIn',
      summary: 'Reject (dispute) a check-in someone else recorded for the worker, with a reason',
      scope: null,
      params: IdParams,
      body: SignedRejectBody,
      errors: ['conflict'],
      responses: { 200: { description: 'The check-in with the answer.', schema: CheckIn } },
    },
    async (request) =>
      answerCheckIn(
        deps,
        requireWorker(request).tenant,
        request.params.id,
        { response: 'rejected', reason: request.body.reason },
        request.body.assertion,
      ),
  );
}
