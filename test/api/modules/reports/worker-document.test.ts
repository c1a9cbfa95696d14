import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFiumLibrary } from '@hyzyla/pdfium';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sheetName, xlsxDocumentsStream } from '../../../../src/modules/reports/document-xlsx.ts';
import {
  createTestContext,
  downloadReport,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { pdfPages } from '../../../helpers/pdf.ts';
import { hire, voidByCorrection } from '../../../helpers/resources.ts';

/**
 * The worker's monthly registry document (issue 16): a PDF per worker, its text read back with pdfjs-dist and
 * compared with the work summaries.
 */
const SAMPLES = path.resolve(import.meta.dirname, '../../../../test-results/documents');
let ctx: TestContext;
let company: TestCompany;
let worker: { id: string; first_name: string; last_name: string };

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  await ctx.admin.patch(`/admin/v1/companies/${company.id}`, {
    legal_name: 'Panadería Sol, S.L.',
    tax_id: 'B12345674',
  });
  const centre = (
    await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, {
      name: 'Obrador',
      address: 'Carrer de la Pau 12, València',
      ccc: '46123456752',
    })
  ).json();
  worker = await hire(company.live, {
    hire_date: '2026-01-01',
    first_name: 'Núria',
    last_name: 'Ibáñez',
    national_id: '12345678Z',
    social_security_number: '281234567840',
    location_id: centre.id,
  });
  await ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, {
    date: '2026-10-12',
    name: 'Fiesta Nacional de España',
  });
  const ids: string[] = [];
  for (const [type, timestamp] of [
    ['in', '2026-10-06T09:00:00+02:00'],
    ['in', '2026-10-06T09:01:00+02:00'],
    ['out', '2026-10-06T17:00:00+02:00'],
    ['in', '2026-10-08T22:00:00+02:00'],
    ['out', '2026-10-09T06:30:00+02:00'],
  ] as const) {
    const response = await company.live.post('/v1/check-ins', {
      employee_id: worker.id,
      type,
      timestamp,
      ...(timestamp.startsWith('2026-10-08') ? { work_mode: 'remote' } : {}),
    });
    expect(response.statusCode, response.body).toBe(201);
    ids.push(response.json().id);
  }
  await voidByCorrection(ctx, company, worker.id, ids[1] as string, 'Fichaje de entrada duplicado');
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.advance(61));

async function generate(params: Record<string, unknown>, format: 'pdf' | 'xlsx' = 'pdf') {
  const { report, file } = await downloadReport(ctx, company.live, {
    type: 'time_registry_worker_monthly',
    format,
    params,
  });
  expect(file.headers['content-type']).toBe(
    format === 'pdf'
      ? 'application/pdf'
      : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  );
  return { report, bytes: file.rawPayload };
}

const hhmm = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

/** What both forms of the Spanish document show: the heading's values, the marked days, the signature boxes. */
const HEADING_AND_DAYS = [
  'Registro de jornada · 2026-10',
  'Panadería Sol, S.L.',
  'B12345674',
  'Obrador, Carrer de la Pau 12, València',
  '46123456752',
  '12345678Z',
  '281234567840',
  'Europe/Madrid',
  '22:00-06:30 (+1)',
  'Fiesta Nacional de España',
  'Firma de la empresa',
  'Firma del trabajador/a',
  'teletrabajo',
];

