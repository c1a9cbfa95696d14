import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Db } from '../db/database.ts';
import {
  sealedDocument,
  sealedMonthCompilation,
} from '../modules/month-documents/month-documents.service.ts';
import { payrollLayout } from '../modules/payroll/payroll.service.ts';
import { xlsxDocumentsStream } from '../modules/reports/document-xlsx.ts';
import {
  csvStream,
  type ExportLocale,
  type Row,
  relaidCsv,
  xlsxStream,
} from '../modules/reports/file-writers.ts';
import { payrollColumns, payrollVariablesRows } from '../modules/reports/payroll-variables.ts';
import { pdfStream } from '../modules/reports/pdf.ts';
import {
  CHECK_INS_EXPORT_COLUMNS,
  checkInsExportRows,
  TIME_REGISTRY_COLUMNS,
  timeRegistryRows,
} from '../modules/reports/report-rows.ts';
import type { ClaimedReport } from '../modules/reports/reports.repo.ts';
import type { ReportStore, ReportStoreConfig } from '../modules/reports/store.ts';
import { workerMonthlyDocuments } from '../modules/reports/worker-documents.ts';
import type { CursorCodec } from '../platform/pagination.ts';
import type { TenantScope } from '../platform/tenant.ts';
import { FrozenClock } from '../time/clock.ts';
import { type BackgroundDatabase, type BackgroundOutcome, forkBackground } from './background.ts';

/**
 * Writes a report's file into the store under `key` and answers how many rows it held. `now` is the generation's
 * instant: the file is what the records said then (open days, the generation time printed on the documents),
 * whichever process writes it. When `signal` aborts (the generation's time limit), the writing stops and the
 * promise rejects with the signal's reason.
 */
export type ReportWriter = (
  report: ClaimedReport,
  now: Temporal.Instant,
  key: string,
  signal?: AbortSignal,
) => Promise<number>;

async function* counted(rows: AsyncIterable<Row>, counter: { rows: number }): AsyncIterable<Row> {
  for await (const row of rows) {
    counter.rows += 1;
    yield row;
  }
}

/** Streams a report's file from the database, in this process. */
export function reportFile(
  deps: { streamDb: Db; cursors: CursorCodec },
  report: ClaimedReport,
  now: Temporal.Instant,
  counter: { rows: number },
): Readable {
  const clock = new FrozenClock(now);
  const tenant = { companyId: report.company_id, accountId: report.account_id, timezone: report.timezone };
  return (
    sealedReportFile({ db: deps.streamDb, clock, cursors: deps.cursors }, report, tenant, counter) ??
    madeReportFile(deps, report, now, counter)
  );
}

/** Makes a report's file from the records. */
function madeReportFile(
  deps: { streamDb: Db; cursors: CursorCodec },
  report: ClaimedReport,
  now: Temporal.Instant,
  counter: { rows: number },
): Readable {
  const { streamDb, cursors } = deps;
  const clock = new FrozenClock(now);
  const tenant = { companyId: report.company_id, accountId: report.account_id, timezone: report.timezone };
  if (report.type === 'time_registry_worker_monthly') {
    return (report.format === 'xlsx' ? xlsxDocumentsStream : pdfStream)(
      workerMonthlyDocuments(streamDb, clock, cursors, tenant, {
        month: report.params.month as string,
        employee_id: report.params.employee_id,
      }),
      { locale: report.params.locale === 'en' ? 'en' : 'es', generatedAt: now, counter },
    );
  }
  const locale = exportLocaleOf(report);
  if (report.type === 'payroll_variables') return payrollVariablesFile(deps, report, clock, tenant, counter);
  if (report.type === 'time_registry_monthly') {
    return csvStream(
      TIME_REGISTRY_COLUMNS,
      counted(
        timeRegistryRows(streamDb, clock, cursors, tenant, {
          month: report.params.month as string,
          employee_id: report.params.employee_id,
        }),
        counter,
      ),
      { locale },
    );
  }
  return (report.format === 'xlsx' ? xlsxStream : csvStream)(
    CHECK_INS_EXPORT_COLUMNS,
    counted(
      checkInsExportRows(streamDb, tenant, {
        from: report.params.from as string,
        to: report.params.to as string,
        employee_id: report.params.employee_id,
      }),
      counter,
    ),
    { sheetName: locale === 'es' ? 'Fichajes' : 'Check-ins', locale },
  );
}

