import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { registerPortalPage } from '../dashboard/static.ts';
import { LoginBody } from '../modules/admins/admins.schemas.ts';
import { CheckIn } from '../modules/check-ins/check-ins.schemas.ts';
import {
  answerCheckIn,
  checkInAnswerToSign,
  latestCheckIn,
  listCheckIns,
  listUnansweredCheckIns,
  recordCheckIn,
} from '../modules/check-ins/check-ins.service.ts';
import {
  Correction,
  RejectCorrectionBody,
  SignedWorkerCorrectionBody,
  WorkerCorrectionBody,
} from '../modules/corrections/corrections.schemas.ts';
import {
  approveCorrection,
  correctionRequestToSign,
  correctionToSign,
  getCorrection,
  listCorrections,
  rejectCorrection,
  requestCorrection,
} from '../modules/corrections/corrections.service.ts';
import { findEmployee } from '../modules/employees/employees.service.ts';
import { throttledLogin } from '../modules/logins/logins.service.ts';
import { passkeyRoutes } from '../modules/passkeys/passkeys.routes.ts';
import {
  ApprovalToSign,
  AuthenticationResponse,
  SignedApprovalBody,
} from '../modules/passkeys/passkeys.schemas.ts';
import {
  acceptInvitation,
  endPortalSession,
  findPortalSession,
  loginWorker,
  loginWorkerWithPasskey,
  PORTAL_SESSION_COOKIE,
  PORTAL_SESSION_SECONDS,
  type PortalSession,
  sessionCredential,
  workerTenant,
} from '../modules/portal/portal.service.ts';
import { MonthParams } from '../modules/registry/registry.schemas.ts';
import { credentialResetsOf } from '../modules/registry/registry.service.ts';
import {
  acknowledgeMonth,
  acknowledgementToSign,
  workerRegistryMonth,
  workerRegistryMonthPdf,
} from '../modules/registry-access/acknowledgements.service.ts';
import { WorkSummary } from '../modules/work-summaries/work-summaries.schemas.ts';
import { listWorkSummaries } from '../modules/work-summaries/work-summaries.service.ts';
import { IdParams } from '../platform/common.schemas.ts';
import type { AppDeps } from '../platform/deps.ts';
import { ApiError, notFound } from '../platform/errors.ts';
import { route } from '../platform/operation.ts';
import { ListOf } from '../platform/pagination.ts';
import { admitSession, secureCookies } from '../platform/session-gate.ts';
import type { ActingTenant } from '../platform/tenant.ts';
import { formatInstant } from '../time/clock.ts';
import { employeeTimeZone, localDate, startOfDate } from '../time/zones.ts';
import {
  AcceptInvitationBody,
  DateRangeQuery,
  MeView,
  PORTAL_OPERATION,
  PortalCheckInBody,
  PortalCorrectionsQuery,
  PortalSessionView,
} from './portal.schemas.ts';

declare module 'fastify' {
  interface FastifyRequest {
    portalSession: PortalSession | null;
  }
}

const PREFIX = '/portal/api';

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

function worker(request: FastifyRequest): PortalSession {
  if (!request.portalSession) throw new ApiError('unauthenticated', 'Log in to the portal first.');
  return request.portalSession;
}

/**
 * The workers' portal (docs/registry.md): the page at /portal and its JSON API at /portal/api, like the
 * dashboard's: an HttpOnly, SameSite=Strict session cookie (path /portal), X-CSRF-Token on every state-changing
 * call, a per-session rate window, and throttled logins. A session acts as its employee, on that employee's
 * data alone: the employee id never comes from the request.
 */
