import { once } from 'node:events';
import { PassThrough, pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type ExcelJS from 'exceljs';
import { excelJs } from './lazy-modules.ts';

/**
 * File writers for reports: rows in (an async iterable, read from a database cursor), bytes out (a stream), with
 * flat memory. Column kinds decide how a value is written in each format.
 */
export type ColumnKind = 'text' | 'integer' | 'boolean' | 'date' | 'instant' | 'local';

export type Column = { key: string; kind: ColumnKind; width?: number };

/** A row's values by column key. `date` is 'YYYY-MM-DD'; `instant` is a Date; `local` a 'YYYY-MM-DD HH:MM:SS' string. */
export type Row = Record<string, string | number | boolean | Date | null>;

/** Excel's sheet limit, header included. */
export const XLSX_MAX_ROWS_PER_SHEET = 1_048_576;

/**
 * Formula injection: a spreadsheet treats a cell that starts with =, +, - or @ as a formula, and one that starts
 * with a tab, CR or LF can smuggle one past a naive check. Text cells that start with any of them are prefixed
 * with an apostrophe (OWASP's CSV injection advice), in CSV and XLSX alike.
 */
export function neutralize(text: string): string {
  return /^[=+\-@\t\r\n]/.test(text) ? `'${text}` : text;
}

const instantText = (value: Date) => `${value.toISOString().slice(0, 19)}Z`;

/** CSV per RFC 4180: CRLF records, fields quoted when needed and quotes doubled, UTF-8 with a BOM for Excel. */
export function csvStream(columns: Column[], rows: AsyncIterable<Row>): Readable {
  const kinds = new Map(columns.map((column) => [column.key, column.kind]));
  const stringifier = stringify({
    header: true,
    bom: true,
    record_delimiter: 'windows',
    // With CRLF records, csv-stringify quotes a field only for a whole CRLF: a lone LF or CR would end the
    // record in a spreadsheet and start a forged one. Every field holding either is quoted.
    quoted_match: /[\r\n]/,
    columns: columns.map((column) => ({ key: column.key, header: column.key })),
    cast: {
      boolean: (value) => (value ? 'true' : 'false'),
      date: (value) => instantText(value),
      number: (value) => String(value),
      string: (value, context) => (kinds.get(String(context.column)) === 'text' ? neutralize(value) : value),
    },
  });
  pipeline(Readable.from(rows), stringifier, () => {});
  return stringifier;
}

/** The zip entry stream ExcelJS writes into (a readable-stream v2 PassThrough: no `writableNeedDrain`). */
type Pipe = NodeJS.WritableStream & { _writableState?: { needDrain?: boolean } };

/**
 * ExcelJS's sheet stream writes into the zip's deflate stream without heeding its backpressure, so a fast
 * producer would pile the whole sheet up in memory (measured: 658 MB at 1M rows). This waits while that
 * destination is over its high-water mark. It reads ExcelJS internals (`sheet.stream.pipes` and the pipe's `_writableState`, exceljs 4.4);
 * `npm run bench reports` fails if memory stops being flat.
 */
export async function zipBackpressure(sheet: ExcelJS.Worksheet): Promise<void> {
  const pipes = (sheet as unknown as { stream?: { pipes?: Pipe[] } }).stream?.pipes ?? [];
  for (const pipe of pipes) {
    if (pipe._writableState?.needDrain) await once(pipe, 'drain');
  }
}

/** A local wall-clock time as a Date whose UTC fields are that time: Excel has no time zones. */
function localAsDate(text: string): Date {
  return new Date(`${text.replace(' ', 'T')}Z`);
}

/**
 * XLSX through ExcelJS's streaming writer (no shared strings, so memory stays flat): a bold, frozen header row;
 * numbers as numbers and dates as dates; past the sheet limit, the rows continue on a new sheet with the header.
 */
export function xlsxStream(
  columns: Column[],
  rows: AsyncIterable<Row>,
  options: { sheetName: string; rowsPerSheet?: number },
): Readable {
  const output = new PassThrough();
  const rowsPerSheet = options.rowsPerSheet ?? XLSX_MAX_ROWS_PER_SHEET;
  const workbook = new (excelJs().stream.xlsx.WorkbookWriter)({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  const formats: Partial<Record<ColumnKind, string>> = {
    date: 'yyyy-mm-dd',
    instant: 'yyyy-mm-dd hh:mm:ss',
    local: 'yyyy-mm-dd hh:mm:ss',
  };
  // One style per column, the column's and its cells' (below): built once, not per sheet or per cell.
  const cellStyles: Readonly<Partial<ExcelJS.Style>>[] = columns.map((column) => {
    const format = formats[column.kind];
    return Object.freeze(format ? { numFmt: format } : {});
  });
  let sheetCount = 0;
  const addSheet = () => {
    sheetCount += 1;
    const sheet = workbook.addWorksheet(
      sheetCount === 1 ? options.sheetName : `${options.sheetName} ${sheetCount}`,
      {
        views: [{ state: 'frozen', ySplit: 1 }],
      },
    );
    sheet.columns = columns.map((column, index) => {
      const style = cellStyles[index] as Partial<ExcelJS.Style>;
      return { key: column.key, width: column.width ?? 16, ...(style.numFmt ? { style } : {}) };
    });
    const header = sheet.addRow(columns.map((column) => column.key));
    header.font = { bold: true };
    header.commit();
    return sheet;
  };
  const cell = (kind: ColumnKind, value: Row[string]) => {
    if (value === null || value === undefined) return null;
    if (kind === 'text') return neutralize(String(value));
    if (kind === 'date' && typeof value === 'string') return new Date(`${value}T00:00:00Z`);
    if (kind === 'local' && typeof value === 'string') return localAsDate(value);
    return value;
  };
  (async () => {
    let sheet = addSheet();
    let rowsInSheet = 1;
    for await (const row of rows) {
      if (rowsInSheet >= rowsPerSheet) {
        sheet.commit();
        sheet = addSheet();
        rowsInSheet = 1;
      }
      const added = sheet.addRow(columns.map((column) => cell(column.kind, row[column.key] ?? null)));
      // One style object per column, shared by its cells: ExcelJS then finds each cell's style id in its cache
      // by identity, instead of building and hashing a fresh style for every cell (issue 19).
      for (let index = 0; index < columns.length; index++) {
        (added.getCell(index + 1) as { style: Partial<ExcelJS.Style> }).style = cellStyles[
          index
        ] as Partial<ExcelJS.Style>;
      }
      added.commit();
      rowsInSheet += 1;
      if (rowsInSheet % 256 === 0) await zipBackpressure(sheet);
      if (output.writableNeedDrain) await once(output, 'drain');
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}
