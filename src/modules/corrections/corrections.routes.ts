import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams, NoBody } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf, PageQuery } from '../../platform/pagination.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import { PORTAL_OPERATION, requireWorker } from '../../platform/sessions.ts';
import { ApprovalToSign, SignedApprovalBody } from '../passkeys/passkeys.schemas.ts';
import {
  CORRECTION_STATUSES,
  Correction,
  CreateCorrectionBody,
  ListCorrectionsQuery,
  RejectCorrectionBody,
  SignedWorkerCorrectionBody,
  WorkerCorrectionBody,
} from './corrections.schemas.ts';
import {
  approveCorrection,
  correctionRequestToSign,
  correctionToSign,
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
        'The only way a recorded check-in changes: a correction voids active check-ins of one employee and adds new ones, with a reason. It changes nothing until the company approves it (`…/approve`) and the worker accepts it in the portal; then it applies at once, in a closed month too. Every step enters the employee’s registry chain. Emits `check_in_correction.requested`.',
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
        'Records the company’s approval. If the worker has accepted it, the correction is applied at once (check-ins voided and added, days recomputed, `check_in_correction.applied` and `checkin.created` emitted). A correction already decided, or already approved by the company, is 409 `conflict`; so is one that can no longer apply (a check-in it voids was voided meanwhile), which then stays pending.',
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

const PortalCorrectionsQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(Type.Enum(CORRECTION_STATUSES)) },
  { additionalProperties: false },
);

/** The corrections of the worker's own record in the portal: theirs to request, accept or reject. */
export function correctionsPortalRoutes(app: FastifyInstance, deps: AppDeps): void {
  const PREFIX = '/portal/api';

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/corrections`,
      operationId: 'portalCorrections',
      summary: 'The corrections of the worker’s record',
      scope: null,
      querystring: PortalCorrectionsQuery,
      responses: { 200: { description: 'A page of corrections.', schema: ListOf(Correction) } },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await listCorrections(deps, tenant, { ...request.query, employee_id: employee.id });
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/corrections`,
      operationId: 'portalRequestCorrection',
      summary: 'Ask the company to correct the worker’s record (the worker’s approval is given)',
      scope: null,
      body: SignedWorkerCorrectionBody,
      responses: { 201: { description: 'The pending correction.', schema: Correction } },
    },
    async (request, reply) => {
      const { tenant, employee } = requireWorker(request);
      const { assertion, ...body } = request.body;
      const correction = await requestCorrection(
        deps,
        tenant,
        { ...body, employee_id: employee.id },
        assertion,
      );
      return reply.code(201).send(correction);
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/corrections/approval`,
      operationId: 'portalCorrectionRequestApproval',
      summary:
        'What the worker’s passkey signs to request a correction (the request is the worker’s approval)',
      scope: null,
      body: WorkerCorrectionBody,
      responses: { 200: { description: 'The approval to sign.', schema: ApprovalToSign } },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await correctionRequestToSign(deps, tenant, { ...request.body, employee_id: employee.id });
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/corrections/:id`,
      operationId: 'portalGetCorrection',
      summary: 'One correction of the worker’s record',
      scope: null,
      params: IdParams,
      responses: { 200: { description: 'The correction.', schema: Correction } },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await getCorrection(deps, tenant, request.params.id, { employeeId: employee.id });
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/corrections/:id/accept`,
      operationId: 'portalAcceptCorrection',
      summary: 'Give the worker’s approval to a correction (applied if the company approved it too)',
      scope: null,
      params: IdParams,
      body: SignedApprovalBody,
      errors: ['conflict'],
      responses: { 200: { description: 'The correction.', schema: Correction } },
    },
    async (request) =>
      approveCorrection(deps, requireWorker(request).tenant, request.params.id, request.body.assertion),
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/corrections/:id/approval`,
      operationId: 'portalCorrectionApproval',
      summary: 'What the worker’s passkey signs to accept a correction (the approval and WebAuthn options)',
      scope: null,
      params: IdParams,
      responses: { 200: { description: 'The approval to sign.', schema: ApprovalToSign } },
    },
    async (request) => correctionToSign(deps, requireWorker(request).tenant, request.params.id),
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/corrections/:id/reject`,
      operationId: 'portalRejectCorrection',
      summary: 'Reject a correction of the worker’s record, with a reason',
      scope: null,
      params: IdParams,
      body: RejectCorrectionBody,
      errors: ['conflict'],
      responses: { 200: { description: 'The rejected correction.', schema: Correction } },
    },
    async (request) =>
      rejectCorrection(deps, requireWorker(request).tenant, request.params.id, request.body.reason),
  );
}
