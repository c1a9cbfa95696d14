import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf, PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { AbsenceTypeRef } from '../absence-types/absence-types.schemas.ts';
import { listAbsenceTypesPage } from '../absence-types/absence-types.service.ts';
import {
  Absence,
  CreateAbsenceBody,
  ListAbsencesQuery,
  NoBody,
  RejectAbsenceBody,
} from './absences.schemas.ts';
import {
  type AbsenceDecision,
  decideAbsence,
  getAbsence,
  listAbsences,
  requestAbsence,
} from './absences.service.ts';

const tag = 'Absences';

const DECISIONS: Array<{
  decision: AbsenceDecision;
  operationId: string;
  summary: string;
  description: string;
}> = [
  {
    decision: 'approve',
    operationId: 'approveAbsence',
    summary: 'Approve an absence',
    description:
      'Moves a requested absence to approved and emits `absence.approved` (and `vacation_balance.updated` for a vacation). An absence already decided is 409 conflict, and nothing changes; so is one whose dates touch a closed month (`errors.closed_month`).',
  },
  {
    decision: 'reject',
    operationId: 'rejectAbsence',
    summary: 'Reject an absence',
    description:
      'Moves a requested absence to denied, with the optional `denial_reason`, and emits `absence.denied`. An absence already decided is 409 conflict.',
  },
  {
    decision: 'cancel',
    operationId: 'cancelAbsence',
    summary: 'Cancel an absence',
    description:
      'Moves a requested or approved absence to cancelled and emits `absence.cancelled`. A denied or cancelled absence is 409 conflict, as is an approved one touching a closed month.',
  },
];

export function absencesRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'GET',
      url: '/v1/absence-types',
      operationId: 'listAbsenceTypes',
      summary: 'List absence types',
      description: 'The built-in `vacation` and `sick_leave`, and the company’s custom types.',
      tag,
      scope: 'org:ausencias:read',
      querystring: Type.Object({ ...PageQuery, ...UpdatedSinceQuery }, { additionalProperties: false }),
      responses: { 200: { description: 'A page of absence types.', schema: ListOf(AbsenceTypeRef) } },
    },
    async (request) => listAbsenceTypesPage(deps, requireTenant(request), request.query),
  );

  readRoutes(app, {
    url: '/v1/absences',
    tag,
    scope: 'org:ausencias:read',
    item: Absence,
    querystring: ListAbsencesQuery,
    noun: { one: 'absence', many: 'absences', article: 'an' },
    listDescription:
      'With `from` and `to`, the absences that overlap the range, in any status or the one given: `status=approved&from=…&to=…` gives the approved absences overlapping it.',
    list: (tenant, query) => listAbsences(deps, tenant, query),
    get: (tenant, id) => getAbsence(deps, tenant, id),
  });

  route(
    app,
    {
      method: 'POST',
      url: '/v1/absences',
      operationId: 'createAbsence',
      summary: 'Request an absence',
      description:
        'Creates an absence in status `requested` and emits `absence.requested` (and `vacation_balance.updated` for a vacation). An overlap with another requested or approved absence of the employee is 409 conflict.',
      tag,
      scope: 'org:ausencias:write',
      body: CreateAbsenceBody,
      responses: { 201: { description: 'The requested absence.', schema: Absence } },
      errors: ['conflict'],
    },
    async (request, reply) => {
      const absence = await requestAbsence(deps, requireTenant(request), request.body);
      return reply.code(201).send(absence);
    },
  );

  for (const { decision, operationId, summary, description } of DECISIONS) {
    route(
      app,
      {
        method: 'POST',
        url: `/v1/absences/:id/${decision}`,
        operationId,
        summary,
        description,
        tag,
        scope: 'org:ausencias:write',
        params: IdParams,
        body: decision === 'reject' ? RejectAbsenceBody : NoBody,
        responses: { 200: { description: 'The absence.', schema: Absence } },
        errors: ['conflict'],
      },
      async (request) =>
        decideAbsence(
          deps,
          requireTenant(request),
          request.params.id,
          decision,
          request.body as { reason?: string },
        ),
    );
  }
}
