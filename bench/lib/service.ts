import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '../../src/db/database.ts';
import { freePort } from '../../src/db/embedded.ts';

const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const ROOT = path.resolve(import.meta.dirname, '../..');

export type BenchService = {
  origin: string;
  /** A call to the operator's API (`/admin/v1…`), its JSON answer; throws on an error status. */
  admin<T = { id: string; secret: string }>(method: string, route: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
};

async function waitHealthy(origin: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${origin} exited with ${child.exitCode}`);
    const ok = await fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${origin} did not start`);
    await delay(100);
  }
}

/** Stops a child process with SIGTERM (the service drains) and waits for it. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/**
 * `jornada serve --role=<role>` as production runs it (its logging, limits and keys), on the bench cluster's
 * database `url`, with the operator's API on a known token and no demo company. `env` adds settings
 * (JORNADA_FAKE_CLOCK…); BENCH_CPU_PROF=<dir> makes it write a V8 CPU profile there when it stops.
 */
export async function startService(
  url: string,
  role: 'api' | 'worker' | 'all',
  env: Record<string, string> = {},
): Promise<BenchService> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-bench-service-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...profile, 'src/cli.js', 'serve', `--role=${role}`], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      JORNADA_ADMIN_TOKEN: ADMIN_TOKEN,
      JORNADA_DEMO: '0',
      JORNADA_DATA_DIR: dataDir,
      ...env,
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    await stopChild(child);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitHealthy(origin, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    origin,
    async admin(method, route, body) {
      const response = await fetch(`${origin}/admin/v1${route}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
      return (await response.json()) as never;
    },
    stop,
  };
}

/**
 * Waits until the service's worker role has extended every employee of the company to the end of this year (its
 * first work on a data set consolidated to an earlier date): a measurement starts after it, so that only what it
 * measures competes with the requests, and no request waits on the worker's locks.
 */
export async function calendarsExtended(db: Db, companyId: string): Promise<void> {
  const year = new Date().getUTCFullYear();
  for (;;) {
    const behind = await db
      .selectFrom('employees')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('company_id', '=', companyId)
      .where('consolidated_through', '<', `${year}-12-31`)
      .executeTakeFirstOrThrow();
    if (Number(behind.count) === 0) return;
    await delay(1_000);
  }
}
