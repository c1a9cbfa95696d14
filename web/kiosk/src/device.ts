/**
 * The tablet's side of a kiosk (decisions 0029 and 0030): its key pair, made by WebCrypto with the private key
 * not extractable and kept in IndexedDB (the page can sign with it; no script can read it), the counter of its
 * signed requests, the sequence of its offline punches, and the queue of punches made without a connection.
 */
type Stored = {
  device: string;
  keys: CryptoKeyPair;
  counter: number;
  sequence: number;
  sealKey: JsonWebKey | null;
};
export type QueuedPunch = { punch: string; signature: string; name: string; type: string; at: string };

const DB = 'jornada-kiosk';
const subtle = () => crypto.subtle;

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore('device');
      request.result.createObjectStore('queue', { autoIncrement: true });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run<T>(store: string, mode: IDBTransactionMode, work: (s: IDBObjectStore) => IDBRequest<T>) {
  const db = await open();
  return await new Promise<T>((resolve, reject) => {
    const request = work(db.transaction(store, mode).objectStore(store));
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export const loadDevice = () => run<Stored | undefined>('device', 'readonly', (s) => s.get('self'));
const saveDevice = (device: Stored) => run('device', 'readwrite', (s) => s.put(device, 'self'));
export const forgetDevice = () => run('device', 'readwrite', (s) => s.delete('self'));

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

async function sign(keys: CryptoKeyPair, text: string) {
  return b64url(
    await subtle().sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new TextEncoder().encode(text)),
  );
}

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
  const keys = (await subtle().generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const publicKey = await subtle().exportKey('jwk', keys.publicKey);
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
  const digest = b64url(await subtle().digest('SHA-256', new TextEncoder().encode(payload)));
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

/** Seals a PIN to the service's key, bound to its punch (ECDH P-256, HKDF-SHA256, AES-256-GCM). */
async function sealPin(serviceKey: JsonWebKey, pin: string, associated: string) {
  const service = await subtle().importKey(
    'jwk',
    serviceKey,
    { name: 'ECDH', namedCurve: 'P-256' },
    false,
    [],
  );
  const mine = (await subtle().generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
    'deriveBits',
  ])) as CryptoKeyPair;
  const shared = await subtle().deriveBits({ name: 'ECDH', public: service }, mine.privateKey, 256);
  const hkdf = await subtle().importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  const key = await subtle().deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: new Uint8Array(0),
      info: new TextEncoder().encode('jornada-kiosk-pin:1'),
    },
    hkdf,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt'],
  );
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await subtle().encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(associated) },
    key,
    new TextEncoder().encode(pin),
  );
  const { kty, crv, x, y } = await subtle().exportKey('jwk', mine.publicKey);
  return { epk: { kty, crv, x, y }, iv: b64url(iv), ct: b64url(ct) };
}

/** Keeps a punch made without a connection: the PIN sealed, the punch signed, the next sequence taken. */
export async function queuePunch(worker: { id: string; name: string }, pin: string, type: string) {
  const device = await loadDevice();
  if (!device?.sealKey) throw new KioskError(0, 'offline', 'no key to seal the PIN to');
  const sequence = device.sequence + 1;
  await saveDevice({ ...device, sequence });
  const deviceTime = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const context = [device.device, sequence, worker.id, type, deviceTime].join('\n');
  const punch = JSON.stringify({
    device_id: device.device,
    sequence,
    type,
    device_time: deviceTime,
    employee_id: worker.id,
    pin_sealed: await sealPin(device.sealKey, pin, context),
  });
  const queued: QueuedPunch = {
    punch,
    signature: await sign(device.keys, punch),
    name: worker.name,
    type,
    at: deviceTime,
  };
  await run('queue', 'readwrite', (s) => s.add(queued));
  return queued;
}

export async function queued(): Promise<Array<{ key: IDBValidKey; value: QueuedPunch }>> {
  const db = await open();
  return await new Promise((resolve, reject) => {
    const out: Array<{ key: IDBValidKey; value: QueuedPunch }> = [];
    const request = db.transaction('queue').objectStore('queue').openCursor();
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor) return resolve(out);
      out.push({ key: cursor.key, value: cursor.value as QueuedPunch });
      cursor.continue();
    };
    request.onerror = () => reject(request.error);
  });
}

export type BatchAnswer = {
  results: Array<{ index: number; status: 'recorded' | 'refused'; code?: string }>;
  gaps: Array<{ from: number; to: number }>;
};

/** Sends the queue; every punch answered (recorded or refused) leaves it. Returns the answer, or null offline. */
export async function flushQueue(): Promise<{ answer: BatchAnswer; sent: QueuedPunch[] } | null> {
  const entries = await queued();
  if (entries.length === 0) return null;
  const answer = await call<BatchAnswer>('POST', '/kiosk/api/check-ins/batch', {
    punches: entries.map(({ value }) => ({ punch: value.punch, signature: value.signature })),
  });
  for (const entry of entries) await run('queue', 'readwrite', (s) => s.delete(entry.key));
  return { answer, sent: entries.map(({ value }) => value) };
}
