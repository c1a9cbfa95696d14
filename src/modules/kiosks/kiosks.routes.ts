import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Instant, Nullable, Uuid } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid } from '../../platform/errors.ts';
import { route } from '../../platform/operation.ts';
import {
  DASHBOARD_OPERATION,
  PORTAL_OPERATION,
  requireSession,
  requireWorker,
} from '../../platform/sessions.ts';
import { CheckIn, CheckInType, PunchPositionBody } from '../check-ins/check-ins.schemas.ts';
import {
  createDevice,
  enrollKiosk,
  identifyOnKiosk,
  type KioskCaller,
  kioskCode,
  kioskInfo,
  kioskPinState,
  kioskWorkers,
  listDevices,
  punchOnKiosk,
  revokeKioskDevice,
  setKioskPin,
  verifyKioskRequest,
} from './kiosks.service.ts';

const KIOSK_DEVICE_FIELDS = {
  id: Uuid(),
  name: Type.String(),
  location: Type.Object({ id: Uuid(), name: Type.String() }),
  status: Type.Enum(['pending', 'active', 'revoked'], {
    type: 'string',
    description: '`pending` until the tablet enrolls with its code; `revoked` refuses every request.',
  }),
  enrollment_expires_at: Nullable(Instant('Until when the code can be used (pending devices).')),
  enrolled_at: Nullable(Instant()),
  last_seen_at: Nullable(Instant('The last signed request.')),
  revoked_at: Nullable(Instant()),
  created_at: Instant(),
};
const KioskDevice = Type.Object(KIOSK_DEVICE_FIELDS);

const DeviceIdParams = Type.Object({ deviceId: Uuid() }, { additionalProperties: false });

/** The company's kiosks in the dashboard: enroll one for a work centre, list them, revoke one. */
export function kiosksDashboardRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'GET',
      url: '/dashboard/api/kiosk-devices',
      operationId: 'dashboardListKioskDevices',
      summary: 'The company’s kiosks, newest first',
      scope: null,
      responses: {
        200: { description: 'The kiosks.', schema: Type.Object({ data: Type.Array(KioskDevice) }) },
      },
    },
    async (request) => await listDevices(deps, { companyId: requireSession(request).company_id }),
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'POST',
      url: '/dashboard/api/kiosk-devices',
      operationId: 'dashboardCreateKioskDevice',
      summary: 'A kiosk for a work centre, and the one-time code to type on its tablet (valid 15 minutes)',
      scope: null,
      body: Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 100 }),
          location_id: Uuid('A work centre of the company.'),
        },
        { additionalProperties: false },
      ),
      responses: {
        201: {
          description: 'The kiosk, pending, with its enrollment code (shown this once).',
          schema: Type.Object({ ...KIOSK_DEVICE_FIELDS, enrollment_code: Type.String() }),
        },
      },
    },
    async (request, reply) => {
      const session = requireSession(request);
      const device = await createDevice(
        deps,
        { companyId: session.company_id, actor: { type: 'admin', id: session.admin_id } },
        request.body,
      );
      return reply.code(201).send(device);
    },
  );
  route(
    app,
    {
      ...DASHBOARD_OPERATION,
      method: 'DELETE',
      url: '/dashboard/api/kiosk-devices/:deviceId',
      operationId: 'dashboardRevokeKioskDevice',
      summary: 'Revoke a kiosk: its next request is refused; its punches stay in the registry',
      scope: null,
      params: DeviceIdParams,
      responses: { 204: { description: 'Revoked.', schema: null } },
    },
    async (request, reply) => {
      await revokeKioskDevice(
        deps,
        { companyId: requireSession(request).company_id },
        request.params.deviceId,
      );
      return reply.code(204).send();
    },
  );
}

const PinState = Type.Object({
  pin_set: Type.Boolean({ description: 'Whether the worker has a kiosk PIN (never the PIN itself).' }),
  updated_at: Type.Optional(Instant()),
});

