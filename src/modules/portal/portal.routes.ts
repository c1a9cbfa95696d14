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
    url: Type.Optional(Type.String({ description: 'The link for the worker; absent when emailed.' })),
    expires_at: Instant('7 days after it was made.'),
    emailed: Type.Boolean({ description: "Whether the link went to the employee's email." }),
    kind: Type.Enum(['invitation', 'reset'], {
      type: 'string',
      description: 'reset: the worker had a login; their sessions ended and their password stopped working.',
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
        'A single-use link, valid 7 days, with which the worker sets a portal password. For a worker who has a login it is a reset: their sessions end, their password stops working, and their documents print the reset. With mail (JORNADA_SMTP_URL) the link goes to the worker only; else it is in the answer, never replayed for an Idempotency-Key.',
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
