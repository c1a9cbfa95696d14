import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams, Instant, NoBody, named } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { inviteWorker } from './portal.service.ts';

export const PortalInvitation = named(
  'PortalInvitation',
  Type.Object({
    url: Type.String({
      description: 'The single-use link to give the worker: `<public URL>/portal/invitation?token=…`.',
    }),
    expires_at: Instant('7 days after it was made.'),
    emailed: Type.Boolean({
      description: "Whether the link was also emailed to the employee's address (the service sends mail).",
    }),
  }),
);

export function portalInvitationRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      method: 'POST',
      url: '/v1/employees/:id/portal-invitation',
      operationId: 'createPortalInvitation',
      summary: 'Invite an employee to the workers’ portal',
      description:
        'Makes a single-use link, valid 7 days, with which the worker sets a password for the portal (where they clock in and out and see their own registry). The employee’s earlier unused links stop working. When the service sends mail (JORNADA_SMTP_URL) the link is emailed too; otherwise give it to the worker. The answer holds a secret: it is never replayed for an Idempotency-Key.',
      tag: 'Employees',
      scope: 'org:empleados:write',
      params: IdParams,
      body: NoBody,
      idempotency: 'never',
      responses: { 201: { description: 'The invitation link.', schema: PortalInvitation } },
    },
    async (request, reply) =>
      reply.code(201).send(await inviteWorker(deps, requireTenant(request), request.params.id)),
  );
}