/** The worker's kiosk PIN and QR code in the portal: whether a PIN is set, setting it, the code of the moment. */
export function kiosksPortalRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: '/portal/api/kiosk-code',
      operationId: 'portalKioskCode',
      summary: 'The worker’s QR code for a kiosk: valid this 30-second window, used once',
      scope: null,
      responses: {
        200: {
          description: 'The code to draw as a QR code, and when it stops being valid.',
          schema: Type.Object({ code: Type.String(), expires_at: Instant() }),
        },
      },
    },
    async (request, reply) => {
      const { tenant, employee } = requireWorker(request);
      reply.header('cache-control', 'no-store');
      return kioskCode(deps, tenant, employee.id);
    },
  );
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'GET',
      url: '/portal/api/kiosk-pin',
      operationId: 'portalKioskPin',
      summary: 'Whether the worker has a kiosk PIN',
      scope: null,
      responses: { 200: { description: 'The PIN’s state.', schema: PinState } },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await kioskPinState(deps, tenant, employee.id);
    },
  );
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: '/portal/api/kiosk-pin',
      operationId: 'portalSetKioskPin',
      summary: 'Set or change the worker’s kiosk PIN (6 digits; the company never sees it)',
      scope: null,
      body: Type.Object({ pin: Type.String({ maxLength: 32 }) }, { additionalProperties: false }),
      responses: { 200: { description: 'Set.', schema: PinState } },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await setKioskPin(deps, tenant, employee.id, request.body.pin);
    },
  );
}

export const KIOSK_OPERATION = { tag: 'Kiosk', surface: 'kiosk', scope: null } as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The kiosk a signed request came from (set by the kiosk surface's gate). */
    kiosk: KioskCaller | null;
    /** The request's body as it arrived (kiosk requests only): what the device signed. */
    kioskBody: string;
  }
}

/** The one kiosk operation that is not signed: a tablet enrolls before the service knows its key. */
const UNSIGNED = new Set(['/kiosk/api/enroll']);

/**
 * The kiosk surface's gate (decision 0029): keeps each JSON body's bytes as sent (what the device signed) beside
 * the parsed value, and checks every request but the enrollment after its body is read and before anything else
 * runs: `Kiosk-Device`, `Kiosk-Counter` and `Kiosk-Signature`. The device's company is the only tenant a request
 * reaches.
 */
export function kioskGate(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('kiosk', null);
  app.decorateRequest('kioskBody', '');
  app.removeContentTypeParser('application/json');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.kioskBody = body as string;
    if ((body as string).trim() === '') return done(null, undefined);
    void parseJson(request, body as string, done);
  });
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const path = request.url.split('?')[0] ?? request.url;
    // The page, its manifest, icon and service worker are not the API.
    if (!path.startsWith('/kiosk/api/') || UNSIGNED.has(path)) return;
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : '';
    };
    const deviceId = header('kiosk-device');
    if (deviceId === '')
      throw new ApiError('unauthenticated', 'This request is not signed by an enrolled kiosk.');
    request.kiosk = await verifyKioskRequest(deps, {
      deviceId,
      counter: header('kiosk-counter'),
      signature: header('kiosk-signature'),
      method: request.method,
      url: request.url,
      body: request.kioskBody,
    });
  });
}

export function requireKiosk(request: FastifyRequest): KioskCaller {
  if (!request.kiosk)
    throw new ApiError('unauthenticated', 'This request is not signed by an enrolled kiosk.');
  return request.kiosk;
}

const WorkerState = {
  status: Type.Enum(['out', 'working', 'on_break'], { type: 'string' }),
  since: Nullable(Instant('The latest record’s time.')),
  actions: Type.Array(CheckInType, { description: 'What the worker may record now.' }),
};

