import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { tenantScopeOf } from '../../db/companies.ts';
import type { Db, Executor } from '../../db/database.ts';
import { selectEmployedDuring } from '../../db/employees.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { newId } from '../../platform/ids.ts';
import type { CursorCodec } from '../../platform/pagination.ts';
import type { SealedDocuments } from '../../platform/ports.ts';
import type { TenantScope } from '../../platform/tenant.ts';
import { monthRange } from '../../time/calendar.ts';
import { type Clock, FrozenClock, toDate } from '../../time/clock.ts';
import { notify } from '../notifications/notifications.service.ts';
import { monthSeals } from '../registry/months.service.ts';
import { appendToChain, appendToCompanyChain } from '../registry/registry.service.ts';
import { sheetName, xlsxDocumentsStream } from '../reports/document-xlsx.ts';
import { csvStream } from '../reports/file-writers.ts';
import { pdfStream } from '../reports/pdf.ts';
import { TIME_REGISTRY_COLUMNS, timeRegistryRows } from '../reports/report-rows.ts';
import {
  type DocumentLocale,
  type WorkerDocument,
  workerMonthlyDocuments,
} from '../reports/worker-documents.ts';
import { lockDaysOf } from '../workdays/write-days.ts';
import {
  claimDocumentWork,
  deleteDocumentWork,
  hasDocumentWork,
  insertDocument,
  latestCompanyEdition,
  latestDocument,
  nextDocumentWork,
  pendingCompanyWork,
  pendingWorkOf,
} from './month-documents.repo.ts';

/**
 * The sealed documents of closed months (docs/registry.md, "Sealed documents"): closing a month, and each new
 * version a correction makes, queues them; they are made from the records as they stand (a sealed month's
 * figures cannot change but through a version, whose writer makes the previous version's documents first), and
 * stored immutably with their SHA-256 in the chain. Downloads of a closed month serve these bytes.
 */

/** The languages and formats each worker's month is stored in. */
const LOCALES: readonly DocumentLocale[] = ['es', 'en'];
const WORKER_FORMATS = ['pdf', 'xlsx'] as const;

type MakeDeps = { clock: Clock; cursors: CursorCodec };

/** A worker's month, as each stored file: PDF and XLSX in each language. */
async function workerFiles(
  db: Executor,
  deps: MakeDeps,
  tenant: TenantScope,
  employeeId: string,
  month: string,
): Promise<SealedFile[]> {
  const now = deps.clock.now();
  const clock = new FrozenClock(now);
  // The worker's month read once, then laid out four times (two formats, two languages).
  const read: WorkerDocument[] = [];
  for await (const document of workerMonthlyDocuments(db as Db, clock, deps.cursors, tenant, {
    month: month.slice(0, 7),
    employee_id: employeeId,
  })) {
    read.push(document);
  }
  const files: SealedFile[] = [];
  for (const locale of LOCALES) {
    for (const format of WORKER_FORMATS) {
      const documents = (async function* () {
        yield* read;
      })();
      const stream = (format === 'pdf' ? pdfStream : xlsxDocumentsStream)(documents, {
        locale,
        generatedAt: now,
        counter: { rows: 0 },
      });
      files.push({ format, locale, content: await buffer(stream) });
    }
  }
  return files;
}

/**
 * Makes every document of the worker still to make (of one month, or of all), in the caller's transaction, under
 * the worker's row lock that the caller holds.
 */
export async function makeWorkerDocuments(
  tx: Executor,
  deps: MakeDeps,
  tenant: TenantScope,
  employeeId: string,
  month?: string,
): Promise<void> {
  const pending = await pendingWorkOf(tx, tenant.companyId, employeeId, month);
  const at = toDate(deps.clock.now());
  const made = new Set<string>();
  // Versions of a month queued together (none was made before the next was written) all show the month as it is.
  for (const work of pending) {
    const key = `${work.month}|${work.version}`;
    if (made.has(key)) continue;
    made.add(key);
    const files = await workerFiles(tx, deps, tenant, employeeId, work.month);
    await storeMonthDocuments(tx, tenant.companyId, employeeId, work.month, work.version, files, at);
    // The month closed and its document made: the worker is told, with the PDF attached to the e-mail
    // (ET arts. 12.4.c and 35.5 ask for the summary with the payslip; issue 39).
    if (work.version === 1) {
      await notify(tx, tenant.companyId, at, [
        {
          kind: 'month_closed',
          to: [{ type: 'employee', id: employeeId }],
          data: { month: work.month.slice(0, 7) },
          screen: 'record',
        },
      ]);
    }
  }
  await deleteDocumentWork(
    tx,
    tenant.companyId,
    pending.map((work) => work.id),
  );
}