/**
 * payroll_variables (issue 41): the concept map is read when the file is made; a map deleted since the request
 * fails the report (its codes cannot be guessed), and the message says so.
 */
function payrollVariablesFile(
  deps: { streamDb: Db; cursors: CursorCodec },
  report: ClaimedReport,
  clock: FrozenClock,
  tenant: TenantScope,
  counter: { rows: number },
): Readable {
  const locale = exportLocaleOf(report);
  const mapId = report.params.concept_map_id;
  return Readable.from(
    (async function* () {
      const layout = await payrollLayout(deps.streamDb, tenant.companyId, mapId);
      if (!layout) throw new Error(`the concept map ${mapId} was deleted after the report was requested`);
      const rows = payrollVariablesRows(deps.streamDb, clock, deps.cursors, tenant, {
        month: report.params.month as string,
        locale,
        layout,
      });
      yield* (report.format === 'xlsx' ? xlsxStream : csvStream)(
        payrollColumns(layout),
        counted(rows, counter),
        {
          sheetName: locale === 'es' ? 'Variables de nómina' : 'Payroll variables',
          locale,
        },
      );
    })(),
  );
}

/** The layout an export asks for (params.locale): `en`, v1's, unless `es` is asked. */
const exportLocaleOf = (report: ClaimedReport): ExportLocale => (report.params.locale === 'es' ? 'es' : 'en');

/**
 * A closed month's report made of stored documents (docs/registry.md, "Sealed documents"): a worker's monthly
 * document, every worker's at once (the stored files put together), or the whole company's registry CSV, never
 * laid out again. Undefined for any other report; the stream falls back to making the file when the month has
 * no stored document (it is open).
 */
function sealedReportFile(
  deps: { db: Db; clock: FrozenClock; cursors: CursorCodec },
  report: ClaimedReport,
  tenant: TenantScope,
  counter: { rows: number },
): Readable | undefined {
  const month = report.params.month as string;
  const employeeId = report.params.employee_id;
  const one =
    report.type === 'time_registry_worker_monthly' && typeof employeeId === 'string'
      ? { employeeId, format: report.format === 'xlsx' ? ('xlsx' as const) : ('pdf' as const) }
      : report.type === 'time_registry_monthly' && employeeId === undefined
        ? { employeeId: null, format: 'csv' as const }
        : undefined;
  const locale = report.params.locale === 'en' ? 'en' : 'es';
  if (!one && report.type === 'time_registry_worker_monthly') {
    // Every worker's documents at once: the stored ones put together, when the month is closed.
    const format = report.format === 'xlsx' ? ('xlsx' as const) : ('pdf' as const);
    return Readable.from(
      (async function* () {
        const compiled = await sealedMonthCompilation(deps, tenant, month, format, locale, counter);
        if (compiled) yield compiled;
        else
          yield* madeReportFile(
            { streamDb: deps.db, cursors: deps.cursors },
            report,
            deps.clock.now(),
            counter,
          );
      })(),
    );
  }
  if (!one) return undefined;
  const file = Readable.from(
    (async function* () {
      const stored = await sealedDocument(deps, tenant, one.employeeId, month, one.format, locale);
      if (!stored) {
        yield* madeReportFile(
          { streamDb: deps.db, cursors: deps.cursors },
          // In v1's layout, like a stored file: laid out in the asked locale below.
          one.format === 'csv' ? { ...report, params: { ...report.params, locale: 'en' } } : report,
          deps.clock.now(),
          counter,
        );
        return;
      }
      for await (const chunk of stored.content) {
        const bytes = chunk as Buffer;
        counter.rows += one.format === 'csv' ? countLines(bytes) : 1;
        yield bytes;
      }
      if (one.format === 'csv') counter.rows -= 1;
    })(),
  );
  // The company's sealed CSV is stored in v1's layout: a Spanish export lays the same values out again.
  return one.format === 'csv' ? relaidCsv(TIME_REGISTRY_COLUMNS, file, exportLocaleOf(report)) : file;
}

