import {
  b64url,
  deviceTimeNow,
  newDeviceKeys,
  offlineStore,
  type QueuedPunch,
  sealPin,
  sign,
  signedPunch,
} from '../../shared/offline.ts';
import type { PunchPosition } from '../../shared/position.ts';

/**
 * The tablet's side of a kiosk (decisions 0029 and 0030): its device key and the counter of its signed requests,
 * the key a PIN typed offline is sealed to, and the queue of punches made without a connection (shared/offline.ts).
 */
type Stored = {
  device: string;
  keys: CryptoKeyPair;
  counter: number;
  sequence: number;
  sealKey: JsonWebKey | null;
};

const store = offlineStore('jornada-kiosk');
const SELF = 'self';
export const loadDevice = () => store.load<Stored>(SELF);
const saveDevice = (device: Stored) => store.save(SELF, device);
export const queued = () => store.queued();

/** Problem+json or a network failure: `offline` when the service could not be reached. */
export class KioskError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, detail: string) {
    super(detail);
    this.status = status;
    this.code = code;
  }
}

/** Enrolls this tablet with the dashboard's one-time code: a new key pair, its public half sent. */
export async function enroll(code: string) {
  const { keys, publicKey } = await newDeviceKeys();
  const response = await fetch('/kiosk/api/enroll', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code, public_key: publicKey }),
  });
  const body = await response.json();
  if (!response.ok) throw new KioskError(response.status, body.code, body.detail);
  await saveDevice({ device: body.device_id, keys, counter: 0, sequence: 0, sealKey: body.pin_seal_key });
  return body;
}

/** A signed request: method, path, a counter above every earlier one, and the body's SHA-256, one per line. */
export async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const device = await loadDevice();
  if (!device) throw new KioskError(401, 'unauthenticated', 'not enrolled');
  // Above every counter used before, even if a write of the last one was lost.
  const counter = Math.max(device.counter + 1, Date.now());
  await saveDevice({ ...device, counter });
  const payload = body === undefined ? '' : JSON.stringify(body);
  const digest = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(payload)));
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        'kiosk-device': device.device,
        'kiosk-counter': String(counter),
        'kiosk-signature': await sign(device.keys, `${method}\n${url}\n${counter}\n${digest}`),
        ...(payload === '' ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === '' ? {} : { body: payload }),
    });
  } catch {
    throw new KioskError(0, 'offline', 'offline');
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new KioskError(response.status, answer.code ?? 'error', answer.detail ?? '');
  if (url === '/kiosk/api/device' && answer.pin_seal_key) {
    const current = await loadDevice();
    if (current) await saveDevice({ ...current, sealKey: answer.pin_seal_key });
  }
  return answer as T;
}

/**
 * Keeps a punch made without a connection, signed with the next sequence: the worker named by their PIN sealed to
 * the service, or by the QR code read (checked against the punch's time on receipt).
 */
export async function queuePunch(
  worker: { id: string; name: string },
  identification: { pin: string } | { qr: string },
  type: string,
  location?: PunchPosition,
) {
  const at = deviceTimeNow();
  const where = location === undefined ? {} : { location };
  const signed = await signedPunch(store, SELF, async (device, sequence) => {
    if ('qr' in identification) return { type, device_time: at, qr: identification.qr, ...where };
    const sealKey = (device as unknown as Stored).sealKey;
    if (!sealKey) throw new KioskError(0, 'offline', 'no key to seal the PIN to');
    const context = [device.device, sequence, worker.id, type, at].join('\n');
    return {
      type,
      device_time: at,
      employee_id: worker.id,
      pin_sealed: await sealPin(sealKey, identification.pin, context),
      ...where,
    };
  });
  const queuedPunch: QueuedPunch = { ...signed, name: worker.name, type, at };
  await store.add(queuedPunch);
  return queuedPunch;
}

/** The worker a portal's QR code names (`jornada-kiosk:1:<worker>:<window>:<proof>`), or null. */
export const workerOfCode = (code: string) => code.split(':')[2] ?? null;

export type BatchAnswer = {
  results: Array<{ index: number; status: 'recorded' | 'refused'; code?: string }>;
  gaps: Array<{ from: number; to: number }>;
};

/** Sends the queue; every punch answered (recorded or refused) leaves it. */
export async function flushQueue(): Promise<{ answer: BatchAnswer; sent: QueuedPunch[] } | null> {
  const entries = await queued();
  if (entries.length === 0) return null;
  const answer = await call<BatchAnswer>('POST', '/kiosk/api/check-ins/batch', {
    punches: entries.map(({ value }) => ({ punch: value.punch, signature: value.signature })),
  });
  for (const entry of entries) await store.remove(entry.key);
  return { answer, sent: entries.map(({ value }) => value) };
}
