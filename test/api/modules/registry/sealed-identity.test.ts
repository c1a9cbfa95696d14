import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  reportWorker,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Issue 34's inspector: "after a worker moved work centre, his October PDF named the new centre and CCC; legal
 * name and address change retroactively too". A closed month's documents print the identity as the chains
 * recorded it at the close, and the month's seal.
 */
let ctx: TestContext;
let company: TestCompany;
const SAMPLES = path.resolve(import.meta.dirname, '../../../../test-results/documents');

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());

async function octoberPdf(employeeId: string): Promise<string> {
  const created = await company.live.post('/v1/reports', {
    type: 'time_registry_worker_monthly',
    format: 'pdf',
    params: { month: '2026-10', employee_id: employeeId },
  });
  expect(created.statusCode, created.body).toBe(202);
  const job = reportWorker(ctx);
  while ((await job.tick()) > 0) {}
  const report = (await company.live.get(`/v1/reports/${created.json().id}`)).json();
  expect(report.status).toBe('completed');
  const url = new URL(report.download_url);
  const file = await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  await mkdir(SAMPLES, { recursive: true });
  await writeFile(path.join(SAMPLES, 'closed-month-es.pdf'), file.rawPayload);
  const pdf = await getDocument({ data: new Uint8Array(file.rawPayload), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages.join('\n');
}

describe('a closed month’s documents', () => {
  it('print the company, centre and worker as they were at the close, and the month’s seal', async () => {
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
    const worker = await hire(company.live, {
      hire_date: '2026-01-01',
      first_name: 'Pau',
      last_name: 'Ferrer',
      national_id: '12345678Z',
      location_id: centre.id,
    });
    for (const [type, timestamp] of [
      ['in', '2026-10-05T07:00:00Z'],
      ['break_start', '2026-10-05T09:00:00Z'],
      ['break_end', '2026-10-05T09:30:00Z'],
      ['out', '2026-10-05T15:00:00Z'],
    ]) {
      expect(
        (await company.live.post('/v1/check-ins', { employee_id: worker.id, type, timestamp })).statusCode,
      ).toBe(201);
    }
    const leave = await company.live.post('/v1/absences', {
      employee_id: worker.id,
      type: 'sick_leave',
      start_date: '2026-10-20',
      end_date: '2026-10-21',
    });
    expect(leave.statusCode, leave.body).toBe(201);
    expect((await company.live.post(`/v1/absences/${leave.json().id}/approve`)).statusCode).toBe(200);
    expect((await company.live.post('/v1/registry/months/2026-10/close')).statusCode).toBe(200);
    const seal = (await company.live.get('/v1/registry/months')).json().data[0].seal as string;

    // After the close: a new legal name, the old centre's new address, a move to another centre, a new DNI.
    await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { legal_name: 'Nueva Razón, S.L.' });
    await ctx.admin.patch(`/admin/v1/companies/${company.id}/locations/${centre.id}`, {
      address: 'Calle Nueva 2',
    });
    const other = (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, {
        name: 'Tienda Centro',
        address: 'Plaza Mayor 1',
        ccc: '28123456712',
      })
    ).json();
    const moved = await company.live.patch(`/v1/employees/${worker.id}`, {
      location_id: other.id,
      national_id: '87654321X',
    });
    expect(moved.statusCode, moved.body).toBe(200);

    const text = await octoberPdf(worker.id);
    for (const kept of [
      'Panadería Sol, S.L.',
      'B12345674',
      'Obrador',
      'Carrer de la Pau 12',
      '46123456752',
      '12345678Z',
    ]) {
      expect(text, kept).toContain(kept);
    }
    for (const later of ['Nueva Razón', 'Calle Nueva 2', 'Tienda Centro', '28123456712', '87654321X']) {
      expect(text, later).not.toContain(later);
    }
    expect(text.replace(/\s+/g, '')).toContain(seal);
    // The absence by its name in the document's language, never its key.
    expect(text).toContain('Baja por enfermedad');
    expect(text).not.toContain('sick_leave');
    // Each pause's start and end (the draft decree), beside the day's interval.
    expect(text.replace(/\s+/g, ' ')).toMatch(/09:00-17:00 \(pausas ?11:00-11:30\)/);
  });
});
