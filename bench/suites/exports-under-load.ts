import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import type { BenchCluster } from '../lib/cluster.ts';
import { employeesLoad, type LoadResult, runLoad } from '../lib/load.ts';
import { ratioLine, summarize } from '../lib/ratios.ts';
import { calendarsExtended, startService } from '../lib/service.ts';
import { openWorkSummariesData } from './work-summaries.ts';

/** Issue 19: the API's p99 while a 1M-row export runs, at most this many times its p99 at rest. */
const GOAL = 2;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const RATE = 200;
const IDLE_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
/** 200 requests a second over 150 live keys: 80 a minute each, under the 120 a key may make. */
const KEYS = 150;
/** About 1M check-ins of the work-summaries data set (2,000 employees, four a weekday). */
const EXPORT_RANGE = { from: '2025-01-06', to: '2025-06-29' };
/** BENCH_FORMATS=csv (or xlsx) measures one format only, for a profile. */
const FORMATS = (process.env.BENCH_FORMATS ?? 'csv,xlsx').split(',') as Array<'csv' | 'xlsx'>;

const milliseconds = (result: LoadResult) =>
  `p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${result.requests} requests` +
  `${result.requests !== (result.statuses['200'] ?? 0) ? `, statuses ${JSON.stringify(result.statuses)}` : ''}`;

/**
 * `GET /v1/employees?limit=25` at a steady 200 requests a second (open loop: a late answer does not slow the
 * sender, so queueing shows in the latency) against `jornada serve --role=all`, first at rest, then while the same
 * process generates a `check_ins_export` of about 1M rows, in CSV and in XLSX. The load during an export starts
 * when the worker has claimed the report and stops when the report is completed; its p99 over the p99 at rest is
 * the run's ratio for that format, and each format's median over the runs must stay within GOAL.
 */
export async function exportsUnderLoadSuite(cluster: BenchCluster): Promise<string[]> {
  const { db, companyId } = await openWorkSummariesData(cluster);
  // Every run starts with no key of earlier runs active and no requests counted against the monthly quota.
  await sql`update api_keys set revoked_at = now()
            where company_id = ${companyId} and revoked_at is null`.execute(db);
  await sql`delete from quota_usage where company_id = ${companyId}`.execute(db);
  await sql`delete from rate_limit_windows where company_id = ${companyId}`.execute(db);
  const service = await startService(cluster.url('bench_work_summaries'), 'all');
  const failures: string[] = [];
  try {
    const { origin, admin } = service;
    // The worker first extends every employee's calendar to the end of the year (once for a data set): the
    // measurement waits for it, so that only the export competes with the requests.
    await calendarsExtended(db, companyId);
    await admin('PATCH', `/companies/${companyId}`, { max_active_keys: KEYS });
    const { keys, load } = await employeesLoad(service, companyId, {
      keys: KEYS,
      rate: RATE,
      scopes: ['org:empleados:read', 'org:informes:read'],
    });
    const exportWhileLoaded = async (format: 'csv' | 'xlsx') => {
      const created = await fetch(`${origin}/v1/reports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys[0]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'check_ins_export', format, params: EXPORT_RANGE }),
      });
      if (created.status !== 202 && created.status !== 201) {
        throw new Error(`POST /v1/reports: ${created.status} ${await created.text()}`);
      }
      const { id } = (await created.json()) as { id: string };
      const state = () =>
        db
          .selectFrom('reports')
          .select(['status', 'attempts', 'row_count'])
          .where('company_id', '=', companyId)
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      while ((await state()).attempts === 0) await delay(20);
      const claimed = performance.now();
      let completedAt = 0;
      const completed = (async () => {
        for (;;) {
          const report = await state();
          if (report.status !== 'processing') {
            completedAt = performance.now();
            return report;
          }
          await delay(50);
        }
      })();
      const during = await runLoad({ ...load, durationMs: 300_000, warmupMs: 500 }, completed);
      const report = await completed;
      if (report.status !== 'completed') throw new Error(`the ${format} export ended ${report.status}`);
      return { during, seconds: (completedAt - claimed) / 1000, rows: report.row_count ?? 0 };
    };
    const ratios = { csv: [] as number[], xlsx: [] as number[] };
    for (let run = 1; run <= RUNS; run++) {
      // At rest: after the previous export's process has gone and its file is written.
      await delay(2_000);
      const idle = await runLoad({ ...load, durationMs: IDLE_MS, warmupMs: 1_500 });
      console.log(`run ${run}: at rest ${milliseconds(idle)}`);
      for (const format of FORMATS) {
        const { during, seconds, rows } = await exportWhileLoaded(format);
        const ratio = during.p99Ms / idle.p99Ms;
        ratios[format].push(ratio);
        console.log(
          `run ${run}: during the ${format} export (${rows} rows in ${seconds.toFixed(1)} s) ${milliseconds(during)}; ` +
            `p99 ratio ${ratio.toFixed(2)}`,
        );
      }
    }
    for (const format of FORMATS) {
      const summary = summarize(ratios[format]);
      console.log(ratioLine(`API p99 during a ${format} export / at rest`, summary, GOAL, 'at most'));
      if (summary.median > GOAL) {
        failures.push(
          `exports under load: ${format} median p99 ratio ${summary.median.toFixed(2)} above ${GOAL}`,
        );
      }
    }
  } finally {
    await service.stop();
    await db.destroy();
  }
  return failures;
}
