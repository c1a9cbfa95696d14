import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { withSyncStamp } from '../db/sync-stamp.ts';
import { recordEvents } from '../modules/events/events.service.ts';
import { payrollLayout } from '../modules/payroll/payroll.service.ts';
import {
  type ClaimedReport,
  claimDueReport,
  claimExpiredReports,
  markReportExpired,
  updateOwnedReport,
} from '../modules/reports/reports.repo.ts';
import { FILE_RETENTION_DAYS } from '../modules/reports/reports.service.ts';
import type { ReportStore } from '../modules/reports/store.ts';
import { reportDuration } from '../platform/metrics.ts';
import type { CursorCodec } from '../platform/pagination.ts';
import { type Clock, toDate } from '../time/clock.ts';
import { inProcessWriter, type ReportWriter } from './report-file.ts';
import type { Job } from './runner.ts';

export type ReportGenerationDeps = {
  db: Db;
  /** Where the long streaming reads run: a pool without a statement timeout (default: db). */
  streamDb?: Db;
  clock: Clock;
  cursors: CursorCodec;
  store: ReportStore;
  /** Who writes the files (default: this process, from streamDb); the service uses processWriter. */
  write?: ReportWriter;
  /** How long one generation may take before it is stopped and counted as a failed attempt (default 15 min). */
  timeoutMs?: number;
  log?: Logger;
};

/** JORNADA_REPORT_TIMEOUT_MS's default: far beyond the 1M-row XLSX (about 25 s, docs/performance.md). */
export const DEFAULT_REPORT_TIMEOUT_MS = 15 * 60_000;

/**
 * A claimed generation owns its report until the lease ends; the worker extends it while it writes, so only a
 * dead worker's report is claimed again (and regenerated from scratch).
 */
export const REPORT_LEASE_SECONDS = 120;
const HEARTBEAT_MILLISECONDS = 20_000;
/** After this many attempts (crashes included), the report is failed rather than left processing forever. */
export const MAX_REPORT_ATTEMPTS = 3;
const RETENTION_BATCH = 100;

/** Claims one due report under a lease, taking turns across tenants (reports.repo.ts, claimDueReport). */
async function claimReport(db: Db, clock: Clock): Promise<ClaimedReport | null> {
  const now = clock.now();
  const at = toDate(now);
  return await claimDueReport(db, at, toDate(now.add({ seconds: REPORT_LEASE_SECONDS })));
}

/** Deletes the files of reports past retention and marks them expired. */
export async function expireReports(db: Db, store: ReportStore, now: Temporal.Instant): Promise<number> {
  return await db.transaction().execute(async (tx) => {
    const due = await claimExpiredReports(tx, toDate(now), RETENTION_BATCH);
    for (const report of due) {
      // The file goes first, while the row is locked: a crash leaves a completed row without a file (swept
      // again), never an orphaned file.
      if (report.storage_key) await store.delete(report.storage_key);
      await markReportExpired(tx, report, toDate(now));
    }
    return due.length;
  });
}

/**
 * Generates reports, one at a time per worker: claims a due report (SKIP LOCKED), streams its rows from the
 * database into the store, and completes it with `report.completed` in one transaction. Also sweeps expired
 * files.
 */
export function reportGenerationJob(deps: ReportGenerationDeps): Job {
  const write =
    deps.write ??
    inProcessWriter({ streamDb: deps.streamDb ?? deps.db, cursors: deps.cursors, store: deps.store });
  const generate = async (report: ClaimedReport) => {
    const at = () => toDate(deps.clock.now());
    const fail = (message: string) =>
      updateOwnedReport(deps.db, report, {
        status: 'failed',
        run_at: null,
        error_code: 'generation_failed',
        error_message: message,
        updated_at: at(),
      });
    if (report.attempts > MAX_REPORT_ATTEMPTS) {
      await fail(`Generation did not finish in ${MAX_REPORT_ATTEMPTS} attempts.`);
      return;
    }
    // A payroll report whose concept map was deleted since it was requested cannot be made: no attempt will
    // change that, so it fails now and says why (the file's codes cannot be guessed).
    const mapId = report.type === 'payroll_variables' ? report.params.concept_map_id : undefined;
    if (mapId !== undefined && !(await payrollLayout(deps.db, report.company_id, mapId))) {
      await fail('The concept map of this report was deleted after it was requested.');
      return;
    }
    const heartbeat = setInterval(() => {
      updateOwnedReport(deps.db, report, {
        run_at: toDate(deps.clock.now().add({ seconds: REPORT_LEASE_SECONDS })),
      }).catch((error: unknown) =>
        deps.log?.warn({ err: error, report: report.id }, 'report lease not extended'),
      );
    }, HEARTBEAT_MILLISECONDS);
    const key = `${report.company_id}/${report.id}-${report.attempts}.${report.format}`;
    let rows = 0;
    // Wall time for the metrics (not the service clock, which a test may move).
    const started = performance.now();
    const observe = (outcome: 'completed' | 'failed') =>
      reportDuration.observe(
        { type: report.type, format: report.format, outcome },
        (performance.now() - started) / 1000,
      );
    // A generation that hangs (a read stuck behind a lock, a process that stopped answering) would otherwise keep
    // extending its lease, and hold this worker's report slot, for good. Wall time, like the heartbeat.
    const timeoutMs = deps.timeoutMs ?? DEFAULT_REPORT_TIMEOUT_MS;
    const limit = new AbortController();
    const timer = setTimeout(
      () => limit.abort(new Error(`report generation took longer than ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      rows = await write(report, deps.clock.now(), key, limit.signal);
    } catch (error) {
      clearTimeout(timer);
      clearInterval(heartbeat);
      observe('failed');
      await deps.store.delete(key);
      const final = report.attempts >= MAX_REPORT_ATTEMPTS;
      deps.log?.error(
        { err: error, report: report.id, attempt: report.attempts, timedOut: limit.signal.aborted },
        limit.signal.aborted ? 'report generation timed out' : 'report generation failed',
      );
      if (final) {
        await fail(
          limit.signal.aborted
            ? `The file could not be generated within ${Math.round(timeoutMs / 1000)} seconds.`
            : 'The file could not be generated.',
        );
      } else {
        await updateOwnedReport(deps.db, report, {
          run_at: toDate(deps.clock.now().add({ seconds: 30 * report.attempts })),
          updated_at: at(),
        });
      }
      return;
    }
    clearTimeout(timer);
    clearInterval(heartbeat);
    observe('completed');
    const completed = await withSyncStamp(deps.db, deps.clock, report.company_id, async (tx, completedAt) => {
      const updated = await updateOwnedReport(tx, report, {
        status: 'completed',
        run_at: null,
        storage_key: key,
        row_count: rows,
        completed_at: toDate(completedAt),
        file_expires_at: toDate(completedAt.add({ hours: 24 * FILE_RETENTION_DAYS })),
        updated_at: toDate(completedAt),
      });
      if (!updated) return false;
      await recordEvents(tx, report.company_id, toDate(completedAt), [
        { type: 'report.completed', data: { report_id: report.id, status: 'completed' } },
      ]);
      return true;
    });
    // Another attempt took the report over (this one outlived its lease): its file is the one kept.
    if (!completed) await deps.store.delete(key);
  };

  return {
    name: 'report-generation',
    idleMilliseconds: 500,
    async tick() {
      const expired = await expireReports(deps.db, deps.store, deps.clock.now());
      const report = await claimReport(deps.db, deps.clock);
      if (report) await generate(report);
      return expired + (report ? 1 : 0);
    },
  };
}
