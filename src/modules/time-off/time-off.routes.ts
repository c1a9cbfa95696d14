import type { FastifyInstance } from 'fastify';
import { IdParams, NoBody } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { PORTAL_OPERATION, requireWorker } from '../../platform/sessions.ts';
import { Absence } from '../absences/absences.schemas.ts';
import { TimeOffPreview, TimeOffQuery, TimeOffView, WorkerAbsenceBody } from './time-off.schemas.ts';
import {
  cancelWorkerAbsence,
  previewWorkerAbsence,
  requestWorkerAbsence,
  workerTimeOff,
} from './time-off.service.ts';

/** The portal's "Mis ausencias" (issue 39): the worker's balance, absences and holidays, and their requests. */
export function timeOffPortalRoutes(app: FastifyInstance, deps: AppDeps): void {
  const PREFIX = '/portal/api/absences';
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: PREFIX,
      operationId: 'portalAbsences',
      summary: 'The worker’s time off in a year (default: this one): balance, absences, holidays, types',
      scope: null,
      querystring: TimeOffQuery,
      responses: { 200: { description: 'The worker’s year.', schema: TimeOffView } },
    },
    async (request) => {
      const { tenant, employee, zone } = requireWorker(request);
      return await workerTimeOff(deps, tenant, employee.id, zone, request.query);
    },
  );
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/preview`,
      operationId: 'portalAbsencePreview',
      summary: 'What a request would count, and the vacation left after it; nothing is stored',
      scope: null,
      body: WorkerAbsenceBody,
      errors: ['conflict'],
      responses: { 200: { description: 'The count.', schema: TimeOffPreview } },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await previewWorkerAbsence(deps, tenant, employee.id, request.body);
    },
  );
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: PREFIX,
      operationId: 'portalRequestAbsence',
      summary: 'Ask for time off; the company decides',
      scope: null,
      body: WorkerAbsenceBody,
      errors: ['conflict'],
      responses: { 201: { description: 'The request.', schema: Absence } },
    },
    async (request, reply) => {
      const { tenant, employee } = requireWorker(request);
      return reply.code(201).send(await requestWorkerAbsence(deps, tenant, employee.id, request.body));
    },
  );
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/:id/cancel`,
      operationId: 'portalCancelAbsence',
      summary: 'Withdraw a request not yet decided',
      scope: null,
      params: IdParams,
      body: NoBody,
      errors: ['conflict'],
      responses: { 200: { description: 'The cancelled request.', schema: Absence } },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await cancelWorkerAbsence(deps, tenant, employee.id, request.params.id);
    },
  );
}
