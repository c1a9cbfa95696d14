import { once } from 'node:events';
import { PassThrough, pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import type ExcelJS from 'exceljs';
import { excelJs } from './lazy-modules.ts';

/**
 * File writers for reports: rows in (an async iterable, read from a database cursor), bytes out (a stream), with
 * flat memory. Column kinds decide how a value is written in each format.
 */
export type ColumnKind = 'text' | 'integer' | 'decimal' | 'boolean' | 'date' | 'instant' | 'local';

/** `header`: a header of the caller's own (a payroll concept map's), instead of the locale's. */
export type Column = { key: string; kind: ColumnKind; width?: number; header?: string };

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

/**
 * How an export is laid out (issue 39): `en` (the default, unchanged since v1: column keys as headers, commas,
 * true/false, decimal points), or `es`, as Spanish Excel opens it: Spanish headers, `;` between fields, sí/no,
 * decimal commas, the sheet named in Spanish. The values and their order are the same in both.
 */
export type ExportLocale = 'es' | 'en';

/** The Spanish header of each column key of the exports (report-rows.ts); a key not listed keeps its name. */
const SPANISH_HEADERS: Record<string, string> = {
  check_in_id: 'id_fichaje',
  employee_id: 'id_empleado',
  external_id: 'id_externo',
  employee_name: 'empleado',
  type: 'tipo',
  timestamp_utc: 'hora_utc',
  local_time: 'hora_local',
  source: 'origen',
  status: 'estado',
  late: 'tardío',
  correction_id: 'id_corrección',
  voided_by_correction_id: 'anulado_por_corrección',
  recorded_by_type: 'registrado_por_tipo',
  recorded_by_id: 'registrado_por_id',
  key_kind: 'tipo_de_clave',
  recorded_at_utc: 'registrado_utc',
  worker_confirmed: 'confirmado_por_el_trabajador',
  worker_response: 'respuesta_del_trabajador',
  date: 'fecha',
  first_in: 'primera_entrada',
  last_out: 'última_salida',
  shifts: 'tramos',
  break_minutes: 'minutos_pausa',
  worked_minutes: 'minutos_trabajados',
  expected_minutes: 'minutos_previstos',
  overtime_minutes: 'minutos_extra',
  night_minutes: 'minutos_nocturnos',
  absence_type: 'ausencia',
  incomplete: 'incompleto',
  intervals: 'intervalos',
  worked_hhmm: 'trabajado_hhmm',
  break_hhmm: 'pausa_hhmm',
  expected_hhmm: 'previsto_hhmm',
  overtime_hhmm: 'extra_hhmm',
  night_hhmm: 'nocturno_hhmm',
  holiday: 'festivo',
  late_records: 'registros_tardíos',
  corrected: 'corregido',
  work_mode: 'modalidad',
  breaks: 'pausas',
  records_by_others: 'registros_de_otros',
  disputed_records: 'registros_discutidos',
  conflict: 'conflicto',
  complementary_minutes: 'minutos_complementarios',
  complementary_hhmm: 'complementario_hhmm',
  recorded_offline: 'hecho_sin_conexión',
  device_time_utc: 'hora_del_dispositivo_utc',
  offline_records: 'registros_sin_conexión',
  // payroll_variables (issue 41)
  worker_id: 'id_trabajador',
  month: 'mes',
  concept: 'concepto',
  code: 'código',
  concept_name: 'nombre_concepto',
  hours: 'horas',
  minutes: 'minutos',
  days: 'días',
  from: 'desde',
  to: 'hasta',
  provisional: 'provisional',
};

/** A column's header in an export's locale (or its own). */
export const headerOf = (column: Column, locale: ExportLocale) =>
  column.header ?? (locale === 'es' ? (SPANISH_HEADERS[column.key] ?? column.key) : column.key);

/** A number as the locale writes it: 7.5 or 7,5. */
const numberText = (value: number, locale: ExportLocale) =>
  locale === 'es' ? String(value).replace('.', ',') : String(value);

/** A yes/no as the locale writes it. */
const booleanText = (value: boolean, locale: ExportLocale) =>
  locale === 'es' ? (value ? 'sí' : 'no') : value ? 'true' : 'false';

/** CSV per RFC 4180: CRLF records, fields quoted when needed and quotes doubled, UTF-8 with a BOM for Excel. */
export function csvStream(
  columns: Column[],
  rows: AsyncIterable<Row>,
  options: { locale?: ExportLocale } = {},
): Readable {
  const locale = options.locale ?? 'en';
  const kinds = new Map(columns.map((column) => [column.key, column.kind]));
  const stringifier = stringify({
    header: true,
    bom: true,
    delimiter: locale === 'es' ? ';' : ',',
    record_delimiter: 'windows',
    // With CRLF records, csv-stringify quotes a field only for a whole CRLF: a lone LF or CR would end the
    // record in a spreadsheet and start a forged one. Every field holding either is quoted.
    quoted_match: /[\r\n]/,
    columns: columns.map((column) => ({ key: column.key, header: headerOf(column, locale) })),
    cast: {
      boolean: (value) => booleanText(value, locale),
      date: (value) => instantText(value),
      number: (value) => numberText(value, locale),
      string: (value, context) => (kinds.get(String(context.column)) === 'text' ? neutralize(value) : value),
    },
  });
  pipeline(Readable.from(rows), stringifier, () => {});
  return stringifier;
}

/**
 * A stored CSV of the `en` layout (a closed month's sealed company file) laid out in another locale, value for
 * value: the sealed bytes stay what the chain hashes, and a Spanish reader gets the same rows as Spanish Excel
 * opens them.
 */
export function relaidCsv(columns: Column[], stored: Readable, locale: ExportLocale): Readable {
  if (locale === 'en') return stored;
  const kinds = new Map(columns.map((column) => [column.key, column.kind]));
  const rows = (async function* () {
    const parser = stored.pipe(parse({ bom: true, columns: true, relax_column_count: true }));
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      const row: Row = {};
      for (const [key, text] of Object.entries(record)) {
        const kind = kinds.get(key);
        row[key] =
          kind === 'boolean'
            ? text === 'true'
            : (kind === 'integer' || kind === 'decimal') && text !== ''
              ? Number(text)
              : text;
      }
      yield row;
    }
  })();
  return csvStream(columns, rows, { locale });
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
  options: { sheetName: string; rowsPerSheet?: number; locale?: ExportLocale },
): Readable {
  const locale = options.locale ?? 'en';
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
    const header = sheet.addRow(columns.map((column) => headerOf(column, locale)));
    header.font = { bold: true };
    header.commit();
    return sheet;
  };
  const cell = (kind: ColumnKind, value: Row[string]) => {
    if (value === null || value === undefined) return null;
    if (kind === 'text') return neutralize(String(value));
    if (kind === 'boolean' && locale === 'es') return booleanText(Boolean(value), locale);
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