/** The kiosk's own API (/kiosk/api): enrollment, then signed requests only (the kiosk surface checks them). */
export function kiosksKioskRoutes(app: FastifyInstance, deps: AppDeps): void {
  const Info = Type.Object({
    device_id: Uuid(),
    name: Type.String(),
    location: Type.Object({ id: Uuid(), name: Type.String() }),
    company: Type.Object({ name: Type.String() }),
    location_capture: Type.Enum(['off', 'at_punch'], {
      type: 'string',
      description:
        'Whether the work centre asks for the position at the punch: the kiosk then sends the tablet’s, after the notice (docs/privacy.md).',
    }),
    pin_seal_key: Type.Object(
      { kty: Type.String(), crv: Type.String(), x: Type.String(), y: Type.String() },
      {
        description:
          'The service’s ECDH P-256 public key (JWK) that a PIN typed without a connection is sealed to (decision 0029).',
      },
    ),
  });
  route(
    app,
    {
      ...KIOSK_OPERATION,
      method: 'POST',
      url: '/kiosk/api/enroll',
      operationId: 'kioskEnroll',
      summary: 'Enroll this tablet with the code from the dashboard and its public key (ECDSA P-256, JWK)',
      body: Type.Object(
        {
          code: Type.String({ maxLength: 20 }),
          public_key: Type.Record(Type.String(), Type.Unknown(), {
            description: 'A JWK: kty EC, crv P-256.',
          }),
        },
        { additionalProperties: false },
      ),
      responses: { 200: { description: 'The kiosk.', schema: Info } },
    },
    async (request) => await enrollKiosk(deps, request.body),
  );
  route(
    app,
    {
      ...KIOSK_OPERATION,
      method: 'GET',
      url: '/kiosk/api/device',
      operationId: 'kioskDevice',
      summary: 'This kiosk: its name, work centre and company',
      responses: { 200: { description: 'The kiosk.', schema: Info } },
    },
    async (request) => await kioskInfo(deps, requireKiosk(request)),
  );
  route(
    app,
    {
      ...KIOSK_OPERATION,
      method: 'GET',
      url: '/kiosk/api/workers',
      operationId: 'kioskWorkers',
      summary: 'Who clocks on this kiosk: the active employees of its work centre, by name',
      responses: {
        200: {
          description: 'The workers.',
          schema: Type.Object({
            data: Type.Array(
              Type.Object({ id: Uuid(), first_name: Type.String(), last_name: Type.String() }),
            ),
          }),
        },
      },
    },
    async (request) => await kioskWorkers(deps, requireKiosk(request)),
  );
  route(
    app,
    {
      ...KIOSK_OPERATION,
      method: 'POST',
      url: '/kiosk/api/identify',
      operationId: 'kioskIdentify',
      summary:
        'A worker identifies with their PIN or their portal’s QR code: their name, state, and a ticket for one punch within a minute',
      body: Type.Object(
        {
          employee_id: Type.Optional(Uuid('With `pin`: the worker chosen from the list.')),
          pin: Type.Optional(Type.String({ maxLength: 32 })),
          qr: Type.Optional(
            Type.String({ maxLength: 200, description: 'Instead: the portal’s QR code, as read.' }),
          ),
        },
        { additionalProperties: false },
      ),
      errors: ['rate_limited'],
      responses: {
        200: {
          description: 'The worker, identified.',
          schema: Type.Object({
            worker: Type.Object({ id: Uuid(), first_name: Type.String(), last_name: Type.String() }),
            ...WorkerState,
            ticket: Uuid(),
            ticket_expires_at: Instant(),
          }),
        },
      },
    },
    async (request) => {
      const { employee_id, pin, qr } = request.body;
      if (qr !== undefined && employee_id === undefined && pin === undefined) {
        return await identifyOnKiosk(deps, requireKiosk(request), { qr });
      }
      if (qr === undefined && employee_id !== undefined && pin !== undefined) {
        return await identifyOnKiosk(deps, requireKiosk(request), { employee_id, pin });
      }
      throw invalid({ qr: 'or employee_id and pin are required, not both' });
    },
  );
  route(
    app,
    {
      ...KIOSK_OPERATION,
      method: 'POST',
      url: '/kiosk/api/check-ins',
      operationId: 'kioskCreateCheckIn',
      summary: 'The identified worker clocks in, out or a break, now',
      body: Type.Object(
        { ticket: Uuid(), type: CheckInType, location: Type.Optional(PunchPositionBody) },
        { additionalProperties: false },
      ),
      errors: ['conflict'],
      responses: { 201: { description: 'The check-in.', schema: CheckIn } },
    },
    async (request, reply) =>
      reply.code(201).send(await punchOnKiosk(deps, requireKiosk(request), request.body)),
  );
}
