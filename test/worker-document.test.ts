import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, reportWorker, type TestCompany, type TestContext } from './helpers/context.ts';
import { hire, voidByCorrection } from './helpers/resources.ts';

/**
 * The worker's monthly registry document (issue 16): a PDF per worker, its text read back with pdfjs-dist and
 * compared with the work summaries.
 */
const SAMPLES = path.resolve(import.meta.dirname, '../test-results/documents');
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

async function generate(params: Record<string, unknown>) {
  const created = await company.live.post('/v1/reports', {
    type: 'time_registry_worker_monthly',
    format: 'pdf',
    params,
  });
  expect(created.statusCode, created.body).toBe(202);
  const job = reportWorker(ctx);
  while ((await job.tick()) > 0) {}
  const report = (await company.live.get(`/v1/reports/${created.json().id}`)).json();
  expect(report.status).toBe('completed');
  const url = new URL(report.download_url);
  const file = await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(file.statusCode).toBe(200);
  expect(file.headers['content-type']).toBe('application/pdf');
  return { report, bytes: file.rawPayload };
}

async function textOf(bytes: Buffer): Promise<string[]> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages;
}

describe('time_registry_worker_monthly', () => {
  it('accepts pdf only, and other types no pdf', async () => {
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
    const pages = await textOf(bytes);
    const text = pages.join('\n');
    for (const expected of [
      'Registro de jornada · 2026-10',
      'Panadería Sol, S.L.',
      'B12345674',
      'Obrador, Carrer de la Pau 12, València',
      '46123456752',
      'Núria Ibáñez',
      '12345678Z',
      '281234567840',
      'Europe/Madrid',
      '22:00-06:30 (+1)',
      'Fiesta Nacional de España',
      'Fichaje de entrada duplicado',
      'Firma de la empresa',
      'Firma del trabajador/a',
      'Horas extraordinarias (art. 35.5 ET)',
      'teletrabajo',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text.match(/2026-10-\d\d/g)?.length).toBeGreaterThanOrEqual(31);
    // The totals are the work summaries' month row.
    const month = (
      await company.live.get('/v1/work-summaries', {
        query: { period: 'month', from: '2026-10-01', to: '2026-10-31', employee_id: worker.id },
      })
    ).json().data[0];
    const hhmm = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
    expect(text).toContain(`Trabajado ${hhmm(month.worked_minutes)}`);
    expect(text).toContain(`Nocturno ${hhmm(month.night_minutes)}`);
    // The chain head printed is the worker's last registry entry.
    const head = await ctx.db
      .selectFrom('registry_entries')
      .select('hash')
      .where('company_id', '=', company.id)
      .where('employee_id', '=', worker.id)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(text.replace(/\s/g, '')).toContain(head.hash.toString('hex'));
  });

  it('writes English on request, and one page group per worker of the month', async () => {
    await hire(company.live, { hire_date: '2026-01-01', first_name: 'Pau', last_name: 'Segon' });
    const { report, bytes } = await generate({ month: '2026-10', locale: 'en' });
    expect(report.row_count).toBe(2);
    const text = (await textOf(bytes)).join('\n');
    expect(text).toContain('Working time registry · 2026-10');
    expect(text).toContain('Company signature');
    expect(text).toContain('Pau Segon');
    expect(text).toContain('Núria Ibáñez');
  });
});
