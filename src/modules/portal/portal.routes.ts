import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams, Instant, NoBody, named } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import {
  clearSessionCookie,
  PORTAL_OPERATION,
  requireWorker,
  requireWorkerSession,
  type SessionCookie,
  sessionCredential,
  sessionGate,
  setSessionCookie,
} from '../../platform/sessions.ts';
import { LoginBody } from '../admins/admins.schemas.ts';
import { canClock, latestCheckIn, openShiftOf } from '../check-ins/check-ins.service.ts';
import { punchCaptureOf } from '../locations/locations.service.ts';
import { throttledLogin } from '../logins/logins.service.ts';
import { passkeyRoutes } from '../passkeys/passkeys.routes.ts';
import { credentialResetsOf } from '../registry/registry.service.ts';
import { AcceptInvitationBody, MeView, PortalSessionView } from './portal.schemas.ts';
import {
  acceptInvitation,
  actingWorker,
  endPortalSession,
  findPortalSession,
  inviteWorker,
  loginWorker,
  loginWorkerWithPasskey,
  PORTAL_SESSION_COOKIE,
  PORTAL_SESSION_SECONDS,
} from './portal.service.ts';

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

/** The portal's session cookie: HttpOnly, SameSite=Strict, for /portal alone, 12 hours. */
export const PORTAL_SESSION: SessionCookie = {
  name: PORTAL_SESSION_COOKIE,
  path: '/portal',
  maxAgeSeconds: PORTAL_SESSION_SECONDS,
};

/**
 * The portal surface's gate for /portal/api (but its logins): the session, the CSRF token on writes, the
 * worker's per-minute window; then the worker the request acts as (their company as the tenant, the worker as
 * its actor, their time zone). The employee id never comes from the request.
 */
export function portalGate(deps: AppDeps) {
  const gate = sessionGate(deps, PORTAL_SESSION, 'portal', (token) =>
    findPortalSession(deps.db, deps.clock, token),
  );
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.url.startsWith('/portal/api/')) return;
    const session = await gate(request);
    if (!session) return;
    request.portalSession = session;
    request.worker = await actingWorker(deps.db, session);
  };
}

/** The portal's own operations: accepting a link, logging in and out, the worker, the worker's passkeys. */
export function portalRoutes(app: FastifyInstance, deps: AppDeps): void {
  const PREFIX = '/portal/api';
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/invitations/accept`,
      operationId: 'portalAcceptInvitation',
      summary: 'Set a password with an invitation link’s token; opens a session',
      scope: 'public',
      body: AcceptInvitationBody,
      errors: ['conflict'],
      responses: { 200: { description: 'The session.', schema: PortalSessionView } },
    },
    async (request, reply) => {
      const { token, session } = await acceptInvitation(deps, request.body);
      setSessionCookie(deps, request, reply, PORTAL_SESSION, token);
      return { csrf_token: session.csrf_token };
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/login`,
      operationId: 'portalLogin',
      summary: 'Log in with email and password; sets the session cookie',
      scope: 'public',
      body: LoginBody,
      responses: { 200: { description: 'The session.', schema: PortalSessionView } },
    },
    async (request, reply) => {
      const attempt = { email: request.body.email, ip: request.ip };
      const opened = await throttledLogin(deps.db, deps.clock, attempt, () =>
        loginWorker(deps, request.body),
      );
      setSessionCookie(deps, request, reply, PORTAL_SESSION, opened.token);
      return { csrf_token: opened.session.csrf_token };
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: `${PREFIX}/logout`,
      operationId: 'portalLogout',
      summary: 'End the session',
      scope: null,
      responses: { 204: { description: 'Logged out.', schema: null } },
    },
    async (request, reply) => {
      await endPortalSession(deps.db, requireWorkerSession(request));
      clearSessionCookie(reply, PORTAL_SESSION);
      return reply.code(204).send();
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/me`,
      operationId: 'portalMe',
      summary: 'The worker, their company, where their day stands, and the CSRF token',
      scope: null,
      responses: { 200: { description: 'The worker.', schema: MeView } },
    },
    async (request) => {
      const { session, tenant, companyName, employee, zone } = requireWorker(request);
      return {
        employee: {
          id: employee.id,
          first_name: employee.first_name,
          last_name: employee.last_name,
          email: employee.email,
          status: employee.status,
          hire_date: employee.hire_date,
          termination_date: employee.termination_date,
          timezone: zone,
          can_clock: canClock(employee, zone, deps.clock.now()),
        },
        company: { name: companyName },
        last_check_in: await latestCheckIn(deps, tenant, employee.id),
        open_shift: await openShiftOf(deps, tenant, employee.id, zone),
        // Every reset of the worker's login by the company (issue 35): the worker sees who could have acted.
        access_resets: (await credentialResetsOf(deps.db, tenant.companyId, employee.id)).map((reset) => ({
          at: reset.at.toISOString(),
          by_type: reset.by.type,
        })),
        // Whether the worker's work centre asks for the position at the punch (docs/privacy.md).
        ...(await punchCaptureOf(deps.db, tenant.companyId, employee.location_id)),
        csrf_token: session.csrf_token,
      };
    },
  );

  passkeyRoutes(app, deps, {
    audience: 'portal',
    prefix: PREFIX,
    operation: PORTAL_OPERATION,
    idPrefix: 'portal',
    owner: async (request) => {
      const { tenant, employee } = requireWorker(request);
      return { companyId: tenant.companyId, type: 'employee', id: employee.id, userName: employee.email };
    },
    credential: (request) => {
      const session = requireWorkerSession(request);
      return sessionCredential(session, PORTAL_SESSION_SECONDS);
    },
    signIn: async (request, reply, response) => {
      const opened = await loginWorkerWithPasskey(deps, response);
      setSessionCookie(deps, request, reply, PORTAL_SESSION, opened.token);
      return { csrf_token: opened.session.csrf_token };
    },
    sessionSchema: PortalSessionView,
  });
}
