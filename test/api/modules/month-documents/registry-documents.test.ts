import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDueDocuments } from '../../../../src/modules/month-documents/month-documents.service.ts';
import { verifyRegistry } from '../../../../src/modules/verification/verification.service.ts';
import {
  createTestContext,
  reportWorker,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { pdfPages } from '../../../helpers/pdf.ts';
import { joinPortal, type PortalWorker } from '../../../helpers/portal.ts';

/**
 * Issue 34's inspector: "closed-month documents are rebuilt from today's data". Closing a month stores each
 * worker's documents and the company's CSV, with their SHA-256 in the chain; downloads serve those bytes; a
 * correction makes a new version and keeps the old one; verification and the bundle name a swapped file.
 */
let ctx: TestContext;
let company: TestCompany;
let employeeId: string;
let worker: PortalWorker;

type DocumentRow = {
  id: string;
  employee_id: string | null;
  version: number;
  format: string;
  locale: string;
  sha256: Buffer;
  content: Buffer;
};

const stored = async (employee: string | null) =>
  (
    await sql<DocumentRow>`
      select id, employee_id, version, format, locale, sha256, content from registry_documents
      where company_id = ${company.id}
        and employee_id is not distinct from ${employee}::uuid
      order by version, format, locale`.execute(ctx.db)
  ).rows;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The month total of worked minutes in a stored XLSX document. */
async function workedTotal(bytes: Buffer): Promise<number> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  let total = Number.NaN;
  sheet.eachRow((row) => {
    const first = String(row.getCell(1).value ?? '');
    if (first !== 'Totales del mes' && first !== 'Month totals') return;
    // A duration cell (a fraction of a day), which ExcelJS reads as a time after 1899-12-30.
    const value = row.getCell(4).value;
    total =
      value instanceof Date ? (value.getTime() - Date.UTC(1899, 11, 30)) / 60_000 : Number(value) * 1440;
  });
  return total;
}

async function reportBytes(params: Record<string, unknown>, type: string, format: string) {
  const created = await company.live.post('/v1/reports', { type, format, params });
  expect(created.statusCode, created.body).toBe(202);
  const job = reportWorker(ctx);
  while ((await job.tick()) > 0) {}
  const report = (await company.live.get(`/v1/reports/${created.json().id}`)).json();
  expect(report.status).toBe('completed');
  const url = new URL(report.download_url);
  return (await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).rawPayload;
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  ({
    employee: { id: employeeId },
    worker,
  } = await joinPortal(ctx, company.live, {
    first_name: 'Marta',
    hire_date: '2026-01-01',
  }));
  for (const [type, timestamp] of [
    ['in', '2026-10-05T07:00:00Z'],
    ['out', '2026-10-05T15:00:00Z'],
  ]) {
    const response = await company.live.post('/v1/check-ins', { employee_id: employeeId, type, timestamp });
    expect(response.statusCode, response.body).toBe(201);
  }
  expect((await company.live.post('/v1/registry/months/2026-10/close')).statusCode).toBe(200);
});
afterAll(() => ctx.close());