/** Makes the next edition of the company's CSV of a month when one is queued, in a repeatable-read snapshot. */
async function makeCompanyEdition(tx: Executor, deps: MakeDeps, tenant: TenantScope, month: string) {
  const pending = await pendingCompanyWork(tx, tenant.companyId, month);
  if (pending.length === 0) return;
  const clock = new FrozenClock(deps.clock.now());
  const content = await buffer(
    csvStream(
      TIME_REGISTRY_COLUMNS,
      timeRegistryRows(tx as Db, clock, deps.cursors, tenant, { month: month.slice(0, 7) }),
    ),
  );
  const edition = (await latestCompanyEdition(tx, tenant.companyId, month)) + 1;
  await storeMonthDocuments(
    tx,
    tenant.companyId,
    null,
    month,
    edition,
    [{ format: 'csv', locale: 'es', content }],
    toDate(clock.now()),
  );
  await deleteDocumentWork(
    tx,
    tenant.companyId,
    pending.map((work) => work.id),
  );
}

/**
 * The job's tick: makes the oldest queued documents. A worker's are made under the worker's row lock, taken before
 * the queue row's (the order a correction's flush uses too); a company CSV in a repeatable-read snapshot.
 */
export async function makeDueDocuments(deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>): Promise<number> {
  const next = await nextDocumentWork(deps.db);
  if (!next) return 0;
  const tenant = await tenantScopeOf(deps.db, next.company_id);
  if (!tenant) return 0;
  if (next.employee_id === null) {
    return await deps.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        if (!(await claimDocumentWork(tx, next.company_id, next.id))) return 0;
        await makeCompanyEdition(tx, deps, tenant, next.month);
        return 1;
      });
  }
  const employeeId = next.employee_id;
  return await deps.db.transaction().execute(async (tx) => {
    await lockDaysOf(tx, tenant.companyId, [employeeId]);
    if (!(await claimDocumentWork(tx, next.company_id, next.id))) return 0;
    await makeWorkerDocuments(tx, deps, tenant, employeeId, next.month);
    return 1;
  });
}

/** A file of a sealed month as made, before it is stored. */
export type SealedFile = { format: 'pdf' | 'xlsx' | 'csv'; locale: 'es' | 'en'; content: Buffer };

/**
 * Stores a closed month's documents, immutably, each with its SHA-256 in the chain: a worker's in the worker's
 * chain, the company's CSV (`employeeId` null) in the company's. Call it under the worker's lock (or, for the
 * CSV, in the snapshot it was made from). A file stored already is left as it is.
 */
export async function storeMonthDocuments(
  tx: Executor,
  companyId: string,
  employeeId: string | null,
  month: string,
  version: number,
  files: readonly SealedFile[],
  at: Date,
): Promise<void> {
  for (const file of files) {
    const id = newId();
    const sha256 = createHash('sha256').update(file.content).digest();
    const row = {
      id,
      company_id: companyId,
      employee_id: employeeId,
      month: `${month.slice(0, 7)}-01`,
      version,
      format: file.format,
      locale: file.locale,
      sha256,
      content: file.content,
      created_at: at,
    };
    if (!(await insertDocument(tx, row))) continue;
    const fact = {
      kind: 'month_document',
      subjectId: id,
      content: documentFactContent({ ...row, employee_id: employeeId }),
      recordedAt: at,
    };
    if (employeeId === null) await appendToCompanyChain(tx, companyId, fact);
    else await appendToChain(tx, companyId, employeeId, fact);
  }
}

/** A sealed document as its chain entry records it. */
export type DocumentFact = {
  id: string;
  employee_id: string | null;
  month: string;
  version: number;
  format: string;
  locale: string;
  sha256: Buffer;
};

/** The canonical content of a sealed document's chain entry (verification recomputes it from the stored bytes). */
export function documentFactContent(row: DocumentFact): Record<string, unknown> {
  return {
    document_id: row.id,
    employee_id: row.employee_id,
    month: row.month.slice(0, 7),
    version: row.version,
    format: row.format,
    locale: row.locale,
    sha256: row.sha256.toString('hex'),
  };
}

/** The port AppDeps carries: corrections and answers flush a worker's queued documents before they write. */
export function sealedDocuments(deps: MakeDeps): SealedDocuments {
  return {
    async flush(tx, companyId, employeeId) {
      const tenant = await tenantScopeOf(tx, companyId);
      if (tenant) await makeWorkerDocuments(tx, deps, tenant, employeeId);
    },
  };
}

export type SealedDownload = {
  content: Readable;
  sha256: string;
  version: number;
};

/**
 * A closed month's stored document of a worker (or, `employeeId` null, the company's CSV), made first when it is
 * still queued; undefined when the month has none (it is open).
 */
