import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { Jornada } from '@jornada/sdk';
import { sql } from 'kysely';
import { type BenchCluster, openBenchDatabase } from '../lib/cluster.ts';
import { type LoadResult, runLoad } from '../lib/load.ts';
import { ratioLine, summarize } from '../lib/ratios.ts';
import { startService, stopChild } from '../lib/service.ts';

/** Issues 19 and 42: the platform's cost per request, against the same listing on a bare route (0.6, raised to 0.75). */
const GOAL = 0.75;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONNECTIONS = 16;
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);

/**
 * `GET /v1/employees?limit=25` with live keys over 16 keep-alive connections, the service as `jornada serve
 * --role=api` (its logging, limits and keys as in production), against the control: the same listing on a bare
 * Fastify route (bench/lib/bare-listing.ts), same database and pool size. Runs alternate, each after a warm-up;
 * the ratio of each run's throughputs is printed, and the median must reach GOAL.
 *
 * A live key admits 120 requests a minute, so the service runs on its fake clock, moved on by a minute four times
 * a second, and the load spreads over 16 keys: no request is refused for the limit (the bench counts every
 * status). Each run starts in a fresh month, so the monthly quota (100,000 for 90+ employees) is never reached.
 */
export async function platformSuite(cluster: BenchCluster): Promise<string[]> {
  const { db, url } = await openBenchDatabase(cluster, 'bench_platform');
  await sql`truncate companies cascade`.execute(db);
  await db.destroy();
  const service = await startService(url, 'api', { JORNADA_FAKE_CLOCK: '1' });
  const { origin, admin } = service;
  try {
    const advance = (seconds: number) => admin('POST', '/clock/advance', { seconds });
    const company = await admin('POST', '/companies', { name: 'Platform bench', seats: 200 });
    await admin('PATCH', `/companies/${company.id}`, { max_active_keys: CONNECTIONS });
    const keys: string[] = [];
    for (let index = 0; index < CONNECTIONS; index++) {
      const scopes = ['org:empleados:read', 'org:empleados:write'];
      keys.push((await admin('POST', `/companies/${company.id}/api-keys`, { mode: 'live', scopes })).secret);
    }
    const jornada = new Jornada({
      apiKey: keys[0] as string,
      baseUrl: origin,
      sleep: async (ms) => void (await advance(ms / 1000)),
    });
    for (let n = 0; n < 100; n++) {
      await jornada.createEmployee({
        first_name: 'Bench',
        last_name: `Employee ${n}`,
        email: `bench.${n}@example.com`,
      });
    }
    // The control serves the same company's listing.
    const bare = spawn(
      process.execPath,
      [path.join(import.meta.dirname, '../lib/bare-listing.ts'), url, company.id],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      if (!bare.stdout) throw new Error('the control has no stdout');
      const [line] = (await once(bare.stdout, 'data')) as [Buffer];
      const controlOrigin = `http://127.0.0.1:${(JSON.parse(line.toString()) as { port: number }).port}`;
      const load = {
        path: '/v1/employees?limit=25',
        connections: CONNECTIONS,
        durationMs: DURATION_MS,
        warmupMs: 1_500,
      };
      // Both answer the same full page: the ratio compares the same work.
      const pageOf = async (origin: string, headers: Record<string, string>) => {
        const response = await fetch(`${origin}${load.path}`, { headers });
        return ((await response.json()) as { data: { id: string }[] }).data.map((row) => row.id);
      };
      const served = await pageOf(origin, { authorization: `Bearer ${keys[0]}` });
      const control = await pageOf(controlOrigin, {});
      if (served.length !== 25 || JSON.stringify(served) !== JSON.stringify(control)) {
        throw new Error(
          `the control's page differs from the service's (${control.length} and ${served.length} items)`,
        );
      }
      const ratios: number[] = [];
      for (let run = 1; run <= RUNS; run++) {
        const bareResult = await runLoad({ ...load, origin: controlOrigin, headers: [{}] });
        await advance(32 * 24 * 3600);
        const ticker = setInterval(() => void advance(61).catch(() => {}), 250);
        let measured: LoadResult;
        try {
          measured = await runLoad({
            ...load,
            origin,
            headers: keys.map((key) => ({ authorization: `Bearer ${key}` })),
          });
        } finally {
          clearInterval(ticker);
        }
        const refused = measured.requests - (measured.statuses['200'] ?? 0);
        ratios.push(measured.perSecond / bareResult.perSecond);
        console.log(
          `run ${run}: jornada ${measured.perSecond.toFixed(0)} req/s (p50 ${measured.p50Ms.toFixed(2)} ms, p99 ${measured.p99Ms.toFixed(2)} ms` +
            `${refused > 0 ? `, ${refused} not 200: ${JSON.stringify(measured.statuses)}` : ''}); ` +
            `control ${bareResult.perSecond.toFixed(0)} req/s (p50 ${bareResult.p50Ms.toFixed(2)} ms, p99 ${bareResult.p99Ms.toFixed(2)} ms); ` +
            `ratio ${(measured.perSecond / bareResult.perSecond).toFixed(2)}`,
        );
      }
      const summary = summarize(ratios);
      console.log(ratioLine('platform overhead (jornada / bare route)', summary, GOAL, 'at least'));
      return summary.median >= GOAL
        ? []
        : [`platform: median ratio ${summary.median.toFixed(2)} below ${GOAL}`];
    } finally {
      await stopChild(bare);
    }
  } finally {
    await service.stop();
  }
}
