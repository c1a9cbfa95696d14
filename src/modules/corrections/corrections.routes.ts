import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams, NoBody } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import {
  Correction,
  CreateCorrectionBody,
  ListCorrectionsQuery,
  RejectCorrectionBody,
} from './corrections.schemas.ts';
import {
  approveCorrection,
  getCorrection,
  listCorrections,
  rejectCorrection,
  requestCorrection,
} from './corrections.service.ts';

const tag = 'Check-ins';

export function correctionsRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url: '/v1/check-in-corrections',
    tag,
    scope: 'org:fichajes:read',
    item: Correction,
    querystring: ListCorrectionsQuery,
    noun: { one: 'check-in correction', many: 'check-in corrections' },
    listDescription:
      'Ordered by (updated_at, id), the sync order; each approval or decision moves updated_at.',
    list: (tenant, query) => listCorrections(deps, tenant, query),
    get: (tenant, id) => getCorrection(deps, tenant, id),
  });

  route(
    app,
    {
      method: 'POST',
      url: '/v1/check-in-corrections',
      operationId: 'createCheckInCorrection',
      summary: 'Request a correction of check-ins',
      description:
        'The only way a recorded check-in changes: a correction voids active check-ins of one employee and adds new ones, with a reason. It stays `pending`, changing nothing, until the company approves it (`…/approve`) and the worker accepts it in the portal; then it is applied at once, also inside a closed month. Every step enters the employee’s registry chain. Send an Idempotency-Key to retry safely. Emits `check_in_correction.requested`.',
      tag,
      scope: 'org:fichajes:write',
      body: CreateCorrectionBody,
      responses: { 201: { description: 'The pending correction.', schema: Correction } },
    },
    async (request, reply) => {
      const correction = await requestCorrection(deps, requireTenant(request), request.body);
      return reply.code(201).send(correction);
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: '/v1/check-in-corrections/:id/approve',
      operationId: 'approveCheckInCorrection',
      summary: 'Approve a correction for the company',
      description:
        'Records the company’s approval (`company_approval`). If the worker has accepted it already, the correction is applied in the same request: its check-ins are voided and added, the days re-computed, and `check_in_correction.applied` and `checkin.created` emitted. A correction already decided, or already approved by the company, is 409 `conflict`; so is one that can no longer apply (a check-in it voids was voided meanwhile), which then stays pending.',
      tag,
      scope: 'org:fichajes:write',
      params: IdParams,
      body: NoBody,
      responses: { 200: { description: 'The correction.', schema: Correction } },
      errors: ['conflict'],
    },
    async (request) => approveCorrection(deps, requireTenant(request), request.params.id),
  );

  route(
    app,
    {
      method: 'POST',
      url: '/v1/check-in-corrections/:id/reject',
      operationId: 'rejectCheckInCorrection',
      summary: 'Reject a correction',
      description:
        'Ends a pending correction as `rejected`, with the reason, and emits `check_in_correction.rejected`. Nothing in the record changes. A decided correction is 409 `conflict`.',
      tag,
      scope: 'org:fichajes:write',
      params: IdParams,
      body: RejectCorrectionBody,
      responses: { 200: { description: 'The rejected correction.', schema: Correction } },
      errors: ['conflict'],
    },
    async (request) => rejectCorrection(deps, requireTenant(request), request.params.id, request.body.reason),
  );
}