describe('closing a month', () => {
  it('stores each worker’s PDF and XLSX in both languages and the company’s CSV, each hash in the chain', async () => {
    // The worker role makes them from the queue.
    expect(await makeDueDocuments(ctx.deps)).toBe(1);
    while ((await makeDueDocuments(ctx.deps)) > 0);
    const files = await stored(employeeId);
    expect(files.map((file) => `${file.version} ${file.format} ${file.locale}`)).toEqual([
      '1 pdf en',
      '1 pdf es',
      '1 xlsx en',
      '1 xlsx es',
    ]);
    for (const file of files) expect(file.sha256.toString('hex')).toBe(sha256(file.content));
    expect(await workedTotal(files[3]?.content as Buffer)).toBe(480);
    const [csv] = await stored(null);
    expect(csv).toMatchObject({ version: 1, format: 'csv' });
    expect(csv?.content.toString('utf8')).toContain('480');
    // Each file's SHA-256 is an entry of its chain: the worker's, or the company's for the CSV.
    const entries = await sql<{ content: string }>`
      select content from registry_entries where employee_id = ${employeeId} and kind = 'month_document'
      union all
      select content from registry_company_entries where company_id = ${company.id} and kind = 'month_document'`.execute(
      ctx.db,
    );
    expect(entries.rows.map((row) => JSON.parse(row.content).sha256).sort()).toEqual(
      [...files, csv].map((file) => file?.sha256.toString('hex')).sort(),
    );
    // Stored files refuse change.
    await expect(sql`update registry_documents set content = ''::bytea`.execute(ctx.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from registry_documents`.execute(ctx.db)).rejects.toThrow(/append-only/);
    expect(await verifyRegistry(ctx.deps, company.id)).toMatchObject({ ok: true, problems: [] });
  });

  it('serves the stored bytes to the worker, the company and the Inspección, however the records move on', async () => {
    const [pdfEn, pdfEs, , xlsxEs] = await stored(employeeId);
    // Time passes and the company's identity changes: a rebuild would print another date and name.
    ctx.clock.advance(3 * 3600);
    expect(
      (await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { legal_name: 'Otra Razón Social SL' }))
        .statusCode,
    ).toBe(200);
    const portal = await worker.send('GET', '/portal/api/registry/2026-10.pdf');
    expect(portal.statusCode).toBe(200);
    expect(sha256(portal.rawPayload)).toBe(pdfEs?.sha256.toString('hex'));
    const english = await worker.send('GET', '/portal/api/registry/2026-10.pdf?locale=en');
    expect(sha256(english.rawPayload)).toBe(pdfEn?.sha256.toString('hex'));
    const xlsx = await reportBytes(
      { month: '2026-10', employee_id: employeeId, locale: 'es' },
      'time_registry_worker_monthly',
      'xlsx',
    );
    expect(sha256(xlsx)).toBe(xlsxEs?.sha256.toString('hex'));
    const [csv] = await stored(null);
    const registry = await reportBytes({ month: '2026-10' }, 'time_registry_monthly', 'csv');
    expect(sha256(registry)).toBe(csv?.sha256.toString('hex'));
  });
});

describe('every worker’s documents of a closed month at once', () => {
  it('are the stored files put together, page by page and cell by cell, never laid out again', async () => {
    const [, pdfEs, , xlsxEs] = await stored(employeeId);
    ctx.clock.advance(3600);
    const workbook = await reportBytes(
      { month: '2026-10', locale: 'es' },
      'time_registry_worker_monthly',
      'xlsx',
    );
    const rows = async (bytes: Buffer) => {
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(bytes as unknown as ArrayBuffer);
      const values: unknown[] = [];
      (book.worksheets[0] as ExcelJS.Worksheet).eachRow((row) => {
        values.push(row.values);
      });
      return { sheets: book.worksheets.length, values };
    };
    // The generation time printed in the file is the stored one: it was not made again an hour later.
    expect(await rows(workbook)).toEqual(await rows(xlsxEs?.content as Buffer));
    const pdf = await reportBytes({ month: '2026-10', locale: 'es' }, 'time_registry_worker_monthly', 'pdf');
    expect(await pdfPages(pdf)).toEqual(await pdfPages(pdfEs?.content as Buffer));
  });
});

describe('a correction into the closed month', () => {
  it('makes version 2 of the worker’s documents and a new edition of the CSV, and keeps version 1', async () => {
    const requested = await company.live.post('/v1/check-in-corrections', {
      employee_id: employeeId,
      reason: 'Pausa de 30 minutos no registrada',
      add: [
        { type: 'break_start', timestamp: '2026-10-05T11:00:00Z' },
        { type: 'break_end', timestamp: '2026-10-05T11:30:00Z' },
      ],
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const id = requested.json().id as string;
    expect((await worker.send('POST', `/portal/api/corrections/${id}/accept`)).statusCode).toBe(200);
    expect((await company.live.post(`/v1/check-in-corrections/${id}/approve`)).json().status).toBe('applied');
    while ((await makeDueDocuments(ctx.deps)) > 0);
    const files = await stored(employeeId);
    expect(files.map((file) => `${file.version} ${file.format} ${file.locale}`)).toEqual([
      '1 pdf en',
      '1 pdf es',
      '1 xlsx en',
      '1 xlsx es',
      '2 pdf en',
      '2 pdf es',
      '2 xlsx en',
      '2 xlsx es',
    ]);
    expect(await workedTotal(files[3]?.content as Buffer)).toBe(480);
    expect(await workedTotal(files[7]?.content as Buffer)).toBe(450);
    expect((await stored(null)).map((file) => file.version)).toEqual([1, 2]);
    // The worker's download is the new version.
    const portal = await worker.send('GET', '/portal/api/registry/2026-10.pdf');
    expect(sha256(portal.rawPayload)).toBe(files[5]?.sha256.toString('hex'));
    expect(await verifyRegistry(ctx.deps, company.id)).toMatchObject({ ok: true, problems: [] });
  });

  it('stores version 1 before a correction changes the month, when the worker role has not made it yet', async () => {
    // December: November has ended and can close.
    ctx.clock.advance(40 * 24 * 3600);
    const other = await joinPortal(ctx, company.live, { first_name: 'Iker', hire_date: '2026-11-01' });
    for (const [type, timestamp] of [
      ['in', '2026-11-03T08:00:00Z'],
      ['out', '2026-11-03T16:00:00Z'],
    ]) {
      const response = await company.live.post('/v1/check-ins', {
        employee_id: other.employee.id,
        type,
        timestamp,
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    expect((await company.live.post('/v1/registry/months/2026-11/close')).statusCode).toBe(200);
    const requested = await company.live.post('/v1/check-in-corrections', {
      employee_id: other.employee.id,
      reason: 'Salida real a las 16:30',
      add: [
        { type: 'break_start', timestamp: '2026-11-03T12:00:00Z' },
        { type: 'break_end', timestamp: '2026-11-03T13:00:00Z' },
      ],
    });
    const id = requested.json().id as string;
    expect((await other.worker.send('POST', `/portal/api/corrections/${id}/accept`)).statusCode).toBe(200);
    expect((await company.live.post(`/v1/check-in-corrections/${id}/approve`)).json().status).toBe('applied');
    // No job ran: the correction made version 1 from the month as it closed before it changed it.
    const before = await stored(other.employee.id);
    expect(before.map((file) => file.version)).toEqual([1, 1, 1, 1]);
    expect(await workedTotal(before[3]?.content as Buffer)).toBe(480);
    while ((await makeDueDocuments(ctx.deps)) > 0);
    const after = await stored(other.employee.id);
    expect(await workedTotal(after[7]?.content as Buffer)).toBe(420);
  });
});

describe('verification', () => {
  it('names a stored document swapped or deleted behind the application’s back', async () => {
    const [first, second] = await stored(employeeId);
    await ctx.db.transaction().execute(async (tx) => {
      await sql`set local session_replication_role = replica`.execute(tx);
      await sql`update registry_documents set content = ${second?.content} where id = ${first?.id}`.execute(
        tx,
      );
      await sql`delete from registry_documents where company_id = ${company.id} and employee_id is null and version = 1`.execute(
        tx,
      );
    });
    const { ok, problems } = await verifyRegistry(ctx.deps, company.id);
    expect(ok).toBe(false);
    expect(problems).toContainEqual(
      expect.objectContaining({ kind: 'document_mismatch', employee_id: employeeId }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({ kind: 'entry_without_fact', found: 'no such document' }),
    );
  });
});
