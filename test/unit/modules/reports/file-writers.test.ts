import { buffer } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  type Column,
  csvStream,
  neutralize,
  type Row,
  relaidCsv,
  xlsxStream,
} from '../../../../src/modules/reports/file-writers.ts';

const columns: Column[] = [
  { key: 'name', kind: 'text' },
  { key: 'minutes', kind: 'integer' },
  { key: 'at', kind: 'instant' },
];

async function* rowsOf(count: number): AsyncIterable<Row> {
  for (let index = 0; index < count; index++) {
    yield {
      name: index % 2 === 0 ? `-${index}` : `row "${index}", ok`,
      minutes: index * 10,
      at: new Date(Date.UTC(2026, 0, 1, 8, index)),
    };
  }
}

describe('report writers', () => {
  it('lays a stored v1 CSV out in Spanish exactly as a Spanish export writes the same rows', async () => {
    const registry: Column[] = [
      { key: 'employee_name', kind: 'text' },
      { key: 'worked_minutes', kind: 'integer' },
      { key: 'incomplete', kind: 'boolean' },
      { key: 'holiday', kind: 'text' },
    ];
    async function* rows(): AsyncIterable<Row> {
      yield { employee_name: '=cmd', worked_minutes: 480, incomplete: false, holiday: 'Día; "grande"' };
      yield { employee_name: 'Ana, B', worked_minutes: 0, incomplete: true, holiday: '' };
    }
    const direct = await buffer(csvStream(registry, rows(), { locale: 'es' }));
    const relaid = await buffer(relaidCsv(registry, csvStream(registry, rows()), 'es'));
    expect(relaid.toString('utf8')).toBe(direct.toString('utf8'));
    expect(direct.toString('utf8')).toBe(
      '\uFEFFempleado;minutos_trabajados;incompleto;festivo\r\n' +
        `'=cmd;480;no;"Día; ""grande"""\r\n` +
        'Ana, B;0;sí;\r\n',
    );
  });

  it('neutralises formulas: =, +, - and @ get an apostrophe', () => {
    expect(['=1+1', '+34', '-2', '@SUM(A1)', 'plain', '1-2'].map(neutralize)).toEqual([
      "'=1+1",
      "'+34",
      "'-2",
      "'@SUM(A1)",
      'plain',
      '1-2',
    ]);
  });

  it('neutralises a leading tab, CR or LF too', () => {
    expect(['\t=cmd', '\r=cmd', '\n@x', 'a\tb'].map(neutralize)).toEqual([
      "'\t=cmd",
      "'\r=cmd",
      "'\n@x",
      'a\tb',
    ]);
  });

  it('quotes every field holding a lone LF or CR, so no name can start a forged record', async () => {
    async function* injected(): AsyncIterable<Row> {
      yield { name: "Inject\n=cmd|' /C calc'!A0", minutes: 1, at: new Date(Date.UTC(2026, 0, 1)) };
      yield { name: 'Carriage\r+cmd', minutes: 2, at: new Date(Date.UTC(2026, 0, 1)) };
    }
    const text = (await buffer(csvStream(columns, injected()))).toString('utf8');
    expect(text).toContain('"Inject\n=cmd|\' /C calc\'!A0"');
    expect(text).toContain('"Carriage\r+cmd"');
    const records = parse(text, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(records.map((record) => [record.name, record.minutes])).toEqual([
      ["Inject\n=cmd|' /C calc'!A0", '1'],
      ['Carriage\r+cmd', '2'],
    ]);
  });

  it('writes RFC 4180 CSV: CRLF, quoted fields with doubled quotes, a UTF-8 BOM', async () => {
    const text = (await buffer(csvStream(columns, rowsOf(3)))).toString('utf8');
    expect(text).toBe(
      '\uFEFFname,minutes,at\r\n\'-0,0,2026-01-01T08:00:00Z\r\n"row ""1"", ok",10,2026-01-01T08:01:00Z\r\n\'-2,20,2026-01-01T08:02:00Z\r\n',
    );
    expect(parse(text, { bom: true, columns: true })).toHaveLength(3);
  });

  it('continues an XLSX on a new sheet, with the header, past the rows a sheet holds', async () => {
    const bytes = await buffer(xlsxStream(columns, rowsOf(7), { sheetName: 'Rows', rowsPerSheet: 4 }));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => [sheet.name, sheet.rowCount])).toEqual([
      ['Rows', 4],
      ['Rows 2', 4],
      ['Rows 3', 2],
    ]);
    const last = workbook.worksheets[2] as ExcelJS.Worksheet;
    expect((last.getRow(1).values as unknown[]).slice(1)).toEqual(['name', 'minutes', 'at']);
    expect((last.getRow(2).values as unknown[]).slice(1)).toEqual([
      "'-6",
      60,
      new Date(Date.UTC(2026, 0, 1, 8, 6)),
    ]);
    // Every data cell carries its column's format (instants as date and time; the others General), the header bold.
    for (const sheet of workbook.worksheets) {
      expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
      for (let row = 2; row <= sheet.rowCount; row++) {
        expect(sheet.getRow(row).getCell(3).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
        expect(sheet.getRow(row).getCell(2).numFmt).toBeUndefined();
        expect(sheet.getRow(row).getCell(1).font?.bold).toBeUndefined();
      }
    }
  });
});