/** The head of a worker's registry chain, hex. */
async function chainHead(employeeId: string): Promise<string> {
  const head = await ctx.db
    .selectFrom('registry_entries')
    .select('hash')
    .where('company_id', '=', company.id)
    .where('employee_id', '=', employeeId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return head.hash.toString('hex');
}

type Figures = {
  worked_minutes: number;
  overtime_minutes: number;
  complementary_minutes: number;
  night_minutes: number;
};

/**
 * The document's five figures, in minutes, from a work summary: worked, ordinary, overtime, complementary (a
 * part-timer's, issue 38), night.
 */
const documentFigures = (row: Figures) => [
  row.worked_minutes,
  row.worked_minutes - row.overtime_minutes - row.complementary_minutes,
  row.overtime_minutes,
  row.complementary_minutes,
  row.night_minutes,
];

/**
 * The worker's 31 days of the month and the month row, from GET /v1/work-summaries: a date the day listing
 * leaves out (nothing expected, nothing worked) is all zeros, as the document prints it.
 */
async function summaries(employeeId: string) {
  const query = { from: '2026-10-01', to: '2026-10-31', employee_id: employeeId };
  const listed = (
    await company.live.get('/v1/work-summaries', { query: { ...query, period: 'day', limit: 31 } })
  ).json().data as Array<Figures & { period_start: string }>;
  const byDate = new Map(listed.map((day) => [day.period_start, day]));
  const days = Array.from({ length: 31 }, (_, index) => {
    const date = `2026-10-${String(index + 1).padStart(2, '0')}`;
    const figures = byDate.get(date) ?? {
      worked_minutes: 0,
      overtime_minutes: 0,
      complementary_minutes: 0,
      night_minutes: 0,
    };
    return { ...figures, date };
  });
  expect(listed.length).toBeGreaterThan(0);
  const month = (
    await company.live.get('/v1/work-summaries', { query: { ...query, period: 'month' } })
  ).json().data[0];
  return { days, month };
}

describe('time_registry_worker_monthly', () => {
  it('accepts pdf and xlsx only, and other types no pdf', async () => {
    for (const body of [
      { type: 'time_registry_worker_monthly', format: 'csv', params: { month: '2026-10' } },
      { type: 'check_ins_export', format: 'pdf', params: { from: '2026-10-01', to: '2026-10-31' } },
      { type: 'time_registry_worker_monthly', format: 'pdf', params: { month: '2026-10', locale: 'fr' } },
    ]) {
      const response = await company.live.post('/v1/reports', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
    }
  });

  it('writes a Spanish A4 document with the heading, a row per day, totals, the correction and the chain head', async () => {
    const { report, bytes } = await generate({ month: '2026-10', employee_id: worker.id });
    expect(report.row_count).toBe(1);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // The fonts travel inside the file.
    expect(bytes.toString('latin1')).toMatch(/\/FontFile2/);
    // Kept for a look (and for scripts/render-pdf.ts, which renders the sample in docs/).
    await mkdir(SAMPLES, { recursive: true });
    await writeFile(path.join(SAMPLES, 'worker-document-es.pdf'), bytes);
    const pages = await pdfPages(bytes);
    const text = pages.join('\n');
    for (const expected of [
      ...HEADING_AND_DAYS,
      'Núria Ibáñez',
      'Fichaje de entrada duplicado',
      'Horas extraordinarias (art. 35.5 ET)',
      // Issue 34: the contract, the policy, and each record someone else made, with who and when.
      'Jornada contratada',
      'Registros de otra persona',
      'Registros hechos por otra persona',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text.replace(/\s+/g, ' ')).toMatch(
      /\d{4}-\d\d-\d\d \d\d:\d\d (entrada|salida|inicio de pausa|fin de pausa); registrado por la integración “[^”]+” el \d{4}-\d\d-\d\d \d\d:\d\d/,
    );
    expect(text.match(/2026-10-\d\d/g)?.length).toBeGreaterThanOrEqual(31);
    // Issue 39: the month by its name, each day with its weekday, and when it was made in the worker's zone.
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Mes: octubre de 2026 (2026-10)');
    expect(flat).toContain('2026-10-05 lun');
    expect(flat).toContain('2026-10-11 dom');
    expect(flat).toMatch(/Generado: \d{4}-\d\d-\d\d \d\d:\d\d \(Europe\/Madrid\)/);
    // The correction names who acted as a reader can tell (the integration by its key, no bare ids), at local times.
    const correction = text.replace(/\s+/g, ' ');
    expect(correction).toMatch(
      /“Fichaje de entrada duplicado”; pedida por la integración “[^”]+” \(\d{4}-\d\d-\d\d \d\d:\d\d\); aprobada por la empresa: la integración “[^”]+” \(\d{4}-\d\d-\d\d \d\d:\d\d\); aceptada por la persona trabajadora/,
    );
    expect(correction).not.toMatch(/api_key|[0-9a-f]{8}-[0-9a-f]{4}-/);
    // Issue 38: the month's legal limit warnings. Both shifts ran eight hours and more without a break.
    expect(correction).toContain('Avisos de límites legales');
    expect(correction).toContain(
      '2026-10-06 · más de seis horas seguidas sin una pausa de quince minutos: 8:00 (límite 6:00) · ET art. 34.4',
    );
    expect(correction).toContain(
      '2026-10-08 · más de seis horas seguidas sin una pausa de quince minutos: 8:30 (límite 6:00) · ET art. 34.4',
    );
    // Day by day, worked, ordinary, overtime and night are the work summaries' day rows; the totals their month row.
    const { days, month } = await summaries(worker.id);
    // Each date's row runs from its date to the next date.
    // (The first segment of each date: the list of records by someone else repeats dates after the table.)
    const rowsOf = new Map(
      text
        .replace(/\s+/g, ' ')
        .split(/(?=\b2026-10-\d\d )/)
        .map((segment) => [segment.slice(0, 10), segment] as const)
        .reverse(),
    );
    for (const day of days) {
      const figures = documentFigures(day).map(hhmm);
      expect(rowsOf.get(day.date), day.date).toContain(` ${figures.join(' ')}`);
    }
    expect(days.some((day) => day.worked_minutes > 0 && day.night_minutes > 0)).toBe(true);
    expect(text).toContain(`Trabajado ${hhmm(month.worked_minutes)}`);
    expect(text).toContain(`Nocturno ${hhmm(month.night_minutes)}`);
    // The chain head printed is the worker's last registry entry.
    const head = await chainHead(worker.id);
    expect(text.replace(/\s/g, '')).toContain(head);
  });

  it('opens in PDFium, the engine of Chromium’s PDF viewer: A4 pages that render with ink on them', async () => {
    // The Chromium these tests drive is a headless shell without the viewer's UI; the viewer draws with PDFium,
    // here compiled to WebAssembly (docs/decisions/0010-registry-documents.md).
    const { bytes } = await generate({ month: '2026-10', employee_id: worker.id });
    const library = await PDFiumLibrary.init();
    try {
      const pdf = await library.loadDocument(new Uint8Array(bytes));
      expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
      for (const page of pdf.pages()) {
        const size = page.getOriginalSize();
        // A4: 210 × 297 mm = 595.28 × 841.89 points.
        expect(size.originalWidth).toBeCloseTo(595.28, 1);
        expect(size.originalHeight).toBeCloseTo(841.89, 1);
        const image = await page.render({ scale: 1, render: 'bitmap' });
        expect(image.width).toBe(595);
        // Dark pixels (text, rules, boxes) on a white page: the page is drawn, not blank.
        let dark = 0;
        for (let offset = 0; offset < image.data.length; offset += 4) {
          if ((image.data[offset] as number) < 128) dark += 1;
        }
        expect(dark / (image.width * image.height)).toBeGreaterThan(0.01);
      }
      pdf.destroy();
    } finally {
      library.destroy();
    }
  });

  it('writes English on request, and one page group per worker of the month', async () => {
    await hire(company.live, { hire_date: '2026-01-01', first_name: 'Pau', last_name: 'Segon' });
    const { report, bytes } = await generate({ month: '2026-10', locale: 'en' });
    expect(report.row_count).toBe(2);
    const text = (await pdfPages(bytes)).join('\n');
    expect(text).toContain('Working time registry · 2026-10');
    expect(text.replace(/\s+/g, ' ')).toContain('Month: October 2026 (2026-10)');
    expect(text.replace(/\s+/g, ' ')).toContain('2026-10-05 Mon');
    expect(text).toContain('Company signature');
    expect(text.replace(/\s+/g, ' ')).toContain(
      '2026-10-06 · more than six hours in a row without a fifteen-minute break: 8:00 (limit 6:00) · ET art. 34.4',
    );
    expect(text).toContain('Pau Segon');
    expect(text).toContain('Núria Ibáñez');
  });

  it('writes the same document as a workbook: a sheet per worker, durations that agree with the work summaries', async () => {
    const { report, bytes } = await generate({ month: '2026-10', employee_id: worker.id }, 'xlsx');
    expect(report.row_count).toBe(1);
    await mkdir(SAMPLES, { recursive: true });
    await writeFile(path.join(SAMPLES, 'worker-document-es.xlsx'), bytes);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Núria Ibáñez']);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.pageSetup.paperSize).toBe(9);
    const rows: unknown[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row, number) => {
      rows[number] = (row.values as unknown[]).slice(1);
    });
    const texts = rows.flat().filter((value): value is string => typeof value === 'string');
    for (const expected of HEADING_AND_DAYS) {
      expect(texts, expected).toContain(expected);
    }
    expect(texts.some((text) => text.includes('Fichaje de entrada duplicado'))).toBe(true);
    expect(texts).toContain('Avisos de límites legales');
    expect(texts).toContain(
      '• 2026-10-08 · más de seis horas seguidas sin una pausa de quince minutos: 8:30 (límite 6:00) · ET art. 34.4',
    );
    // ExcelJS reads a duration-formatted number back as a date from Excel's epoch (1899-12-30).
    const minutes = (value: unknown) =>
      Math.round((value instanceof Date ? value.getTime() / 86_400_000 + 25_569 : Number(value)) * 1440);
    const { days, month } = await summaries(worker.id);
    const dayRows = rows.filter((row) => row?.[0] instanceof Date);
    expect(dayRows).toHaveLength(31);
    for (const [index, day] of days.entries()) {
      const row = dayRows[index] as unknown[];
      expect((row[0] as Date).toISOString().slice(0, 10)).toBe(day.date);
      expect(row.slice(3, 8).map(minutes), day.date).toEqual(documentFigures(day));
    }
    const totals = rows.find((row) => row?.[0] === 'Totales del mes') as unknown[];
    expect(totals.slice(3, 8).map(minutes)).toEqual(documentFigures(month));
    expect(sheet.getCell(rows.indexOf(totals), 4).numFmt).toBe('[h]:mm');
    expect(sheet.getCell(rows.indexOf(dayRows[0] as unknown[]), 4).numFmt).toBe('[h]:mm');
    const head = await chainHead(worker.id);
    expect(texts).toContain(`Cadena del registro: ${head}`);
  });

  it('writes a workbook of many workers that Excel’s index describes: every sheet, its name and print titles', async () => {
    const names = Array.from({ length: 40 }, (_, n) => (n === 7 ? 'Worker 3' : `Worker ${n}`));
    async function* documents() {
      for (const name of names) {
        yield {
          company: { name: 'Co', tax_id: null },
          centre: null,
          worker: { name, national_id: null, social_security_number: null },
          month: '2026-10',
          timeZone: 'Europe/Madrid',
          days: [{ date: '2026-10-01', intervals: '09:00-17:00', worked_minutes: 480, overtime_minutes: 0 }],
          totals: { worked_minutes: 480, overtime_minutes: 0, night_minutes: 0 },
          corrections: [],
          chainHead: null,
          seal: null,
          absenceLabels: {},
          employment: {
            hireDate: '2026-01-01',
            terminationDate: null,
            weeklyMinutes: 2400,
            partTimePercent: null,
            trackingStart: '2026-01-01',
          },
          accessResets: [],
          policy: 'marked',
          version: null,
          recordsByOthers: [],
          legalLimits: [],
        };
      }
    }
    const counter = { rows: 0 };
    const chunks: Buffer[] = [];
    for await (const chunk of xlsxDocumentsStream(documents(), {
      locale: 'en',
      generatedAt: Temporal.Instant.from('2026-11-01T10:00:00Z'),
      counter,
    })) {
      chunks.push(chunk as Buffer);
    }
    expect(counter.rows).toBe(40);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(
      names.map((name, n) => (n === 7 ? 'Worker 3 (2)' : name)),
    );
    for (const sheet of workbook.worksheets) {
      expect(sheet.getCell('A1').value).toBe('Working time registry · 2026-10');
      // The print titles repeat the day table's header row on every page.
      const titles = Number(sheet.pageSetup.printTitlesRow?.split(':')[0]);
      expect(sheet.getRow(titles).getCell(1).value).toBe('Day');
      expect(sheet.getRow(titles - 1).getCell(1).value).toBeNull();
    }
  });

  it('keeps a worker’s name out of Excel’s footer codes (issue 35)', async () => {
    async function* documents() {
      yield {
        company: { name: 'Co', tax_id: null },
        centre: null,
        worker: { name: 'Ana &L&P&D', national_id: null, social_security_number: null },
        month: '2026-10',
        timeZone: 'Europe/Madrid',
        days: [],
        totals: { worked_minutes: 0, overtime_minutes: 0, night_minutes: 0 },
        corrections: [],
        chainHead: null,
        seal: null,
        absenceLabels: {},
        employment: {
          hireDate: '2026-01-01',
          terminationDate: null,
          weeklyMinutes: 2400,
          partTimePercent: null,
          trackingStart: '2026-01-01',
        },
        accessResets: [],
        policy: 'marked',
        version: null,
        recordsByOthers: [],
        legalLimits: [],
      };
    }
    const chunks: Buffer[] = [];
    for await (const chunk of xlsxDocumentsStream(documents(), {
      locale: 'es',
      generatedAt: Temporal.Instant.from('2026-11-01T10:00:00Z'),
      counter: { rows: 0 },
    })) {
      chunks.push(chunk as Buffer);
    }
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    const footer = workbook.worksheets[0]?.headerFooter.oddFooter ?? '';
    expect(footer).toContain('Ana &&L&&P&&D');
    expect(footer).not.toContain('Ana &L');
  });

  it('says “antes del inicio del registro” on the days before the worker’s tracking start, not a bare 0:00', async () => {
    const late = await hire(company.live, {
      hire_date: '2026-09-01',
      tracking_start_date: '2026-10-15',
      first_name: 'Tere',
      last_name: 'Tardía',
    });
    const { bytes } = await generate({ month: '2026-10', employee_id: late.id });
    const rows = new Map(
      (await pdfPages(bytes))
        .join('\n')
        .replace(/\s+/g, ' ')
        .split(/(?=\b2026-10-\d\d )/)
        .map((segment) => [segment.slice(0, 10), segment] as const),
    );
    expect(rows.get('2026-10-14')).toContain('antes del inicio del registro');
    expect(rows.get('2026-10-01')).toContain('antes del inicio del registro');
    expect(rows.get('2026-10-15')).not.toContain('antes del inicio del registro');
    expect(rows.get('2026-10-31')).not.toContain('antes del inicio del registro');
  });

  it('names each worker’s sheet within Excel’s rules, unique regardless of case', () => {
    const taken = new Set<string>();
    expect(sheetName('Ana [RRHH]: turno/noche', taken)).toBe('Ana  RRHH   turno noche');
    expect(sheetName('ana  rrhh   turno noche', taken)).toBe('ana  rrhh   turno noche (2)');
    const long = 'María de los Ángeles Fernández-Castellanos';
    expect(sheetName(long, taken)).toHaveLength(31);
    expect(sheetName(long, taken)).toMatch(/ \(2\)$/);
    expect(sheetName('   ', taken)).toBe('Worker');
  });
});
