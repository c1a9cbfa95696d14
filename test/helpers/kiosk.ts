import { createHash, webcrypto } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';

/**
 * A device as the kiosk page and the portal's app are (issue 40): a key pair made by WebCrypto (the same API, in
 * Node) whose private key is not extractable. A kiosk signs its requests (method, path, counter and the body's
 * SHA-256, one per line); a kiosk or a worker's phone signs each punch it keeps offline, and a kiosk seals the
 * PIN typed offline to the service's key.
 */
export class Tablet {
  device = '';
  counter = 0;
  /** The sequence of the punches kept offline: from 1, never reused. */
  sequence = 0;
  keys!: CryptoKeyPair;

  readonly app: FastifyInstance;

  constructor(app: FastifyInstance) {
    this.app = app;
  }

  async init() {
    this.keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    return this;
  }

  async publicJwk() {
    return await webcrypto.subtle.exportKey('jwk', this.keys.publicKey);
  }

  async enroll(code: string) {
    const response = await this.app.inject({
      method: 'POST',
      url: '/kiosk/api/enroll',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ code, public_key: await this.publicJwk() }),
    });
    if (response.statusCode === 200) this.device = response.json().device_id;
    return response;
  }

  async sign(text: string): Promise<string> {
    const signature = await webcrypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      this.keys.privateKey,
      new TextEncoder().encode(text),
    );
    return Buffer.from(signature).toString('base64url');
  }

  /** Signs as the kiosk page does: method, path, counter and the body's SHA-256, one per line. */
  async headers(method: string, url: string, body: string, counter = ++this.counter) {
    const digest = createHash('sha256').update(body).digest('base64url');
    return {
      'kiosk-device': this.device,
      'kiosk-counter': String(counter),
      'kiosk-signature': await this.sign(`${method}\n${url}\n${counter}\n${digest}`),
      ...(body === '' ? {} : { 'content-type': 'application/json' }),
    };
  }

  async call(method: 'GET' | 'POST', url: string, body?: unknown) {
    const payload = body === undefined ? '' : JSON.stringify(body);
    return await this.app.inject({
      method,
      url,
      headers: await this.headers(method, url, payload),
      ...(payload === '' ? {} : { payload }),
    });
  }

  /** A punch kept offline: its fields with this device and the next sequence, as text, and its signature. */
  async queued(fields: Record<string, unknown>, sequence = ++this.sequence) {
    const punch = JSON.stringify({ device_id: this.device, sequence, ...fields });
    return { punch, signature: await this.sign(punch) };
  }
}

/** Seals a PIN to the service's key as the kiosk page does: the page's own function (web/shared/offline.ts). */
export { sealPin } from '../../web/shared/offline.ts';

/** A worker's phone: a key pair like a tablet's, registered in the portal. */
export async function registeredPhone(
  app: FastifyInstance,
  send: (
    method: 'POST',
    url: string,
    body: unknown,
  ) => Promise<{ statusCode: number; json(): unknown; body: string }>,
) {
  const phone = await new Tablet(app).init();
  const registered = await send('POST', '/portal/api/devices', { public_key: await phone.publicJwk() });
  if (registered.statusCode !== 201) throw new Error(registered.body);
  phone.device = (registered.json() as { device_id: string }).device_id;
  return phone;
}

/**
 * A camera's video showing a QR code of `text`, for Chromium's fake camera (`--use-file-for-fake-video-capture`):
 * a Y4M file (4:2:0), 640×480, black modules on white, 8 pixels a module, centred.
 */
export async function qrVideo(text: string, file: string): Promise<void> {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const [width, height, scale] = [640, 480, 8];
  const luma = Buffer.alloc(width * height, 255);
  const left = Math.floor((width - modules.size * scale) / 2);
  const top = Math.floor((height - modules.size * scale) / 2);
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (!modules.get(row, column)) continue;
      for (let y = 0; y < scale; y++)
        luma.fill(
          0,
          (top + row * scale + y) * width + left + column * scale,
          (top + row * scale + y) * width + left + (column + 1) * scale,
        );
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  await writeFile(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]),
  );
}
