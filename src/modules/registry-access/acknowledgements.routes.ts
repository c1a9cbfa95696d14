import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { PORTAL_OPERATION, requireWorker } from '../../platform/sessions.ts';
import { ApprovalToSign, SignedApprovalBody } from '../passkeys/passkeys.schemas.ts';
import { MonthParams } from '../registry/registry.schemas.ts';
import {
  acknowledgeMonth,
  acknowledgementToSign,
  workerRegistryMonth,
  workerRegistryMonthPdf,
} from './acknowledgements.service.ts';

/** A closed month in the worker's portal: their copy (day rows, totals, the PDF) and their acknowledgement. */
export function acknowledgementsPortalRoutes(app: FastifyInstance, deps: AppDeps): void {
  const PREFIX = '/portal/api';

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/registry/:month.pdf`,
      operationId: 'portalRegistryMonthPdf',
      summary: 'The worker’s copy of a closed month as the signed-off PDF document',
      scope: null,
      params: MonthParams,
      querystring: Type.Object(
        { locale: Type.Optional(Type.Enum(['es', 'en'])) },
        { additionalProperties: false },
      ),
      responses: {
        200: { description: 'The PDF.', schema: Type.String(), contentTypes: ['application/pdf'] },
      },
    },
    async (request, reply) => {
      const file = await workerRegistryMonthPdf(
        deps,
        requireWorker(request).tenant,
        request.params.month,
        request.query.locale ?? 'es',
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="registro-${request.params.month}.pdf"`)
        .send(file);
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/registry/:month`,
      operationId: 'portalRegistryMonth',
      summary: 'The worker’s copy of a closed month: day rows, totals, acknowledgement',
      scope: null,
      params: MonthParams,
      responses: {
        200: { description: 'The month.', schema: Type.Object({}, { additionalProperties: true }) },
      },
    },
    async (request) => workerRegistryMonth(deps, requireWorker(request).tenant, request.params.month),
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/registry/:month/acknowledge`,
      operationId: 'portalAcknowledgeMonth',
      summary: 'Acknowledge a closed month (once; recorded in the worker’s chain)',
      scope: null,
      params: MonthParams,
      body: SignedApprovalBody,
      responses: {
        200: {
          description: 'The acknowledgement (the first one, when repeated).',
          schema: Type.Object({
            month: Type.String(),
            acknowledged_at: Type.String(),
            version: Type.Integer(),
          }),
        },
      },
    },
    async (request) =>
      acknowledgeMonth(deps, requireWorker(request).tenant, request.params.month, request.body.assertion),
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/registry/:month/approval`,
      operationId: 'portalAcknowledgementApproval',
      summary: 'What the worker’s passkey signs to acknowledge a closed month',
      scope: null,
      params: MonthParams,
      responses: { 200: { description: 'The approval to sign.', schema: ApprovalToSign } },
    },
    async (request) => acknowledgementToSign(deps, requireWorker(request).tenant, request.params.month),
  );
}
