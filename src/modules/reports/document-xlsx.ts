import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { neutralize, zipBackpressure } from './file-writers.ts';
import { excelJs } from './lazy-modules.ts';
import {
  correctionLine,
  DOCUMENT_COLUMNS,
  DOCUMENT_VERSION,
  type DocumentColumn,
  type DocumentLocale,
  dayCells,
  documentHeading,
  generatedText,
  LABELS,
  type Labels,
  limitLine,
  othersLine,
  type WorkerDocument,
} from './worker-documents.ts';

/**
 * The worker's monthly registry document as a workbook (ExcelJS's streaming writer; docs/decisions/0010): one
 * sheet per worker, laid out like the PDF (heading, a row per day, the month's totals, the corrections, signature
 * boxes, the generation time, document version and chain head) and set to print on A4, one page wide. Dates are
 * dates and the hour figures are durations (`[h]:mm`), so a payroll clerk can add them up.
 */
/** The day table's column widths, in characters. */
const WIDTHS: Record<DocumentColumn, number> = {
  day: 12,
  intervals: 30,
  mode: 14,
  worked: 11,
  ordinary: 11,
  overtime: 9,
  complementary: 9,
  night: 10,
  notes: 32,
};
const COLUMNS = DOCUMENT_COLUMNS.map((key) => ({ key, width: WIDTHS[key] }));

const DURATION = '[h]:mm';
const MINUTES_PER_DAY = 1440;
const THIN = { style: 'thin' } as const;

/** Excel's sheet names: at most 31 characters, none of []:*?/\, unique regardless of case. */
export function sheetName(name: string, taken: Set<string>): string {
  const base =
    name
      .replace(/[[\]:*?/\\]/g, ' ')
      .trim()
      .slice(0, 31) || 'Worker';
  let candidate = base;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) {
    const suffix = ` (${n})`;
    candidate = `${base.slice(0, 31 - suffix.length)}${suffix}`;
  }
  taken.add(candidate.toLowerCase());
  return candidate;
}

type SheetIndex = { _worksheets?: Array<object | undefined>; zip?: NodeJS.EventEmitter };

/**
 * The zip (archiver) deflates one entry after another, and a sheet's entry is queued when the sheet is opened:
 * until the zip reaches it, everything written to the sheet waits in memory, so a writer faster than deflate
 * piles up every later sheet (measured: 6 → 40 MB of buffers over 2,000 sheets). This lets the writer wait until
 * the zip has finished a given sheet. It reads ExcelJS 4.4 internals (the workbook's `zip`, and its entry names).
 */
