import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import type { Db } from '../../src/db/database.ts';
import { createDeps } from '../../src/deps.ts';
import { issueApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { systemResolver } from '../../src/modules/webhooks/target.ts';
import type { Scope } from '../../src/platform/scopes.ts';
import type { FakeClock } from '../../src/time/clock.ts';

export type BenchApi = {
  /** GET over real HTTP with a live key of the company; the body is read in full. */
  get(path: string, query: Record<string, string | number>): Promise<{ status: number; body: unknown }>;
  /** POST of a JSON body over real HTTP with the same key. */
  post(path: string, body: unknown): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
};

/**
 * The real app on a local port, with a live key. Live keys allow 120 requests a minute, so the fake clock moves
 * to a fresh window every 100 requests: the bench measures the service, not the limiter's refusals.
 */
export async function startBenchApi(
  db: Db,
  clock: FakeClock,
  companyId: string,
  scopes: Scope[],
): Promise<BenchApi> {
  const app = await buildApp(
    await createDeps({
      db,
      clock,
      fakeClock: clock,
      publicUrl: 'http://127.0.0.1',
      adminToken: null,
      webhookTargets: { allowPrivate: false, resolve: systemResolver },
      reportsStore: { kind: 'file', dir: path.join(os.tmpdir(), 'jornada-reports-unused') },
    }),
  );
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const key = await issueApiKey({ db, clock }, { companyId }, { mode: 'live', scopes });
  let sent = 0;
  return {
    async get(path, query) {
      if (++sent % 100 === 0) clock.advance(61);
      const params = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
      const response = await fetch(`${address}${path}?${params}`, {
        headers: { authorization: `Bearer ${key.secret}` },
      });
      return { status: response.status, body: await response.json() };
    },
    async post(path, body) {
      if (++sent % 100 === 0) clock.advance(61);
      const response = await fetch(`${address}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    },
    close: () => app.close(),
  };
}

/** Pages a listing to its end over HTTP (limit 100): the time it took, the rows and the pages. */
export async function pageThrough(api: BenchApi, path: string, query: Record<string, string>) {
  const started = performance.now();
  let cursor: string | null = null;
  let rows = 0;
  let pages = 0;
  do {
    const response = await api.get(path, { ...query, limit: 100, ...(cursor ? { cursor } : {}) });
    const body = response.body as { data: unknown[]; meta: { next_cursor: string | null } };
    if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(body)}`);
    rows += body.data.length;
    pages += 1;
    cursor = body.meta.next_cursor;
  } while (cursor);
  return { ms: performance.now() - started, rows, pages };
}
