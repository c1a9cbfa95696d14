/**
 * What the portal's app and the kiosk keep on the device (issue 40, decisions 0029 and 0030): a key pair made by
 * WebCrypto with the private key not extractable, kept in IndexedDB (the page can sign with it; no script can
 * read it), the sequence of the punches made without a connection, and their queue. One IndexedDB database per
 * app, with two stores: `device` (by a key the app chooses) and `queue` (the punches, in the order made).
 */
export type DeviceRecord = { device: string; keys: CryptoKeyPair; sequence: number };
export type QueuedPunch = { punch: string; signature: string; type: string; at: string } & Record<
  string,
  unknown
>;

export function offlineStore(name: string) {
  const open = () =>
    new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore('device');
        request.result.createObjectStore('queue', { autoIncrement: true });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  const run = async <T>(
    store: string,
    mode: IDBTransactionMode,
    work: (s: IDBObjectStore) => IDBRequest<T>,
  ) => {
    const db = await open();
    return await new Promise<T>((resolve, reject) => {
      const request = work(db.transaction(store, mode).objectStore(store));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  };
  return {
    load: <T extends DeviceRecord>(key: string) =>
      run<T | undefined>('device', 'readonly', (s) => s.get(key)),
    save: <T extends DeviceRecord>(key: string, device: T) =>
      run('device', 'readwrite', (s) => s.put(device, key)),
    add: (punch: QueuedPunch) => run('queue', 'readwrite', (s) => s.add(punch)),
    remove: (key: IDBValidKey) => run('queue', 'readwrite', (s) => s.delete(key)),
    async queued(): Promise<Array<{ key: IDBValidKey; value: QueuedPunch }>> {
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
    },
  };
}

export const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** A new ECDSA P-256 key pair whose private key cannot be read, and its public half as a JWK. */
export async function newDeviceKeys() {
  const keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  return { keys, publicKey: await crypto.subtle.exportKey('jwk', keys.publicKey) };
}

/** ECDSA P-256 with SHA-256 of the text (IEEE P1363, base64url), as the service verifies it. */
export async function sign(keys: CryptoKeyPair, text: string): Promise<string> {
  return b64url(
    await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      keys.privateKey,
      new TextEncoder().encode(text),
    ),
  );
}

/** The device's clock now, to the second, as the punch's `device_time`. */
export const deviceTimeNow = () =>
  new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * Takes the device's next sequence (saved before the punch is made: a number is never used twice) and signs a
 * punch's text made of `fields` with it.
 */
export async function signedPunch(
  store: ReturnType<typeof offlineStore>,
  key: string,
  fields: (device: DeviceRecord, sequence: number) => Promise<Record<string, unknown>>,
) {
  const device = await store.load(key);
  if (!device) throw new Error('This device has no key yet.');
  const sequence = device.sequence + 1;
  await store.save(key, { ...device, sequence });
  const punch = JSON.stringify({ device_id: device.device, sequence, ...(await fields(device, sequence)) });
  return { punch, signature: await sign(device.keys, punch) };
}

/**
 * Registers the app's service worker (made at build time by Workbox, decision 0031), which keeps the page and its
 * assets on the device so the app opens without a connection. Nothing happens where the browser has none.
 */
export function registerServiceWorker(app: 'portal' | 'kiosk'): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(`/${app}/sw.js`, { scope: `/${app}` }).catch(() => undefined);
}

/**
 * Seals a PIN typed on a kiosk without a connection to the service's key (decision 0030): ECDH P-256 with a key of
 * the kiosk's own for this PIN, HKDF-SHA256, AES-256-GCM, with the punch's own fields as associated data, so the
 * seal opens only for that punch and only on the service.
 */
export async function sealPin(serviceKey: JsonWebKey, pin: string, associated: string) {
  const subtle = crypto.subtle;
  const service = await subtle.importKey('jwk', serviceKey, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const mine = (await subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
    'deriveBits',
  ])) as CryptoKeyPair;
  const shared = await subtle.deriveBits({ name: 'ECDH', public: service }, mine.privateKey, 256);
  const hkdf = await subtle.importKey('raw', shared, 'HKDF', false, ['deriveKey']);
  const key = await subtle.deriveKey(
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
  const ct = await subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(associated) },
    key,
    new TextEncoder().encode(pin),
  );
  const { kty, crv, x, y } = await subtle.exportKey('jwk', mine.publicKey);
  return { epk: { kty, crv, x, y }, iv: b64url(iv), ct: b64url(ct) };
}
