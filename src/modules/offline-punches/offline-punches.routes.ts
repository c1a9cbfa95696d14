import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Instant, Uuid } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { PORTAL_OPERATION, requireWorker } from '../../platform/sessions.ts';
import { CheckIn } from '../check-ins/check-ins.schemas.ts';
import { KIOSK_OPERATION, requireKiosk } from '../kiosks/kiosks.routes.ts';
import {
  MAX_QUEUED_PUNCHES,
  receiveKioskPunches,
  receivePortalPunches,
  registerWorkerDevice,
} from './offline-punches.service.ts';

const QueuedPunches = Type.Array(
  Type.Object(
    {
      punch: Type.String({
        maxLength: 2_000,
        description:
          'The punch as the device wrote it, JSON: device_id, sequence (from 1, never reused), type, device_time (an instant with an offset), optional work_mode and location; on a kiosk also employee_id with pin_sealed, or qr (decision 0030).',
      }),
      signature: Type.String({
        maxLength: 200,
        description: 'ECDSA P-256 with SHA-256 (IEEE P1363, base64url) of `punch`, by the device’s key.',
      }),
    },
    { additionalProperties: false },
  ),
  { minItems: 1, maxItems: MAX_QUEUED_PUNCHES },
);

const QueuedOutcome = Type.Object({
  results: Type.Array(
    Type.Union([
      Type.Object({
        index: Type.Integer({ description: 'The punch’s place in the request.' }),
        sequence: Type.Integer(),
        status: Type.Literal('recorded'),
        check_in: CheckIn,
      }),
      Type.Object({
        index: Type.Integer(),
        sequence: Type.Union([Type.Integer(), Type.Null()]),
        status: Type.Literal('refused'),
        code: Type.String({
          description:
            '`malformed`, `bad_signature`, `replayed` (sent before), `before_device` (stamped before the device was registered), `unauthenticated` (a wrong PIN or QR code), `rate_limited`, `validation_failed` or `conflict` (the rules of every check-in). Extensible.',
        }),
        detail: Type.String(),
      }),
    ]),
    { description: 'One per punch sent, in the order sent.' },
  ),
  gaps: Type.Array(Type.Object({ from: Type.Integer(), to: Type.Integer() }), {
    description: 'The sequences this device never sent below its highest: punches missing from its queue.',
  }),
});

/** The portal's offline punches: the worker's device registers its key, then sends its queue. */
export function offlinePunchesPortalRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: '/portal/api/devices',
      operationId: 'portalRegisterDevice',
      summary: 'Register this phone’s or browser’s key, to sign the punches it keeps while offline',
      scope: null,
      body: Type.Object(
        {
          public_key: Type.Record(Type.String(), Type.Unknown(), {
            description: 'The public part of an ECDSA P-256 key (JWK), made non-extractable on the device.',
          }),
        },
        { additionalProperties: false },
      ),
      responses: {
        201: {
          description: 'The device.',
          schema: Type.Object({ device_id: Uuid(), registered_at: Instant() }),
        },
      },
    },
    async (request, reply) => {
      const { tenant, employee } = requireWorker(request);
      const device = await registerWorkerDevice(deps, { tenant, employeeId: employee.id }, request.body);
      return reply.code(201).send(device);
    },
  );
  route(
    app,
    {
      ...PORTAL_OPERATION,
      method: 'POST',
      url: '/portal/api/check-ins/batch',
      operationId: 'portalCreateCheckInBatch',
      summary: 'Send the punches this device kept while offline',
      description:
        'Each punch is the worker’s own record, stamped with the device’s clock (`recorded_offline`, `device_time`), unless refused: each is answered on its own.',
      scope: null,
      body: Type.Object({ device_id: Uuid(), punches: QueuedPunches }, { additionalProperties: false }),
      errors: ['conflict'],
      responses: { 200: { description: 'Each punch’s outcome.', schema: QueuedOutcome } },
    },
    async (request) => {
      const { tenant, employee } = requireWorker(request);
      return await receivePortalPunches(deps, { tenant, employeeId: employee.id }, request.body);
    },
  );
}

/** A kiosk's offline punches: the queue it kept while it had no connection. */
export function offlinePunchesKioskRoutes(app: FastifyInstance, deps: AppDeps): void {
  route(
    app,
    {
      ...KIOSK_OPERATION,
      method: 'POST',
      url: '/kiosk/api/check-ins/batch',
      operationId: 'kioskCreateCheckInBatch',
      summary: 'Send the punches this kiosk kept while offline',
      description:
        'Each names its worker by a PIN sealed to the service’s key (`pin_seal_key`) or the QR code read, checked now under the limits of a live attempt.',
      body: Type.Object({ punches: QueuedPunches }, { additionalProperties: false }),
      responses: { 200: { description: 'Each punch’s outcome.', schema: QueuedOutcome } },
    },
    async (request) => await receiveKioskPunches(deps, requireKiosk(request), request.body),
  );
}
