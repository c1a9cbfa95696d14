import { fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createHistogram } from 'node:perf_hooks';
import { Pool } from 'undici';

/**
 * An HTTP load generator in a process of its own (so that it does not share the measured server's event loop):
 * `connections` keep-alive connections (undici's Pool, the client autocannon is built on), each sending its next
 * request when the previous answer has been read in full; or, with `rate`, requests at that fixed rate
 * (open loop: latency includes any queueing). Request i carries `headers[i % headers.length]`.
 */
export type LoadOptions = {
  origin: string;
  path: string;
  headers: Array<Record<string, string>>;
  connections: number;
  durationMs: number;
  warmupMs?: number;
  rate?: number;
};

export type LoadResult = {
  requests: number;
  perSecond: number;
  statuses: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
};

/**
 * Runs a load in its own process. With `stop`, the measurement ends when that promise settles (or after
 * `durationMs`, whichever comes first): a load that lasts as long as something else does.
 */
export async function runLoad(options: LoadOptions, stop?: Promise<unknown>): Promise<LoadResult> {
  const child = fork(path.join(import.meta.dirname, 'load.ts'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.send(options);
  void stop?.finally(() => {
    if (child.connected) child.send('stop');
  });
  const [result] = (await once(child, 'message')) as [LoadResult];
  await once(child, 'exit');
  return result;
}

async function generate(options: LoadOptions, stopped: Promise<void>): Promise<LoadResult> {
  const pool = new Pool(options.origin, { connections: options.connections, pipelining: 1 });
  const histogram = createHistogram();
  const statuses: Record<string, number> = {};
  let sent = 0;
  let measuring = false;
  let ended = false;
  const one = async () => {
    const headers = options.headers[sent++ % options.headers.length];
    const start = process.hrtime.bigint();
    const response = await pool.request({ method: 'GET', path: options.path, headers });
    await response.body.dump({ limit: Number.POSITIVE_INFINITY });
    if (!measuring) return;
    histogram.record(process.hrtime.bigint() - start);
    statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
  };
  const closed = async () => {
    while (!ended) await one();
  };
  const paced = async (rate: number) => {
    const inFlight = new Set<Promise<void>>();
    const begin = performance.now();
    for (let index = 0; !ended; index++) {
      const due = begin + (index * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const request = one().finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await Promise.all(inFlight);
  };
  const loops =
    options.rate === undefined ? Array.from({ length: options.connections }, closed) : [paced(options.rate)];
  await new Promise((resolve) => setTimeout(resolve, options.warmupMs ?? 1_000));
  measuring = true;
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([new Promise((resolve) => (timer = setTimeout(resolve, options.durationMs))), stopped]);
  clearTimeout(timer);
  measuring = false;
  const seconds = (performance.now() - started) / 1000;
  ended = true;
  await Promise.all(loops);
  await pool.close();
  const requests = histogram.count;
  return {
    requests,
    perSecond: requests / seconds,
    statuses,
    p50Ms: histogram.percentile(50) / 1e6,
    p99Ms: histogram.percentile(99) / 1e6,
  };
}

if (process.send && import.meta.main) {
  const stop = new Promise<void>((resolve) => {
    process.on('message', (message) => {
      if (message === 'stop') resolve();
    });
  });
  process.once('message', async (options: LoadOptions) => {
    process.send?.(await generate(options, stop));
    process.disconnect?.();
  });
}

/**
 * The API load the under-load benches measure (issue 19's, reused by issue 39's month close): `GET
 * /v1/employees?limit=25` at a steady rate over `keys` live keys of the company, each under its own per-minute
 * limit (150 keys at 200 requests a second: 80 a minute each).
 */
export async function employeesLoad(
  service: { origin: string; admin: (method: string, route: string, body?: unknown) => Promise<never> },
  companyId: string,
  options: { keys: number; rate: number; scopes: string[] },
) {
  const keys: string[] = [];
  for (let index = 0; index < options.keys; index++) {
    const created = (await service.admin('POST', `/companies/${companyId}/api-keys`, {
      mode: 'live',
      scopes: options.scopes,
    })) as { secret: string };
    keys.push(created.secret);
  }
  return {
    keys,
    load: {
      origin: service.origin,
      path: '/v1/employees?limit=25',
      headers: keys.map((key) => ({ authorization: `Bearer ${key}` })),
      connections: 32,
      rate: options.rate,
    },
  };
}
