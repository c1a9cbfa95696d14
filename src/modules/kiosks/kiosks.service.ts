import {
  createDecipheriv,
  createECDH,
  createHash,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  hkdfSync,
  type KeyObject,
  randomInt,
  verify,
} from 'node:crypto';
import { tenantScopeOf } from '../../db/companies.ts';
import type { Executor } from '../../db/database.ts';
import { keep } from '../../platform/bounded-cache.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { deriveKey, hmac, safeEqual } from '../../platform/secrets.ts';
import type { ActingTenant, CompanyScope, TenantScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { employeeTimeZone } from '../../time/zones.ts';
import type { CheckInView } from '../check-ins/check-ins.service.ts';
import { canClock, latestCheckIn, recordCheckIn } from '../check-ins/check-ins.service.ts';
import { type EmployeeRow, findEmployee } from '../employees/employees.service.ts';
import { locationExists, type PunchPosition } from '../locations/locations.service.ts';
import {
  type DeviceRow,
  enrollDevice,
  findDevice,
  findDeviceById,
  findPin,
  insertDevice,
  insertTicket,
  lockDeviceFailures,
  revokeDevice,
  selectDevices,
  selectLocationWorkers,
  setDeviceFailures,
  setPinFailures,
  takeCounterOfDevice,
  upsertPin,
  useQrWindow,
  useTicket,
} from './kiosks.repo.ts';

/**
 * Shared kiosks (issue 40, docs/kiosk.md): a tablet at a work centre's door on which the workers there clock in
 * and out, each identified by a personal PIN that only the worker knows. The company enrolls the tablet with a
 * one-time code; the tablet then signs every request with a key that never leaves it. A punch on a kiosk is the
 * worker's own record (`source: "kiosk"`, the worker as `recorded_by`, the device named), made at the service's
 * clock.
 */

/** How long an enrollment code may be used. */
export const ENROLLMENT_MINUTES = 15;
/** How long a worker identified on a kiosk has to choose what to record. */
export const TICKET_SECONDS = 60;
/** Wrong PINs allowed for one worker, and on one device, within the window; then the next attempt waits. */
export const PIN_FAILURES_PER_WORKER = 5;
export const PIN_FAILURES_PER_DEVICE = 20;
export const PIN_FAILURE_WINDOW_MINUTES = 15;
const ENROLLMENT_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export type KioskDeviceView = {
  id: string;
  name: string;
  location: { id: string; name: string };
  status: 'pending' | 'active' | 'revoked';
  enrollment_expires_at: string | null;
  enrolled_at: string | null;
  last_seen_at: string | null;
  revoked_at: string | null;
  created_at: string;
};

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

const toView = (row: DeviceRow): KioskDeviceView => ({
  id: row.id,
  name: row.name,
  location: { id: row.location_id, name: row.location_name },
  status: row.revoked_at !== null ? 'revoked' : row.enrolled_at !== null ? 'active' : 'pending',
  enrollment_expires_at: row.enrolled_at === null ? iso(row.enrollment_expires_at) : null,
  enrolled_at: iso(row.enrolled_at),
  last_seen_at: iso(row.last_seen_at),
  revoked_at: iso(row.revoked_at),
  created_at: row.created_at.toISOString(),
});

/** An enrollment code, as typed on the tablet: 8 letters and digits without look-alikes, shown as XXXX-XXXX. */
function newEnrollmentCode(): string {
  let code = '';
  for (let i = 0; i < 8; i += 1) code += ENROLLMENT_CODE_ALPHABET[randomInt(ENROLLMENT_CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The code as stored: its SHA-256, whatever case and separators it was typed with. */
const codeHash = (code: string) =>
  createHash('sha256')
    .update(code.toUpperCase().replace(/[^A-Z0-9]/g, ''))
    .digest();

export async function listDevices(deps: Pick<AppDeps, 'db'>, tenant: CompanyScope) {
  return { data: (await selectDevices(deps.db, tenant.companyId)).map(toView) };
}

/** A new device for a work centre, waiting for its tablet: the code to type there, shown once. */
export async function createDevice(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope & Pick<ActingTenant, 'actor'>,
  input: { name: string; location_id: string },
): Promise<KioskDeviceView & { enrollment_code: string }> {
  const name = input.name.trim();
  if (name === '') throw invalid({ name: 'must not be empty' });
  if (!(await locationExists(deps.db, tenant.companyId, input.location_id))) {
    throw invalid({ location_id: 'is not a work centre of this company' });
  }
  const now = deps.clock.now();
  const code = newEnrollmentCode();
  const id = newId();
  await insertDevice(deps.db, {
    company_id: tenant.companyId,
    id,
    name,
    location_id: input.location_id,
    enrollment_code_sha256: codeHash(code),
    enrollment_expires_at: toDate(now.add({ minutes: ENROLLMENT_MINUTES })),
    public_key: null,
    enrolled_at: null,
    last_seen_at: null,
    revoked_at: null,
    pin_failures_since: null,
    created_by: tenant.actor.id,
    created_at: toDate(now),
  });
  const row = await findDevice(deps.db, tenant.companyId, id);
  if (!row) throw notFound('Kiosk device');
  return { ...toView(row), enrollment_code: code };
}

export async function revokeKioskDevice(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  id: string,
): Promise<void> {
  if (!(await revokeDevice(deps.db, tenant.companyId, id, toDate(deps.clock.now())))) {
    throw notFound('Kiosk device');
  }
}

/** The public key a tablet registers: ECDSA on P-256, as WebCrypto exports it (JWK), public part only. */
export function publicKeyOf(jwk: Record<string, unknown>): JsonWebKey {
  const { kty, crv, x, y } = jwk;
  if (kty !== 'EC' || crv !== 'P-256' || typeof x !== 'string' || typeof y !== 'string' || 'd' in jwk) {
    throw invalid({ public_key: 'must be the public part of an ECDSA P-256 key, as a JWK' });
  }
  const key = { kty, crv, x, y };
  try {
    createPublicKey({ key, format: 'jwk' });
  } catch {
    throw invalid({ public_key: 'is not a valid P-256 point' });
  }
  return key;
}

/** A tablet enrolls with its code: its public key is stored, the code is spent. */
export async function enrollKiosk(
  deps: Pick<AppDeps, 'db' | 'clock' | 'instanceSecret'>,
  input: { code: string; public_key: Record<string, unknown> },
) {
  const key = publicKeyOf(input.public_key);
  const device = await enrollDevice(deps.db, codeHash(input.code), key, toDate(deps.clock.now()));
  if (!device) {
    throw new ApiError('unauthenticated', 'This enrollment code is unknown, used or expired.', {
      errors: { code: 'is unknown, used or expired: make a new one in the dashboard' },
    });
  }
  return await kioskInfo(deps, { companyId: device.company_id, deviceId: device.id });
}

/**
 * A kiosk, as a signed request proved it: its company, itself and its work centre; and, read with it, the key its
 * queued punches are signed with and since when it is enrolled (offline-punches.service).
 */
export type KioskCaller = {
  companyId: string;
  deviceId: string;
  locationId: string;
  publicKey: JsonWebKey;
  enrolledAt: Date;
};

/**
 * The text a kiosk signs for a request: method, path with its query, the counter, and the body's SHA-256
 * (base64url; of the empty string when there is none), one per line.
 */
export function kioskSigningText(method: string, url: string, counter: string, body: string): string {
  const digest = createHash('sha256').update(body).digest('base64url');
  return `${method.toUpperCase()}\n${url}\n${counter}\n${digest}`;
}

/** Device keys imported on this node, by device id (platform/bounded-cache.ts). */
const deviceKeys = new Map<string, { jwk: string; key: KeyObject }>();

const refused = () =>
  new ApiError(
    'unauthenticated',
    'This kiosk is not enrolled, was revoked, or the request is not signed by it.',
  );

/**
 * Checks a kiosk's signed request: the device exists, is enrolled and not revoked, the signature (ECDSA P-256
 * with SHA-256, IEEE P1363 as WebCrypto makes it) verifies with its key, and the counter is above every counter it
 * used before (a request seen once is refused again). Every refusal is the same 401.
 */
export async function verifyKioskRequest(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  request: {
    deviceId: string;
    counter: string;
    signature: string;
    method: string;
    url: string;
    body: string;
  },
): Promise<KioskCaller> {
  if (!/^[0-9]{1,18}$/.test(request.counter) || !/^[0-9a-f-]{36}$/.test(request.deviceId)) throw refused();
  // The device's key, imported once per process (a key is set once, at enrolment, and never changes); the first
  // request of a device on this node reads it.
  let known = deviceKeys.get(request.deviceId);
  if (!known) {
    const found = await findDeviceById(deps.db, request.deviceId);
    if (!found || found.public_key === null || found.enrolled_at === null || found.revoked_at !== null) {
      throw refused();
    }
    known = keep(deviceKeys, request.deviceId, {
      jwk: JSON.stringify(found.public_key),
      key: createPublicKey({ key: found.public_key, format: 'jwk' }),
    });
  }
  let valid = false;
  try {
    valid = verify(
      'sha256',
      Buffer.from(kioskSigningText(request.method, request.url, request.counter, request.body)),
      { key: known.key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(request.signature, 'base64url'),
    );
  } catch {
    valid = false;
  }
  if (!valid) throw refused();
  // Only a request signed by the device takes its counter (a forged one must not burn the device's counters);
  // revocation, enrolment and replays are checked by the same statement, on every request.
  const device = await takeCounterOfDevice(
    deps.db,
    request.deviceId,
    BigInt(request.counter),
    toDate(deps.clock.now()),
  );
  if (!device || device.public_key === null || device.enrolled_at === null) throw refused();
  if (JSON.stringify(device.public_key) !== known.jwk) {
    // The stored key is not the one this node verified with (changed outside the service): verify again.
    deviceKeys.delete(request.deviceId);
    throw refused();
  }
  return {
    companyId: device.company_id,
    deviceId: device.id,
    locationId: device.location_id,
    publicKey: device.public_key,
    enrolledAt: device.enrolled_at,
  };
}

/** What a kiosk shows when idle: its name, its work centre, the company. */
export async function kioskInfo(
  deps: Pick<AppDeps, 'db' | 'instanceSecret'>,
  kiosk: Pick<KioskCaller, 'companyId' | 'deviceId'>,
) {
  const device = await findDevice(deps.db, kiosk.companyId, kiosk.deviceId);
  if (!device) throw refused();
  return {
    device_id: device.id,
    name: device.name,
    location: { id: device.location_id, name: device.location_name },
    company: { name: device.company_name },
    pin_seal_key: pinSealPublicKey(deps),
    location_capture: device.location_capture,
  };
}

/** Whom the kiosk's work centre lets clock: its active employees, by name (first name and last name). */
export async function kioskWorkers(deps: Pick<AppDeps, 'db'>, kiosk: KioskCaller) {
  const rows = await selectLocationWorkers(deps.db, kiosk.companyId, kiosk.locationId);
  return { data: rows.map((row) => ({ id: row.id, first_name: row.first_name, last_name: row.last_name })) };
}

/** The PIN's HMAC, under a key only the service holds (docs/security.md, "Shared kiosks"). */
const pinHmac = (deps: Pick<AppDeps, 'instanceSecret'>, companyId: string, employeeId: string, pin: string) =>
  hmac(deriveKey(deps.instanceSecret, 'kiosk-pin'), `${companyId}:${employeeId}:${pin}`);

/** A PIN a worker may choose: six digits, not all the same, not a run up or down. */
export function pinProblem(pin: string): string | null {
  if (!/^[0-9]{6}$/.test(pin)) return 'must be 6 digits';
  if (/^(\d)\1{5}$/.test(pin)) return 'must not repeat one digit';
  if ('0123456789'.includes(pin) || '9876543210'.includes(pin)) return 'must not be a run of digits';
  return null;
}

/** The worker sets or changes their kiosk PIN (portal). The company never sees it. */
export async function setKioskPin(
  deps: Pick<AppDeps, 'db' | 'clock' | 'instanceSecret'>,
  tenant: CompanyScope,
  employeeId: string,
  pin: string,
): Promise<{ pin_set: true; updated_at: string }> {
  const problem = pinProblem(pin);
  if (problem) throw invalid({ pin: problem });
  const now = toDate(deps.clock.now());
  await upsertPin(
    deps.db,
    tenant.companyId,
    employeeId,
    pinHmac(deps, tenant.companyId, employeeId, pin),
    now,
  );
  return { pin_set: true, updated_at: now.toISOString() };
}

export async function kioskPinState(deps: Pick<AppDeps, 'db'>, tenant: CompanyScope, employeeId: string) {
  return { pin_set: (await findPin(deps.db, tenant.companyId, employeeId)) !== undefined };
}

const wrongPin = () =>
  new ApiError('unauthenticated', 'The PIN is not right, or this worker has no PIN yet.', {
    errors: { pin: 'is not right' },
  });

const throttled = (seconds: number) =>
  new ApiError('rate_limited', 'Too many wrong PINs: wait before trying again.', {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(seconds))) },
  });

/** A failure window: how many failures it holds now, and when it ends (null: no window open). */
function windowAt(failures: number, since: Date | null, now: Date) {
  const ends = since === null ? null : since.getTime() + PIN_FAILURE_WINDOW_MINUTES * 60_000;
  if (ends === null || ends <= now.getTime()) return { failures: 0, since: null, ends: null };
  return { failures, since, ends };
}

type WorkerState = {
  status: 'out' | 'working' | 'on_break';
  since: string | null;
  actions: Array<'in' | 'out' | 'break_start' | 'break_end'>;
};

/** Where the worker's day stands, from their latest record, and what they may record next. */
async function workerState(deps: Pick<AppDeps, 'db'>, tenant: CompanyScope, employeeId: string) {
  const latest: CheckInView | null = await latestCheckIn(deps, tenant, employeeId);
  const state: WorkerState =
    latest === null || latest.type === 'out'
      ? { status: 'out', since: latest?.timestamp ?? null, actions: ['in'] }
      : latest.type === 'break_start'
        ? { status: 'on_break', since: latest.timestamp, actions: ['break_end', 'out'] }
        : { status: 'working', since: latest.timestamp, actions: ['break_start', 'out'] };
  return state;
}

/** A worker's QR code lasts one window of this many seconds (and a few seconds into the next, for the scan). */
export const QR_WINDOW_SECONDS = 30;
const QR_GRACE_SECONDS = 5;
const QR_PREFIX = 'jornada-kiosk:1';

const qrWindowAt = (milliseconds: number) => BigInt(Math.floor(milliseconds / (QR_WINDOW_SECONDS * 1000)));

/** The code of a worker's window: an HMAC under a key only the service holds, so no one else can make one. */
const qrMac = (
  deps: Pick<AppDeps, 'instanceSecret'>,
  companyId: string,
  employeeId: string,
  window: bigint,
) =>
  hmac(deriveKey(deps.instanceSecret, 'kiosk-qr'), `${companyId}:${employeeId}:${window}`)
    .subarray(0, 16)
    .toString('base64url');

/**
 * The worker's rotating QR code for a kiosk (portal): the text the portal draws as a QR code, valid this
 * 30-second window, used once. It names the worker and the window, and proves them with its HMAC.
 */
export function kioskCode(
  deps: Pick<AppDeps, 'clock' | 'instanceSecret'>,
  tenant: CompanyScope,
  employeeId: string,
): { code: string; expires_at: string } {
  const window = qrWindowAt(deps.clock.now().epochMilliseconds);
  return {
    code: `${QR_PREFIX}:${employeeId}:${window}:${qrMac(deps, tenant.companyId, employeeId, window)}`,
    expires_at: new Date(Number(window + 1n) * QR_WINDOW_SECONDS * 1000).toISOString(),
  };
}

const wrongQr = () =>
  new ApiError('unauthenticated', 'This code is not valid here, was used already or has expired.', {
    errors: { qr: 'is not valid, was used or has expired' },
  });

/** How a worker identifies on a kiosk: their name and PIN, or the QR code of their portal. */
export type KioskIdentification = { employee_id: string; pin: string } | { qr: string };

type Identified = { employee: EmployeeRow } | { refusal: ApiError };

/** Checks a PIN (the worker's failure window included), in the attempt's transaction. */
async function checkPin(
  tx: Executor,
  deps: Pick<AppDeps, 'instanceSecret'>,
  kiosk: KioskCaller,
  input: { employee_id: string; pin: string },
  now: Date,
): Promise<Identified> {
  const employee = await findEmployee(tx, kiosk.companyId, input.employee_id);
  const pin = employee ? await findPin(tx, kiosk.companyId, employee.id, { lock: true }) : undefined;
  const forWorker = pin ? windowAt(pin.failures, pin.failures_since, now) : null;
  if (forWorker && forWorker.failures >= PIN_FAILURES_PER_WORKER && forWorker.ends !== null) {
    return { refusal: throttled((forWorker.ends - now.getTime()) / 1000) };
  }
  if (employee && pin && safeEqual(pin.pin_hmac, pinHmac(deps, kiosk.companyId, employee.id, input.pin))) {
    await setPinFailures(tx, kiosk.companyId, employee.id, 0, null);
    return { employee };
  }
  if (employee && pin && forWorker) {
    await setPinFailures(tx, kiosk.companyId, employee.id, forWorker.failures + 1, forWorker.since ?? now);
  }
  return { refusal: wrongPin() };
}

/** Checks a QR code: this company's worker, this window (or the last, within seconds), never used before. */
async function checkQr(
  tx: Executor,
  deps: Pick<AppDeps, 'instanceSecret'>,
  kiosk: KioskCaller,
  qr: string,
  now: Date,
  /** When the code was read: now, or a queued punch's device time. */
  readAt: Date = now,
): Promise<Identified> {
  const parts = qr.split(':');
  const [employeeId, windowText, mac] = parts.slice(2);
  if (parts.length !== 5 || `${parts[0]}:${parts[1]}` !== QR_PREFIX || !employeeId || !mac) {
    return { refusal: wrongQr() };
  }
  if (!/^[0-9]{1,15}$/.test(windowText ?? '') || !/^[0-9a-f-]{36}$/.test(employeeId)) {
    return { refusal: wrongQr() };
  }
  const window = BigInt(windowText as string);
  const current = qrWindowAt(readAt.getTime());
  const graceOver = readAt.getTime() - Number(current) * QR_WINDOW_SECONDS * 1000 > QR_GRACE_SECONDS * 1000;
  const fresh = window === current || (window === current - 1n && !graceOver);
  const expected = Buffer.from(qrMac(deps, kiosk.companyId, employeeId, window));
  if (!fresh || !safeEqual(Buffer.from(mac), expected)) return { refusal: wrongQr() };
  const employee = await findEmployee(tx, kiosk.companyId, employeeId);
  if (!employee || !(await useQrWindow(tx, kiosk.companyId, employee.id, window, now))) {
    return { refusal: wrongQr() };
  }
  return { employee };
}

/**
 * One identification attempt in the caller's transaction, counted against the device's failure window (the
 * device's row locked) and, for a PIN, the worker's. `readAt` is when the worker identified: now, or when a queued
 * punch was made offline (its QR code's window is checked against it).
 */
async function identifyOnce(
  tx: Executor,
  deps: Pick<AppDeps, 'instanceSecret'>,
  kiosk: KioskCaller,
  input: KioskIdentification,
  now: Date,
  readAt: Date,
): Promise<Identified> {
  const device = await lockDeviceFailures(tx, kiosk.companyId, kiosk.deviceId);
  const onDevice = windowAt(device.pin_failures, device.pin_failures_since, now);
  if (onDevice.failures >= PIN_FAILURES_PER_DEVICE && onDevice.ends !== null) {
    return { refusal: throttled((onDevice.ends - now.getTime()) / 1000) };
  }
  const identified =
    'qr' in input
      ? await checkQr(tx, deps, kiosk, input.qr, now, readAt)
      : await checkPin(tx, deps, kiosk, input, now);
  // A throttled worker is not one more failure of the device.
  if ('refusal' in identified && identified.refusal.code !== 'rate_limited') {
    await setDeviceFailures(
      tx,
      kiosk.companyId,
      kiosk.deviceId,
      onDevice.failures + 1,
      onDevice.since ?? now,
    );
  }
  return identified;
}

/**
 * The service's key for PINs typed on a kiosk without a connection (decision 0029): an ECDH P-256 key derived
 * from the instance's secret, never stored. The kiosk seals each PIN to its public half (ECDH with a key of its
 * own for that PIN, HKDF-SHA256, AES-256-GCM), so the queue on the tablet holds no PIN anyone but the service can
 * read, and the seal names its punch (the punch's text is the cipher's associated data): it cannot be moved to
 * another.
 */
type SealKey = { privateKey: KeyObject; publicJwk: { kty: string; crv: string; x: string; y: string } };

function pinSealKey(deps: Pick<AppDeps, 'instanceSecret'>): SealKey {
  const cached = sealKeys.get(deps.instanceSecret);
  if (cached) return cached;
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(deriveKey(deps.instanceSecret, 'kiosk-pin-seal'));
  const point = ecdh.getPublicKey();
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33, 65).toString('base64url'),
  };
  const key = {
    privateKey: createPrivateKey({
      key: { ...jwk, d: ecdh.getPrivateKey().toString('base64url') },
      format: 'jwk',
    }),
    publicJwk: jwk,
  };
  sealKeys.set(deps.instanceSecret, key);
  return key;
}
const sealKeys = new WeakMap<Buffer, SealKey>();