export async function portalPlugin(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await app.register(fastifyCookie);
  app.decorateRequest('portalSession', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith(`${PREFIX}/`)) return;
    if (request.routeOptions.config.access?.scope === 'public') return;
    const token = request.cookies[PORTAL_SESSION_COOKIE];
    const session = token ? await findPortalSession(deps.db, deps.clock, token) : null;
    request.portalSession = await admitSession(deps, request, session, 'portal');
  });

  const setSession = (request: FastifyRequest, reply: FastifyReply, token: string) =>
    reply.setCookie(PORTAL_SESSION_COOKIE, token, {
      path: '/portal',
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookies(deps, request),
      maxAge: PORTAL_SESSION_SECONDS,
    });

  const actingAs = async (request: FastifyRequest) => {
    const session = worker(request);
    const { tenant, companyName } = await workerTenant(deps.db, session);
    const employee = await findEmployee(deps.db, tenant.companyId, session.employee_id);
    if (!employee) throw notFound('Employee');
    return { session, tenant, companyName, employee, zone: employeeTimeZone(employee, tenant.timezone) };
  };

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
      setSession(request, reply, token);
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
      setSession(request, reply, opened.token);
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
      await endPortalSession(deps.db, worker(request));
      reply.clearCookie(PORTAL_SESSION_COOKIE, { path: '/portal' });
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
      const { session, tenant, companyName, employee, zone } = await actingAs(request);
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
        // Every reset of the worker's login by the company (issue 35): the worker sees who could have acted.
        access_resets: (await credentialResetsOf(deps.db, tenant.companyId, employee.id)).map((reset) => ({
          at: reset.at.toISOString(),
          by_type: reset.by.type,
        })),
        csrf_token: session.csrf_token,
      };
    },
  );

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
      const { tenant, employee, zone } = await actingAs(request);
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
      );
      return reply.code(201).send(checkIn);
    },
  );

  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: `${PREFIX}/days`,
      operationId: 'portalDays',
      summary: 'The worker’s own day figures',
      scope: null,
      querystring: DateRangeQuery,
      responses: { 200: { description: 'A page of days.', schema: ListOf(WorkSummary) } },
    },
    async (request) => {
      const { tenant, employee } = await actingAs(request);
      return await listWorkSummaries(deps, tenant, {
        ...request.query,
        period: 'day',
        employee_id: employee.id,
      });
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
      const { tenant, employee, zone } = await actingAs(request);
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
      url: `${PREFIX}/corrections`,
      operationId: 'portalCorrections',
      summary: 'The corrections of the worker’s record',
      scope: null,
      querystring: PortalCorrectionsQuery,
      responses: { 200: { description: 'A page of corrections.', schema: ListOf(Correction) } },
    },
    async (request) => {
      const { tenant, employee } = await actingAs(request);
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
      const { tenant, employee } = await actingAs(request);
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
      const { tenant, employee } = await actingAs(request);
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
      const { tenant, employee } = await actingAs(request);
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
      approveCorrection(deps, await tenantOf(request), request.params.id, request.body.assertion),
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
    async (request) => correctionToSign(deps, await tenantOf(request), request.params.id),
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
    async (request) => acknowledgementToSign(deps, await tenantOf(request), request.params.month),
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
      rejectCorrection(deps, await tenantOf(request), request.params.id, request.body.reason),
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
      const { tenant, employee } = await actingAs(request);
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
        await tenantOf(request),
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
    async (request) => checkInAnswerToSign(deps, await tenantOf(request), request.params.id, request.body),
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
        await tenantOf(request),
        request.params.id,
        { response: 'rejected', reason: request.body.reason },
        request.body.assertion,
      ),
  );

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
        await tenantOf(request),
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
    async (request) => workerRegistryMonth(deps, await tenantOf(request), request.params.month),
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
      acknowledgeMonth(deps, await tenantOf(request), request.params.month, request.body.assertion),
  );

  passkeyRoutes(app, deps, {
    audience: 'portal',
    prefix: PREFIX,
    operation: PORTAL_OPERATION,
    idPrefix: 'portal',
    owner: async (request) => {
      const { tenant, employee } = await actingAs(request);
      return { companyId: tenant.companyId, type: 'employee', id: employee.id, userName: employee.email };
    },
    credential: (request) => sessionCredential(worker(request)),
    signIn: async (request, reply, response) => {
      const opened = await loginWorkerWithPasskey(deps, response);
      setSession(request, reply, opened.token);
      return { csrf_token: opened.session.csrf_token };
    },
    sessionSchema: PortalSessionView,
  });

  const tenantOf = async (request: FastifyRequest): Promise<ActingTenant> => (await actingAs(request)).tenant;

  registerPortalPage(app);
}

/** A worker clocks until the end of the last day of the employment (in their time zone). */
function canClock(
  employee: { termination_date: string | null },
  zone: string,
  now: Temporal.Instant,
): boolean {
  return employee.termination_date === null || localDate(now, zone).toString() <= employee.termination_date;
}