export async function sealedDocument(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: TenantScope,
  employeeId: string | null,
  month: string,
  format: 'pdf' | 'xlsx' | 'csv',
  locale: DocumentLocale,
): Promise<SealedDownload | undefined> {
  const first = `${month.slice(0, 7)}-01`;
  // Nothing queued (the common case, and every open month): read the stored file without a transaction or the
  // worker's lock. Otherwise make the queued documents first, under the lock every writer of the worker takes.
  const stored = (await hasDocumentWork(deps.db, tenant.companyId, employeeId, first))
    ? await makeQueuedThenRead(deps, tenant, employeeId, first, format, locale)
    : await latestDocument(deps.db, tenant.companyId, employeeId, first, format, locale);
  if (!stored) return undefined;
  return {
    content: Readable.from([stored.content]),
    sha256: stored.sha256.toString('hex'),
    version: stored.version,
  };
}

async function makeQueuedThenRead(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: TenantScope,
  employeeId: string | null,
  first: string,
  format: 'pdf' | 'xlsx' | 'csv',
  locale: DocumentLocale,
) {
  const transaction = deps.db.transaction();
  const isolated = employeeId === null ? transaction.setIsolationLevel('repeatable read') : transaction;
  return await isolated.execute(async (tx) => {
    if (employeeId === null) {
      await makeCompanyEdition(tx, deps, tenant, first);
    } else {
      await lockDaysOf(tx, tenant.companyId, [employeeId]);
      await makeWorkerDocuments(tx, deps, tenant, employeeId, first);
    }
    return await latestDocument(tx, tenant.companyId, employeeId, first, format, locale);
  });
}

/**
 * Every worker's stored document of a closed month in one file (the all-workers `time_registry_worker_monthly`
 * report): the stored PDFs' pages copied as they are, or the stored workbooks' sheets copied cell by cell, in
 * worker id order; undefined when the month is open. Nothing is laid out again.
 */
export async function sealedMonthCompilation(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: TenantScope,
  month: string,
  format: 'pdf' | 'xlsx',
  locale: DocumentLocale,
  counter: { rows: number },
): Promise<Buffer | undefined> {
  if (!(month in (await monthSeals(deps.db, tenant.companyId, [month])))) return undefined;
  const { from, to } = monthRange(month);
  const employees = await selectEmployedDuring(deps.db, tenant.companyId, from, to).orderBy('id').execute();
  const files: Buffer[] = [];
  for (const employee of employees) {
    const stored = await sealedDocument(deps, tenant, employee.id, month, format, locale);
    if (stored) files.push(await buffer(stored.content));
  }
  counter.rows += files.length;
  return format === 'pdf' ? await mergedPdf(files) : await mergedWorkbook(files);
}

async function mergedPdf(files: readonly Buffer[]): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const merged = await PDFDocument.create();
  for (const file of files) {
    const source = await PDFDocument.load(file);
    for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
  }
  return Buffer.from(await merged.save());
}

async function mergedWorkbook(files: readonly Buffer[]): Promise<Buffer> {
  const ExcelJS = (await import('exceljs')).default;
  const merged = new ExcelJS.Workbook();
  merged.creator = 'Jornada';
  const taken = new Set<string>();
  for (const file of files) {
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file as unknown as ArrayBuffer);
    for (const source of book.worksheets) {
      const sheet = merged.addWorksheet(sheetName(source.name, taken), {
        pageSetup: { ...source.pageSetup },
        headerFooter: { ...source.headerFooter },
      });
      sheet.columns = source.columns.map((column) => ({ width: column.width ?? 10 }));
      for (const range of source.model.merges ?? []) {
        sheet.mergeCells(range);
      }
      source.eachRow({ includeEmpty: true }, (row, number) => {
        const target = sheet.getRow(number);
        if (row.height !== undefined) target.height = row.height;
        row.eachCell({ includeEmpty: true }, (cell, column) => {
          const copy = target.getCell(column);
          if (!copy.isMerged || copy.master === copy) copy.value = cell.value;
          copy.style = structuredClone(cell.style);
        });
      });
    }
  }
  return Buffer.from(await merged.xlsx.writeBuffer());
}

/** The stored PDF of a worker's closed month in a language (the month-closed e-mail attaches it); undefined: none. */
export async function storedWorkerPdf(
  db: Executor,
  companyId: string,
  employeeId: string,
  month: string,
  locale: DocumentLocale,
): Promise<Buffer | undefined> {
  return (await latestDocument(db, companyId, employeeId, `${month.slice(0, 7)}-01`, 'pdf', locale))?.content;
}

/** Whether any closed month's documents wait to be made (the job starts a process only then). */
export async function hasDueDocuments(db: Executor): Promise<boolean> {
  return (await nextDocumentWork(db)) !== undefined;
}