/** The public half of the key a kiosk seals offline PINs to (GET /kiosk/api/device). */
export const pinSealPublicKey = (deps: Pick<AppDeps, 'instanceSecret'>) => pinSealKey(deps).publicJwk;

/** A PIN sealed on the kiosk: its own public key (JWK), the nonce and the cipher text with its tag (base64url). */
export type SealedPin = { epk: Record<string, unknown>; iv: string; ct: string };

export const PIN_SEAL_INFO = 'jornada-kiosk-pin:1';

/** Opens a sealed PIN with the punch's text as associated data; null when it does not open. */
export function openSealedPin(
  deps: Pick<AppDeps, 'instanceSecret'>,
  sealed: SealedPin,
  associated: string,
): string | null {
  try {
    const publicKey = createPublicKey({ key: publicKeyOf(sealed.epk), format: 'jwk' });
    const shared = diffieHellman({ privateKey: pinSealKey(deps).privateKey, publicKey });
    const key = Buffer.from(hkdfSync('sha256', shared, Buffer.alloc(0), PIN_SEAL_INFO, 32));
    const box = Buffer.from(sealed.ct, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'));
    decipher.setAAD(Buffer.from(associated));
    decipher.setAuthTag(box.subarray(box.length - 16));
    return Buffer.concat([decipher.update(box.subarray(0, box.length - 16)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

/** How a queued kiosk punch says who made it: a PIN sealed to the service, or the QR code read. */
export type QueuedIdentification =
  | { employee_id: string; pin_sealed: SealedPin; associated: string }
  | { qr: string };

/**
 * Identifies the workers of queued kiosk punches on receipt, in order, each attempt counted as if it were made
 * now (the same failure windows as a live attempt: a queue cannot try PINs faster than the kiosk's screen).
 */
export async function identifyQueued(
  deps: Pick<AppDeps, 'db' | 'clock' | 'instanceSecret'>,
  kiosk: KioskCaller,
  punches: ReadonlyArray<{ identification: QueuedIdentification; madeAt: Date }>,
): Promise<Array<{ employee: EmployeeRow } | { refusal: ApiError }>> {
  const now = toDate(deps.clock.now());
  return await deps.db.transaction().execute(async (tx) => {
    const outcomes: Array<{ employee: EmployeeRow } | { refusal: ApiError }> = [];
    for (const { identification, madeAt } of punches) {
      if ('qr' in identification) {
        outcomes.push(await identifyOnce(tx, deps, kiosk, identification, now, madeAt));
        continue;
      }
      // A seal that does not open is a wrong PIN: it counts as one.
      const pin =
        openSealedPin(deps, identification.pin_sealed, identification.associated) ?? 'sealed PIN not opened';
      outcomes.push(
        await identifyOnce(tx, deps, kiosk, { employee_id: identification.employee_id, pin }, now, madeAt),
      );
    }
    return outcomes;
  });
}

/**
 * A worker identifies on the kiosk: with their PIN, or with the QR code their portal shows. Failures are counted
 * for the device (and a wrong PIN for the worker too), in windows of 15 minutes, across every node (the rows are
 * locked for the attempt); past either limit every attempt is refused (429) until the window ends, a right one
 * included. A worker identified gets their name, state and a ticket for one punch within a minute.
 */
export async function identifyOnKiosk(
  deps: Pick<AppDeps, 'db' | 'clock' | 'instanceSecret'>,
  kiosk: KioskCaller,
  input: KioskIdentification,
) {
  const now = toDate(deps.clock.now());
  const tenant = await tenantScopeOf(deps.db, kiosk.companyId);
  if (!tenant) throw refused();
  const outcome = await deps.db.transaction().execute(async (tx) => {
    const identified = await identifyOnce(tx, deps, kiosk, input, now, now);
    if ('refusal' in identified) return identified;
    const { employee } = identified;
    const ticket = newId();
    const expires = new Date(now.getTime() + TICKET_SECONDS * 1000);
    await insertTicket(tx, {
      company_id: kiosk.companyId,
      id: ticket,
      device_id: kiosk.deviceId,
      employee_id: employee.id,
      expires_at: expires,
    });
    return { employee, ticket, expires };
  });
  if ('refusal' in outcome) throw outcome.refusal;
  const { employee } = outcome;
  return {
    worker: { id: employee.id, first_name: employee.first_name, last_name: employee.last_name },
    ...(await workerState(deps, tenant, employee.id)),
    ticket: outcome.ticket,
    ticket_expires_at: outcome.expires.toISOString(),
  };
}

/**
 * The identified worker's punch, now: their own record (source `kiosk`, the worker as recorded_by, the device
 * named), under the rules of every check-in. The ticket is spent whatever the outcome.
 */
export async function punchOnKiosk(
  deps: Pick<AppDeps, 'db' | 'clock' | 'lateRecordHours'>,
  kiosk: KioskCaller,
  input: { ticket: string; type: 'in' | 'out' | 'break_start' | 'break_end'; location?: PunchPosition },
): Promise<CheckInView> {
  const now = deps.clock.now();
  const used = await useTicket(deps.db, kiosk.companyId, input.ticket, kiosk.deviceId, toDate(now));
  if (!used) {
    throw new ApiError('unauthenticated', 'Identify again: this ticket is unknown, used or expired.', {
      errors: { ticket: 'is unknown, used or expired' },
    });
  }
  const scope: TenantScope | undefined = await tenantScopeOf(deps.db, kiosk.companyId);
  const employee = await findEmployee(deps.db, kiosk.companyId, used.employee_id);
  if (!scope || !employee) throw refused();
  const zone = employeeTimeZone(employee, scope.timezone);
  if (!canClock(employee, zone, now)) {
    throw new ApiError('conflict', 'This employment has ended.', {
      errors: { termination_date: employee.termination_date ?? '' },
    });
  }
  const tenant: ActingTenant = { ...scope, actor: { type: 'employee', id: employee.id } };
  return await recordCheckIn(
    deps,
    tenant,
    { employee_id: employee.id, type: input.type, timestamp: formatInstant(new Date(now.epochMilliseconds)) },
    'kiosk',
    {
      deviceId: kiosk.deviceId,
      centreId: kiosk.locationId,
      ...(input.location !== undefined ? { position: input.location } : {}),
    },
  );
}
