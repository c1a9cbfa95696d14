import { createPublicKey, verify } from 'node:crypto';
import { Ajv } from 'ajv';
import { type Static, Type } from 'typebox';
import { tenantScopeOf } from '../../db/companies.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { ActingTenant, TenantScope } from '../../platform/tenant.ts';
import { withFormats } from '../../platform/validation.ts';
import { toDate } from '../../time/clock.ts';
import { PunchPositionBody } from '../check-ins/check-ins.schemas.ts';
import {
  type CheckInView,
  newPunchBatch,
  type PunchOrigin,
  storePunch,
} from '../check-ins/check-ins.service.ts';
import {
  identifyQueued,
  type KioskCaller,
  publicKeyOf,
  type QueuedIdentification,
} from '../kiosks/kiosks.service.ts';
import { writeDays } from '../workdays/write-days.ts';
import {
  findWorkerDevice,
  insertWorkerDevice,
  revokeOldWorkerDevices,
  sequenceGaps,
  settleSequence,
  takeSequence,
} from './offline-punches.repo.ts';

/**
 * Punches made without a connection (issue 40, decision 0030): the portal's app and a kiosk keep each punch on
 * the device, signed by the device's key, with the device's clock and a sequence number the device never reuses,
 * and send the queue when the connection returns. The service accepts each as the worker's own record, made
 * offline (`recorded_offline`, `device_time`, `received_at`), refuses a forged or replayed one, and keeps a ledger
 * of every sequence a device sent, so that a punch taken out of a queue shows as a gap.
 */

/** At most this many punches in one batch. */
export const MAX_QUEUED_PUNCHES = 1000;
/** A worker keeps this many devices able to queue punches (their phones and browsers); older ones are revoked. */
export const WORKER_DEVICES_KEPT = 5;
/** How far before its device's registration a queued punch may be stamped (the device's clock skew). */
const BEFORE_DEVICE_TOLERANCE_MS = 5 * 60_000;

