import { parse } from 'csv-parse/sync';
import type ExcelJS from 'exceljs';
import { ApiError, invalid } from '../../platform/errors.ts';
import { excelJs } from '../reports/lazy-modules.ts';

/** A spreadsheet as rows of text by header, each with its line in the file (the header is line 1). */
export type Sheet = { headers: string[]; rows: Array<{ line: number; cells: Record<string, string> }> };

/** The most rows one import takes: a staff list, not a data migration (that is the API's bulk work). */
export const MAX_IMPORT_ROWS = 2000;

/**
 * Reads an uploaded CSV or XLSX (issue 39). A CSV may be separated by commas or semicolons (Spanish Excel saves
 * with `;`) and may start with a BOM; an XLSX is read from its first sheet, a date cell as YYYY-MM-DD. Empty rows
 * are skipped. A file that cannot be read is a 422 on `content`, never a 500.
 */
export async function readSheet(format: 'csv' | 'xlsx', content: Buffer): Promise<Sheet> {
  const table = format === 'csv' ? readCsv(content) : await readXlsx(content);
  const [header, ...body] = table;
  if (!header || header.every((cell) => cell.trim() === '')) throw invalid({ content: 'has no header row' });
  const headers = header.map((cell) => cell.trim());
  const rows: Sheet['rows'] = [];
  body.forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    rows.push({
      line: index + 2,
      cells: Object.fromEntries(headers.map((name, column) => [name, (cells[column] ?? '').trim()])),
    });
  });
  if (rows.length === 0) throw invalid({ content: 'has no rows under its header' });
  if (rows.length > MAX_IMPORT_ROWS) throw invalid({ content: `has more than ${MAX_IMPORT_ROWS} rows` });
  return { headers, rows };
}

function readCsv(content: Buffer): string[][] {
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  const first = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ',';
  try {
    return parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch {
    throw invalid({ content: 'is not a readable CSV file' });
  }
}

async function readXlsx(content: Buffer): Promise<string[][]> {
  // Loaded by the first workbook read, not when the service starts (as the reports' writers: issue 19).
  const workbook = new (excelJs().Workbook)();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw invalid({ content: 'is not a readable XLSX file' });
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw invalid({ content: 'has no sheet' });
  const table: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, number) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText(cell.value);
    });
    table[number - 1] = Array.from(cells, (cell) => cell ?? '');
  });
  return Array.from(table, (row) => row ?? []);
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    return '';
  }
  return String(value);
}

/** A header as compared: lower case, without accents, spaces and punctuation folded. */
export const headerKey = (header: string) =>
  header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * A date as people type it in a spreadsheet: YYYY-MM-DD, or DD/MM/YYYY (and DD-MM-YYYY, D/M/YYYY), the Spanish
 * order. Anything else is returned as is, for the field's own check to refuse.
 */
export function isoDate(text: string): string {
  const spanish = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (!spanish) return text;
  const [, day, month, year] = spanish;
  return `${year}-${(month ?? '').padStart(2, '0')}-${(day ?? '').padStart(2, '0')}`;
}

/**
 * The refusal of a commit whose rows are not all right (422): each wrong row's fields named by the row's line
 * (`line 4.email`), and the lines in the sentence, with what therefore did not happen.
 */
export function rowsRefused(
  bad: ReadonlyArray<{ line: number; errors: Record<string, string[]> }>,
  outcome: string,
): ApiError {
  const errors = Object.fromEntries(
    bad.flatMap((row) =>
      Object.entries(row.errors).map(([field, messages]) => [`line ${row.line}.${field}`, messages]),
    ),
  );
  const rows = bad.length === 1 ? 'A row has' : `${bad.length} rows have`;
  return new ApiError(
    'validation_failed',
    `${rows} errors (line ${bad.map((row) => row.line).join(', ')}): ${outcome}.`,
    { errors },
  );
}
