import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../../src/db/embedded.ts';
import type { BenchCluster } from '../lib/cluster.ts';
import { stopChild } from '../lib/service.ts';

/**
 * Issue 42: what `npm start` costs. The first start on an empty data directory (the embedded PostgreSQL made,
 * migrated, the demo month seeded) until the demo banner, under 10 s; a later start on that directory until
 * `/readyz` answers 200, under 2 s; and the API process's resident memory at rest under 200 MB: `serve --role=api`
 * on that directory, 10 s after `/readyz` answers (the Node.js process; the embedded PostgreSQL's processes are its
 * own). The first start's own process (`--role=all`, which has just seeded the demo and runs the workers' jobs) is
 * printed too, not judged. Each is measured three times, the median judged. It needs no bench cluster: `npm start`
 * brings its own database.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
const FIRST_START_MS = 10_000;
const LATER_START_MS = 2_000;
const IDLE_RSS_MB = 200;
const SETTLE_MS = 10_000;

function serve(
  dataDir: string,
  port: number,
  role: 'all' | 'api' = 'all',
): { child: ChildProcess; output: () => string } {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['src/cli.js', 'serve', `--role=${role}`], {
    cwd: ROOT,
    env: { ...env, JORNADA_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

async function until(
  check: () => Promise<boolean> | boolean,
  child: ChildProcess,
  what: string,
  output: () => string,
) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (await check()) return;
    if (child.exitCode !== null)
      throw new Error(`the service exited (${child.exitCode}) before ${what}:\n${output()}`);
    if (Date.now() > deadline) throw new Error(`no ${what} in 5 minutes`);
    await delay(20);
  }
}

const ready = (origin: string) =>
  fetch(`${origin}/readyz`).then(
    (response) => response.status === 200,
    () => false,
  );

async function residentMegabytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kilobytes / 1024;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function startupSuite(_cluster: BenchCluster): Promise<string[]> {
  const firsts: number[] = [];
  const progress: number[] = [];
  const laters: number[] = [];
  const rss: number[] = [];
  const rssAll: number[] = [];
  for (let run = 1; run <= RUNS; run += 1) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-bench-startup-'));
    // As `npm start` makes ./.data: readable by the user the embedded PostgreSQL runs as (when started as root).
    await chmod(dataDir, 0o755);
    try {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      let started = performance.now();
      const first = serve(dataDir, port);
      let progressAt = Number.NaN;
      await until(
        () => {
          if (Number.isNaN(progressAt) && /seeding|demo month/i.test(first.output()))
            progressAt = performance.now() - started;
          return first.output().includes('Jornada: first start');
        },
        first.child,
        'demo banner',
        first.output,
      );
      firsts.push(performance.now() - started);
      progress.push(progressAt);
      await delay(SETTLE_MS);
      rssAll.push(await residentMegabytes(first.child.pid as number));
      await stopChild(first.child);
      started = performance.now();
      const later = serve(dataDir, port);
      await until(() => ready(origin), later.child, '/readyz 200', later.output);
      laters.push(performance.now() - started);
      await stopChild(later.child);
      const api = serve(dataDir, port, 'api');
      await until(() => ready(origin), api.child, '/readyz 200 (--role=api)', api.output);
      await delay(SETTLE_MS);
      rss.push(await residentMegabytes(api.child.pid as number));
      await stopChild(api.child);
      console.log(
        `  run ${run}: first start ${(firsts.at(-1) as number).toFixed(0)} ms to the banner (progress line at ${Number.isNaN(progressAt) ? 'none' : `${progressAt.toFixed(0)} ms`}), later start ${(laters.at(-1) as number).toFixed(0)} ms to /readyz, API process at rest ${(rss.at(-1) as number).toFixed(0)} MB (the first start's --role=all process: ${(rssAll.at(-1) as number).toFixed(0)} MB)`,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  const failures: string[] = [];
  const first = median(firsts);
  const later = median(laters);
  const resident = median(rss);
  console.log(
    `  median: first start ${first.toFixed(0)} ms (goal < ${FIRST_START_MS}), later start ${later.toFixed(0)} ms (goal < ${LATER_START_MS}), API process at rest ${resident.toFixed(0)} MB (goal < ${IDLE_RSS_MB}; --role=all after seeding ${median(rssAll).toFixed(0)} MB, not judged)`,
  );
  if (first >= FIRST_START_MS)
    failures.push(`startup: first start ${first.toFixed(0)} ms (goal < ${FIRST_START_MS})`);
  if (progress.some((at) => Number.isNaN(at)))
    failures.push('startup: no progress line while the demo month is seeded');
  if (later >= LATER_START_MS)
    failures.push(`startup: later start ${later.toFixed(0)} ms (goal < ${LATER_START_MS})`);
  if (resident >= IDLE_RSS_MB)
    failures.push(`startup: API process at rest ${resident.toFixed(0)} MB (goal < ${IDLE_RSS_MB})`);
  return failures;
}