/** A queued punch, as the device wrote and signed it (the text of `punch`). */
const QueuedPunchSchema = Type.Object(
  {
    device_id: Type.String({ format: 'uuid' }),
    sequence: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    type: Type.Enum(['in', 'out', 'break_start', 'break_end']),
    device_time: Type.String({ maxLength: 40 }),
    work_mode: Type.Optional(Type.Enum(['on_site', 'remote'])),
    location: Type.Optional(PunchPositionBody),
    // A kiosk's: who punched, by the PIN sealed to the service or the QR code read.
    employee_id: Type.Optional(Type.String({ format: 'uuid' })),
    pin_sealed: Type.Optional(
      Type.Object(
        {
          epk: Type.Record(Type.String(), Type.Unknown()),
          iv: Type.String({ maxLength: 64 }),
          ct: Type.String({ maxLength: 256 }),
        },
        { additionalProperties: false },
      ),
    ),
    qr: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

/**
 * Whether a parsed punch has the fields it needs: checked by Ajv, as the routes' bodies are, compiled at the first
 * queue (issue 42: TypeBox's own compiler brought ~10 MB of modules into every API process at start for this one
 * schema).
 */
let queuedPunchCheck: ((value: unknown) => boolean) | null = null;
function isQueuedPunch(value: unknown): value is Static<typeof QueuedPunchSchema> {
  queuedPunchCheck ??= withFormats(new Ajv({ strict: false })).compile(QueuedPunchSchema);
  return queuedPunchCheck(value);
}

/** One punch of a batch, as sent: the punch's JSON text and the device's signature of that text. */
export type QueuedPunchItem = { punch: string; signature: string };

/** Why a queued punch was refused: its own codes, or the code of the API error the rules gave. */
export type QueuedRefusalCode =
  | 'malformed'
  | 'bad_signature'
  | 'unknown_device'
  | 'replayed'
  | 'before_device'
  | 'unauthenticated'
  | 'rate_limited'
  | 'validation_failed'
  | 'conflict';

export type QueuedResult =
  | { index: number; sequence: number; status: 'recorded'; check_in: CheckInView }
  | { index: number; sequence: number | null; status: 'refused'; code: QueuedRefusalCode; detail: string };

type Parsed = {
  index: number;
  sequence: bigint;
  type: 'in' | 'out' | 'break_start' | 'break_end';
  deviceTime: Temporal.Instant;
  workMode: 'on_site' | 'remote' | undefined;
  location: PunchOrigin['position'];
  identification: QueuedIdentification | null;
};

const refusal = (
  parsed: { index: number; sequence: bigint | null },
  code: QueuedRefusalCode,
  detail: string,
): QueuedResult => ({
  index: parsed.index,
  sequence: parsed.sequence === null ? null : Number(parsed.sequence),
  status: 'refused',
  code,
  detail,
});

const replayed = (punch: { index: number; sequence: bigint }) =>
  refusal(punch, 'replayed', 'This device sent this punch before.');

/** A sequence's row in the device's ledger (offline_punches): taken with its outcome, or null while writing. */
const ledgerRow = (
  at: { companyId: string; deviceId: string; receivedAt: Date },
  punch: Parsed,
  employeeId: string | null,
  refusalCode: string | null,
) => ({
  company_id: at.companyId,
  device_id: at.deviceId,
  sequence: punch.sequence,
  employee_id: employeeId,
  device_time: new Date(punch.deviceTime.epochMilliseconds),
  received_at: at.receivedAt,
  refusal: refusalCode,
});

/** The text a kiosk's sealed PIN names as associated data: the punch's own fields, one per line. */
export const sealedPinContext = (punch: {
  device_id: string;
  sequence: number;
  employee_id: string;
  type: string;
  device_time: string;
}) => [punch.device_id, punch.sequence, punch.employee_id, punch.type, punch.device_time].join('\n');

/**
 * Parses and checks the signature of each punch: well formed, from `deviceId`, signed by its key (ECDSA P-256
 * with SHA-256, IEEE P1363, over the punch's text as sent). What fails here leaves no trace: a forged punch must
 * not take the sequence of a genuine one still in a queue.
 */
function parseBatch(
  items: readonly QueuedPunchItem[],
  deviceId: string,
  key: JsonWebKey,
  kiosk: boolean,
): { parsed: Parsed[]; refused: QueuedResult[] } {
  const publicKey = createPublicKey({ key, format: 'jwk' });
  const parsed: Parsed[] = [];
  const refused: QueuedResult[] = [];
  items.forEach((item, index) => {
    let value: unknown;
    try {
      value = JSON.parse(item.punch);
    } catch {
      refused.push(refusal({ index, sequence: null }, 'malformed', 'The punch is not JSON.'));
      return;
    }
    if (!isQueuedPunch(value)) {
      refused.push(
        refusal({ index, sequence: null }, 'malformed', 'The punch does not have the fields it needs.'),
      );
      return;
    }
    const sequence = BigInt(value.sequence);
    let deviceTime: Temporal.Instant;
    try {
      deviceTime = Temporal.Instant.from(value.device_time);
    } catch {
      refused.push(
        refusal({ index, sequence }, 'malformed', 'device_time is not an instant with an offset.'),
      );
      return;
    }
    let signed = false;
    try {
      signed = verify(
        'sha256',
        Buffer.from(item.punch),
        { key: publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(item.signature, 'base64url'),
      );
    } catch {
      signed = false;
    }
    if (!signed || value.device_id !== deviceId) {
      refused.push(refusal({ index, sequence }, 'bad_signature', 'The punch is not signed by this device.'));
      return;
    }
    let identification: QueuedIdentification | null = null;
    if (kiosk) {
      if (value.qr !== undefined && value.employee_id === undefined && value.pin_sealed === undefined) {
        identification = { qr: value.qr };
      } else if (
        value.qr === undefined &&
        value.employee_id !== undefined &&
        value.pin_sealed !== undefined
      ) {
        identification = {
          employee_id: value.employee_id,
          pin_sealed: value.pin_sealed,
          associated: sealedPinContext({ ...value, employee_id: value.employee_id }),
        };
      } else {
        refused.push(
          refusal(
            { index, sequence },
            'malformed',
            'A kiosk punch names its worker by a sealed PIN or a QR code.',
          ),
        );
        return;
      }
    }
    parsed.push({
      index,
      sequence,
      type: value.type,
      deviceTime: Temporal.Instant.fromEpochMilliseconds(
        Math.floor(deviceTime.epochMilliseconds / 1000) * 1000,
      ),
      workMode: value.work_mode,
      location: value.location,
      identification,
    });
  });
  parsed.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : a.index - b.index));
  return { parsed, refused };
}

/** A punch ready to write: its worker, as whom it is recorded, and where. */
type Ready = Parsed & { employeeId: string; tenant: ActingTenant; origin: PunchOrigin };

/**
 * Writes the ready punches of a device: all in one write of days when every one passes, else one by one so that
 * only the refused ones are left out (a punch reaching a closed month is refused by the owner of day writes after
 * the punches before it were written). Every sequence a signed punch used is taken, the refused ones too.
 */
async function writeQueued(
  deps: Pick<AppDeps, 'db' | 'clock' | 'lateRecordHours'>,
  scope: TenantScope,
  deviceId: string,
  source: 'portal' | 'kiosk',
  ready: readonly Ready[],
): Promise<QueuedResult[]> {
  if (ready.length === 0) return [];
  const writer = { companyId: scope.companyId, timezone: scope.timezone };
  const ledger = { companyId: scope.companyId, deviceId, receivedAt: toDate(deps.clock.now()) };
  const write = async (punches: readonly Ready[], allOrNothing: boolean) =>
    await writeDays(
      deps,
      writer,
      punches.map((punch) => punch.employeeId),
      async (tx, now) => {
        const results: QueuedResult[] = [];
        const touched = [];
        const events = [];
        const batch = newPunchBatch();
        for (const punch of punches) {
          if (!(await takeSequence(tx, ledgerRow(ledger, punch, punch.employeeId, null)))) {
            results.push(replayed(punch));
            continue;
          }
          try {
            const stored = await storePunch(
              tx,
              deps,
              punch.tenant,
              {
                employee_id: punch.employeeId,
                type: punch.type,
                timestamp: punch.deviceTime,
                work_mode: punch.workMode,
              },
              source,
              punch.origin,
              now,
              batch,
            );
            await settleSequence(tx, scope.companyId, deviceId, punch.sequence, {
              check_in_id: stored.view.id,
            });
            results.push({
              index: punch.index,
              sequence: Number(punch.sequence),
              status: 'recorded',
              check_in: stored.view,
            });
            touched.push(stored.touched);
            events.push(stored.event);
          } catch (error) {
            // A rule's refusal happens before anything is written (storePunch): the sequence stays taken.
            if (!(error instanceof ApiError) || allOrNothing) throw error;
            await settleSequence(tx, scope.companyId, deviceId, punch.sequence, { refusal: error.code });
            results.push(refusal(punch, error.code as QueuedRefusalCode, error.message));
          }
        }
        return { result: results, touched, events };
      },
      { what: 'a punch made offline' },
    );
  try {
    return await write(ready, true);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  const results: QueuedResult[] = [];
  for (const punch of ready) {
    try {
      results.push(...(await write([punch], false)));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Refused when its days were settled (a sealed day): taken, with the refusal, outside the rolled-back write.
      const taken = await takeSequence(deps.db, ledgerRow(ledger, punch, punch.employeeId, error.code));
      results.push(taken ? refusal(punch, error.code as QueuedRefusalCode, error.message) : replayed(punch));
    }
  }
  return results;
}

/** Refusals that come before the write (identification, a device time before the device): their sequences. */
async function takeRefused(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  companyId: string,
  deviceId: string,
  punches: ReadonlyArray<{ punch: Parsed; employeeId: string | null; result: QueuedResult }>,
): Promise<QueuedResult[]> {
  const ledger = { companyId, deviceId, receivedAt: toDate(deps.clock.now()) };
  const results: QueuedResult[] = [];
  for (const { punch, employeeId, result } of punches) {
    const code = result.status === 'refused' ? result.code : null;
    const taken = await takeSequence(deps.db, ledgerRow(ledger, punch, employeeId, code));
    results.push(taken ? result : replayed(punch));
  }
  return results;
}

const beforeDevice = (punch: Parsed, since: Date) =>
  punch.deviceTime.epochMilliseconds < since.getTime() - BEFORE_DEVICE_TOLERANCE_MS;

/** The batch's answer: every punch's outcome in the order sent, and the device's missing sequences. */
async function answer(
  deps: Pick<AppDeps, 'db'>,
  companyId: string,
  deviceId: string,
  results: QueuedResult[],
) {
  return {
    results: results.sort((a, b) => a.index - b.index),
    gaps: await sequenceGaps(deps.db, companyId, deviceId),
  };
}

/** The worker's phone or browser registers the key its queued punches will be signed with (portal login). */
export async function registerWorkerDevice(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  worker: { tenant: TenantScope; employeeId: string },
  input: { public_key: Record<string, unknown> },
) {
  const key = publicKeyOf(input.public_key);
  const id = newId();
  const at = toDate(deps.clock.now());
  await deps.db.transaction().execute(async (tx) => {
    await insertWorkerDevice(tx, {
      company_id: worker.tenant.companyId,
      id,
      employee_id: worker.employeeId,
      public_key: key,
      registered_at: at,
    });
    await revokeOldWorkerDevices(tx, worker.tenant.companyId, worker.employeeId, WORKER_DEVICES_KEPT, at);
  });
  return { device_id: id, registered_at: at.toISOString() };
}

/**
 * The portal's queue: punches the worker made on one of their devices without a connection, sent with their
 * session. Each is their own record (source `portal`), stamped with the device's clock.
 */
export async function receivePortalPunches(
  deps: Pick<AppDeps, 'db' | 'clock' | 'lateRecordHours'>,
  worker: { tenant: ActingTenant; employeeId: string },
  input: { device_id: string; punches: readonly QueuedPunchItem[] },
) {
  const { tenant } = worker;
  const device = await findWorkerDevice(deps.db, tenant.companyId, worker.employeeId, input.device_id);
  if (!device) {
    throw new ApiError('conflict', 'This device is not registered for you, or was replaced: log in again.', {
      errors: { device_id: 'is not a device of yours' },
    });
  }
  const { parsed, refused } = parseBatch(input.punches, device.id, device.public_key, false);
  const early = parsed.filter((punch) => beforeDevice(punch, device.registered_at));
  const ready = parsed
    .filter((punch) => !beforeDevice(punch, device.registered_at))
    .map((punch) => ({
      ...punch,
      employeeId: worker.employeeId,
      tenant,
      origin: {
        ...(punch.location !== undefined ? { position: punch.location } : {}),
        offline: { deviceId: device.id, sequence: punch.sequence },
      },
    }));
  const results = [
    ...refused,
    ...(await takeRefused(
      deps,
      tenant.companyId,
      device.id,
      early.map((punch) => ({
        punch,
        employeeId: worker.employeeId,
        result: refusal(punch, 'before_device', 'It is stamped before this device was registered.'),
      })),
    )),
    ...(await writeQueued(deps, tenant, device.id, 'portal', ready)),
  ];
  return await answer(deps, tenant.companyId, device.id, results);
}

/**
 * A kiosk's queue: punches made while it had no connection, each naming its worker by a PIN sealed to the
 * service or the QR code read, identified now under the same limits as a live attempt. Each is the worker's own
 * record (source `kiosk`, the device named), stamped with the kiosk's clock.
 */
export async function receiveKioskPunches(
  deps: Pick<AppDeps, 'db' | 'clock' | 'lateRecordHours' | 'instanceSecret'>,
  kiosk: KioskCaller,
  input: { punches: readonly QueuedPunchItem[] },
) {
  const scope = await tenantScopeOf(deps.db, kiosk.companyId);
  if (!scope) throw new ApiError('unauthenticated', 'This kiosk is not enrolled.');
  const { parsed, refused } = parseBatch(input.punches, kiosk.deviceId, kiosk.publicKey, true);
  const early = parsed.filter((punch) => beforeDevice(punch, kiosk.enrolledAt));
  const timely = parsed.filter((punch) => !beforeDevice(punch, kiosk.enrolledAt));
  const identified = await identifyQueued(
    deps,
    kiosk,
    timely.map((punch) => ({
      identification: punch.identification as QueuedIdentification,
      madeAt: new Date(punch.deviceTime.epochMilliseconds),
    })),
  );
  const ready: Ready[] = [];
  const unidentified: Array<{ punch: Parsed; employeeId: string | null; result: QueuedResult }> = early.map(
    (punch) => ({
      punch,
      employeeId: null,
      result: refusal(punch, 'before_device', 'It is stamped before this kiosk was enrolled.'),
    }),
  );
  timely.forEach((punch, at) => {
    const outcome = identified[at];
    if (!outcome) return;
    if ('refusal' in outcome) {
      unidentified.push({
        punch,
        employeeId: null,
        result: refusal(punch, outcome.refusal.code as QueuedRefusalCode, outcome.refusal.message),
      });
      return;
    }
    ready.push({
      ...punch,
      employeeId: outcome.employee.id,
      tenant: { ...scope, actor: { type: 'employee', id: outcome.employee.id } },
      origin: {
        deviceId: kiosk.deviceId,
        centreId: kiosk.locationId,
        ...(punch.location !== undefined ? { position: punch.location } : {}),
        offline: { deviceId: kiosk.deviceId, sequence: punch.sequence },
      },
    });
  });
  const results = [
    ...refused,
    ...(await takeRefused(deps, kiosk.companyId, kiosk.deviceId, unidentified)),
    ...(await writeQueued(deps, scope, kiosk.deviceId, 'kiosk', ready)),
  ];
  return await answer(deps, kiosk.companyId, kiosk.deviceId, results);
}
