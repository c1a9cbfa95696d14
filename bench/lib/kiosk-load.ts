import { fork } from 'node:child_process';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { once } from 'node:events';
import { createHistogram } from 'node:perf_hooks';
import { Pool } from 'undici';

/**
 * Kiosks punching, in a process of its own (issue 40's bench): each punch is what a kiosk's screen sends, a
 * signed `POST /kiosk/api/identify` with a worker's PIN, then a signed `POST /kiosk/api/check-ins` with the
 * ticket, the next kiosk and the next worker in turn, `rate` punches a second (open loop: latency includes any
 * queueing). Each request is signed as the kiosk page signs it (its counter above every earlier one). The
 * latencies of both requests are measured.
 */
export type KioskLoadOptions = {
  origin: string;
  kiosks: Array<{ id: string; privateKey: JsonWebKey }>;
  workers: string[];
  pin: string;
  rate: number;
  durationMs: number;
  warmupMs: number;
};

export type KioskLoadResult = {
  punches: number;
  requests: number;
  perSecond: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
};

export async function runKioskLoad(options: KioskLoadOptions): Promise<KioskLoadResult> {
  const child = fork(import.meta.filename, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.send(options);
  const [result] = (await once(child, 'message')) as [KioskLoadResult];
  await once(child, 'exit');
  return result;
}

async function generate(options: KioskLoadOptions): Promise<KioskLoadResult> {
  const pool = new Pool(options.origin, { connections: 64, pipelining: 1 });
  const keys = options.kiosks.map((kiosk) => ({
    id: kiosk.id,
    key: createPrivateKey({ key: kiosk.privateKey, format: 'jwk' }),
    counter: 0,
  }));
  const histogram = createHistogram();
  const statuses: Record<string, number> = {};
  const next = new Map<string, 'in' | 'out'>();
  let measuring = false;
  let ended = false;
  let punches = 0;

  const call = async (kiosk: (typeof keys)[number], path: string, body: unknown) => {
    kiosk.counter = Math.max(kiosk.counter + 1, Date.now());
    const payload = JSON.stringify(body);
    const digest = createHash('sha256').update(payload).digest('base64url');
    const signature = sign('sha256', Buffer.from(`POST\n${path}\n${kiosk.counter}\n${digest}`), {
      key: kiosk.key,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64url');
    const start = process.hrtime.bigint();
    const response = await pool.request({
      method: 'POST',
      path,
      body: payload,
      headers: {
        'content-type': 'application/json',
        'kiosk-device': kiosk.id,
        'kiosk-counter': String(kiosk.counter),
        'kiosk-signature': signature,
      },
    });
    const answer = (await response.body.json().catch(() => ({}))) as { ticket?: string };
    if (measuring) {
      histogram.record(process.hrtime.bigint() - start);
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    }
    return answer;
  };

  const punch = async (index: number) => {
    const kiosk = keys[index % keys.length] as (typeof keys)[number];
    const worker = options.workers[index % options.workers.length] as string;
    const type = next.get(worker) ?? 'in';
    next.set(worker, type === 'in' ? 'out' : 'in');
    const identified = await call(kiosk, '/kiosk/api/identify', { employee_id: worker, pin: options.pin });
    if (identified.ticket) await call(kiosk, '/kiosk/api/check-ins', { ticket: identified.ticket, type });
    if (measuring) punches += 1;
  };

  const inFlight = new Set<Promise<void>>();
  const begin = performance.now();
  const loop = (async () => {
    for (let index = 0; !ended; index++) {
      const due = begin + (index * 1000) / options.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const request = punch(index).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, options.warmupMs));
  measuring = true;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, options.durationMs));
  const seconds = (performance.now() - started) / 1000;
  measuring = false;
  ended = true;
  await loop;
  await Promise.all(inFlight);
  await pool.close();
  return {
    punches,
    requests: histogram.count,
    perSecond: punches / seconds,
    statuses,
    p50Ms: histogram.percentile(50) / 1e6,
    p99Ms: histogram.percentile(99) / 1e6,
  };
}

if (process.send && import.meta.main) {
  process.once('message', async (options: KioskLoadOptions) => {
    process.send?.(await generate(options));
    process.disconnect?.();
  });
}