function zipProgress(workbook: ExcelJS.stream.xlsx.WorkbookWriter) {
  const zip = (workbook as unknown as SheetIndex).zip;
  let done = 0;
  let failed: Error | null = null;
  let wake = () => {};
  zip?.on('entry', (entry: { name?: string }) => {
    const id = /^\/?xl\/worksheets\/sheet(\d+)\.xml$/.exec(entry.name ?? '')?.[1];
    if (id !== undefined) done = Math.max(done, Number(id));
    wake();
  });
  zip?.on('error', (error: Error) => {
    failed = error;
    wake();
  });
  return {
    /** Resolves once the zip has written the sheet with this id (at once for an id below 1, or without a zip). */
    async zipped(id: number): Promise<void> {
      while (zip && done < id) {
        if (failed) throw failed;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}

/**
 * The streaming workbook keeps every worksheet writer until its index (workbook.xml, the content types, the
 * relationships) is written at the end: about 7 KB each, so 2,000 workers' sheets held 15 MB for nothing. Once a
 * sheet is committed its content is in the zip, and the index needs only its id, name, state, print titles and
 * relationship id, so the writer is swapped for a record of those. This reads ExcelJS 4.4 internals (the
 * workbook's `_worksheets`), like zipBackpressure; `npm run bench reports` measures the memory and
 * test/worker-document.test.ts opens the workbook.
 */
function forgetCommittedSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, sheet: ExcelJS.Worksheet): void {
  const sheets = (workbook as unknown as SheetIndex)._worksheets;
  if (!sheets || sheets[sheet.id] !== sheet) return;
  sheets[sheet.id] = {
    id: sheet.id,
    name: sheet.name,
    state: sheet.state,
    pageSetup: { printTitlesRow: sheet.pageSetup.printTitlesRow },
    committed: true,
  };
}

/** Streams the documents into one workbook, a sheet per worker; counts them in `counter.rows`. */
export function xlsxDocumentsStream(
  documents: AsyncIterable<WorkerDocument>,
  options: { locale: DocumentLocale; generatedAt: Temporal.Instant; counter: { rows: number } },
): Readable {
  const label = LABELS[options.locale];
  const output = new PassThrough();
  const workbook = new (excelJs().stream.xlsx.WorkbookWriter)({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Jornada';
  const progress = zipProgress(workbook);
  (async () => {
    const taken = new Set<string>();
    let any = false;
    for await (const document of documents) {
      any = true;
      const sheet = workbook.addWorksheet(sheetName(document.worker.name, taken), {
        pageSetup: {
          paperSize: 9,
          orientation: 'portrait',
          fitToPage: true,
          fitToWidth: 1,
          fitToHeight: 0,
          // The day table's header row: after the title, the heading lines and a blank row. (It used to name
          // the first day's row.)
          printTitlesRow: `${documentHeading(document, label).length + 3}:${documentHeading(document, label).length + 3}`,
        },
        headerFooter: {
          // A name's own `&` doubled: Excel reads `&L`, `&P`, `&D` … in a footer as codes (issue 35).
          oddFooter: `&L&8${label.version}: ${DOCUMENT_VERSION} · ${document.worker.name.replaceAll('&', '&&')} · ${document.month}&R&8&P / &N`,
        },
      });
      writeDocument(sheet, document, label, options.generatedAt);
      await zipBackpressure(sheet);
      sheet.commit();
      forgetCommittedSheet(workbook, sheet);
      options.counter.rows += 1;
      // One sheet may be deflating while the next is written; no more.
      await progress.zipped(sheet.id - 1);
      if (output.writableNeedDrain) await once(output, 'drain');
    }
    if (!any) {
      const sheet = workbook.addWorksheet(label.title);
      sheet.addRow([label.title]).commit();
      sheet.commit();
    }
    await workbook.commit();
  })().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}

function writeDocument(
  sheet: ExcelJS.Worksheet,
  document: WorkerDocument,
  label: Labels,
  generatedAt: Temporal.Instant,
): void {
  sheet.columns = COLUMNS.map((column) => ({ key: column.key, width: column.width }));
  const text = (value: string | null) => (value === null ? label.none : neutralize(value));
  const title = sheet.addRow([`${label.title} · ${document.month}`]);
  title.font = { bold: true, size: 14 };
  title.commit();
  for (const [name, value] of documentHeading(document, label)) {
    const row = sheet.addRow([name, text(value)]);
    row.getCell(1).font = { bold: true };
    row.commit();
  }
  sheet.addRow([]).commit();
  const header = sheet.addRow(COLUMNS.map((column) => label[column.key]));
  header.font = { bold: true };
  header.eachCell((cell) => {
    cell.border = { bottom: THIN };
  });
  header.commit();
  const figures = (cells: ReturnType<typeof dayCells>) =>
    [cells.worked, cells.ordinary, cells.overtime, cells.complementary, cells.night].map(
      (minutes) => minutes / MINUTES_PER_DAY,
    );
  const durations = (row: ExcelJS.Row) => {
    for (const column of [4, 5, 6, 7, 8]) row.getCell(column).numFmt = DURATION;
  };
  for (const day of document.days) {
    const cells = dayCells(day, label, document.absenceLabels, document.employment.trackingStart);
    const row = sheet.addRow([
      new Date(`${String(day.date)}T00:00:00Z`),
      cells.intervals,
      cells.mode,
      ...figures(cells),
      cells.notes === '' ? null : neutralize(cells.notes),
    ]);
    // A date cell, shown with its weekday in the reader's Excel language (issue 39).
    row.getCell(1).numFmt = 'yyyy-mm-dd ddd';
    durations(row);
    row.commit();
  }
  const totals = dayCells(document.totals, label, document.absenceLabels);
  const totalsRow = sheet.addRow([label.totals, null, null, ...figures(totals)]);
  totalsRow.font = { bold: true };
  totalsRow.eachCell((cell) => {
    cell.border = { top: THIN };
  });
  durations(totalsRow);
  totalsRow.commit();
  sheet.addRow([]).commit();
  // A titled list: a bold title, then a line per item (or the empty text), then a blank row.
  const section = (title: string, empty: string, lines: string[]) => {
    const heading = sheet.addRow([title]);
    heading.font = { bold: true };
    heading.commit();
    if (lines.length === 0) sheet.addRow([empty]).commit();
    for (const line of lines) {
      const row = sheet.addRow([neutralize(`• ${line}`)]);
      row.getCell(1).alignment = { wrapText: false };
      row.commit();
    }
    sheet.addRow([]).commit();
  };
  section(
    label.corrections,
    label.noCorrections,
    document.corrections.map((correction) => correctionLine(correction, label, document.timeZone)),
  );
  section(
    label.othersTitle,
    label.noOthers,
    document.recordsByOthers.map((record) => othersLine(record, label, document.timeZone)),
  );
  section(
    label.limitsTitle,
    label.noLimits,
    document.legalLimits.map((finding) => limitLine(finding, label)),
  );
  // Signature boxes: the company's over columns A–C, the worker's over E–H, five rows high, each merged and
  // outlined. Merging restyles the merged cells, so the edges are drawn after it, before the rows
  // are committed.
  const boxes = [
    { first: 1, last: 3, name: label.companySignature },
    { first: 5, last: 8, name: label.workerSignature },
  ];
  const height = 5;
  const rows = Array.from({ length: height }, () => sheet.addRow([]));
  const top = (rows[0] as ExcelJS.Row).number;
  for (const box of boxes) {
    sheet.mergeCells(top, box.first, top + height - 1, box.last);
    const master = (rows[0] as ExcelJS.Row).getCell(box.first);
    master.value = box.name;
    for (const [line, row] of rows.entries()) {
      for (let column = box.first; column <= box.last; column++) {
        // A merged cell shares its master's style object: each gets its own.
        row.getCell(column).style = {
          alignment: { vertical: 'top' },
          border: {
            ...(line === 0 ? { top: THIN } : {}),
            ...(line === height - 1 ? { bottom: THIN } : {}),
            ...(column === box.first ? { left: THIN } : {}),
            ...(column === box.last ? { right: THIN } : {}),
          },
        };
      }
    }
  }
  for (const row of rows) row.commit();
  sheet.addRow([]).commit();
  for (const line of [
    `${label.generated}: ${generatedText(generatedAt, document.timeZone)}`,
    `${label.version}: ${DOCUMENT_VERSION}`,
    `${label.chain}: ${document.chainHead ?? label.none}`,
    ...(document.seal === null ? [] : [`${label.seal}: ${document.seal}`]),
  ]) {
    const row = sheet.addRow([line]);
    row.font = { size: 8 };
    row.commit();
  }
}