function countLines(bytes: Buffer): number {
  let lines = 0;
  for (const byte of bytes) if (byte === 10) lines += 1;
  return lines;
}

/** Files written by the calling process: the tests' and the bench's in-process jobs. */
export function inProcessWriter(deps: {
  streamDb: Db;
  cursors: CursorCodec;
  store: ReportStore;
}): ReportWriter {
  return async (report, now, key, signal) => {
    signal?.throwIfAborted();
    const counter = { rows: 0 };
    const content = reportFile(deps, report, now, counter);
    // Destroying the content fails the store's write, which removes its partial file. (A read that waits on the
    // database ends when that read returns: the report process, which the service uses, is killed instead.)
    const stop = () => content.destroy(signal?.reason);
    // The store pipes the content only after preparing its directory: an error before then (an abort, a failed
    // read) must not be thrown as an unheard 'error' event. The store's pipeline still finds the content errored.
    content.on('error', () => {});
    signal?.addEventListener('abort', stop, { once: true });
    try {
      await deps.store.put(key, content);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
    return counter.rows;
  };
}

/** What a report process is given (`report-process.ts`), on its IPC channel. */
export type ReportProcessData = BackgroundDatabase & {
  /** The service's report store (JORNADA_REPORTS_STORE), built by `reportStore()`. */
  reportsStore: ReportStoreConfig;
  report: ClaimedReport;
  now: string;
  key: string;
};

/** What a report process says when its file is in the store, or when it could not be written. */
export type ReportProcessMessage = BackgroundOutcome<{ rows: number }>;

const ENTRY = fileURLToPath(new URL('./report-process.ts', import.meta.url));

/**
 * Files written by a process of their own (one per report, with its own database connection, at the lowest
 * scheduling priority), straight into the file store: a million rows of formatting, zipping, garbage collection
 * and file writing never hold up the event loop that answers the API in a `--role=all` process, nor take a core
 * from it when the machine is busy. The job keeps the lease, the outcome and the events, as before.
 */
export function processWriter(
  options: BackgroundDatabase & { reportsStore: ReportStoreConfig },
): ReportWriter {
  return (report, now, key, signal) =>
    new Promise<number>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      // Neither keeps this process alive nor outlives it (background.ts, test/e2e/report-process-stop.test.ts).
      const child = forkBackground(ENTRY);
      let rows: number | null = null;
      let failure: Error | null = null;
      child.on('message', (message: ReportProcessMessage) => {
        if (message.kind === 'done') rows = message.rows;
        else failure = new Error(message.message);
      });
      child.on('error', (error) => {
        failure ??= error;
        // A process that could not be started never closes: fail now.
        if (child.pid === undefined) reject(error);
      });
      // Past the generation's time limit the process is killed, wherever it is: its database session sees the
      // connection close and ends its statement (client_connection_check_interval, main.ts), and the partial
      // file it leaves is the sweep's.
      const kill = () => {
        failure = signal?.reason instanceof Error ? signal.reason : new Error('report generation aborted');
        child.kill('SIGKILL');
      };
      signal?.addEventListener('abort', kill, { once: true });
      // After the process has ended and its channel is closed (its last message came before).
      child.on('close', (code, killedBy) => {
        signal?.removeEventListener('abort', kill);
        if (rows !== null) resolve(rows);
        else reject(failure ?? new Error(`the report process stopped (${killedBy ?? `code ${code}`})`));
      });
      const data: ReportProcessData = { ...options, report, now: now.toString(), key };
      child.send(data);
    });
}
