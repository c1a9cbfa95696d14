import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { DASHBOARD_OPERATION } from '../../platform/sessions.ts';
import { AbsenceTypeRef, CreateAbsenceTypeBody } from './absence-types.schemas.ts';
import { createAbsenceType } from './absence-types.service.ts';

/** The dashboard's: add an absence type (live or test). */
export function absenceTypesDashboardRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  mode: 'live' | 'test',
): void {
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/absence-types',
      operationId: `dashboard${mode}CreateAbsenceType`,
      summary: 'Add an absence type (a key and a label)',
      scope: null,
      body: CreateAbsenceTypeBody,
      responses: { 201: { description: 'The absence type.', schema: AbsenceTypeRef } },
    },
    async (request, reply) => {
      reply.code(201);
      return await createAbsenceType(deps, requireTenant(request), request.body);
    },
  );
}
