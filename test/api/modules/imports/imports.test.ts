import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';
import { startSmtpSink } from '../../../helpers/smtp-sink.ts';

/**
 * Importing a staff list (issue 39): a CSV in Spanish (semicolons, a BOM, Spanish dates and headers) or an XLSX
 * in English; a preview marks every bad row and keeps nothing; a commit keeps every row or, with any bad row,
 * none, naming each line; the imported workers are invited at once, by e-mail.
 */
let ctx: TestContext;
let company: TestCompany;
let admin: DashboardSession;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;

const csv = (lines: string[]) => Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8').toString('base64');
const employeeCount = async () =>
  ((await company.live.get('/v1/employees?limit=100')).json().data as unknown[]).length;

beforeAll(async () => {
  sink = await startSmtpSink();
  ctx = await createTestContext({ smtp: sink.smtp });
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  pinClock(ctx.clock, '2026-11-02T09:00:00Z');
  await ctx.admin.post(`/admin/v1/companies/${company.id}/units`, { name: 'Almacén' });
  await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Obrador' });
  const owner = await createAdmin(ctx, company.id);
  admin = await dashboardSession(ctx, owner.email, owner.password);
});
afterAll(async () => {
  await ctx.close();
  await sink.close();
});

const HEADER =
  'Nombre;Apellidos;Correo electrónico;Fecha de alta;Unidad;Centro de trabajo;Horas semanales;Observaciones';
const GOOD = [
  'Ana;Almacén Uno;ana.uno@example.com;01/12/2026;almacen;Obrador;40;',
  'Beto;Almacén Dos;beto.dos@example.com;2026-12-01;Almacén;;;nota',
];

describe('imports', () => {
  it('previews a Spanish CSV with three bad rows: every error on its line, nothing kept, and a commit refused', async () => {
    const content = csv([
      HEADER,
      ...GOOD,
      'Carla;Mal Correo;no-es-un-correo;01/12/2026;;;;',
      'Dani;Mala Unidad;dani@example.com;01/12/2026;Cocina;;;',
      'Eva;Repetida;ana.uno@example.com;31/02/2026;;;;',
    ]);
    const before = await employeeCount();
    const preview = await admin.call('POST', '/dashboard/api/imports/employees', { format: 'csv', content });
    expect(preview.statusCode, preview.body).toBe(200);
    const result = preview.json();
    expect(result.committed).toBe(false);
    expect(result.ignored_columns).toEqual(['Observaciones']);
    expect(result.rows_with_errors).toBe(3);
    const errorsByLine = Object.fromEntries(
      result.rows.map((row: { line: number; errors: Record<string, string[]> }) => [row.line, row.errors]),
    );
    expect(errorsByLine[2]).toEqual({});
    expect(errorsByLine[3]).toEqual({});
    expect(Object.keys(errorsByLine[4])).toEqual(['email']);
    expect(errorsByLine[5]).toEqual({ unit_id: ['is not the name of a unit of this company'] });
    expect(Object.keys(errorsByLine[6]).sort()).toEqual(['hire_date']);
    expect(result.rows.every((row: { employee_id: string | null }) => row.employee_id === null)).toBe(true);
    expect(await employeeCount()).toBe(before);

    const commit = await admin.call('POST', '/dashboard/api/imports/employees', {
      format: 'csv',
      content,
      commit: true,
    });
    expect(commit.statusCode, commit.body).toBe(422);
    expect(commit.json()).toMatchObject({ code: 'validation_failed' });
    expect(commit.json().detail).toContain('line 4, 5, 6');
    expect(Object.keys(commit.json().errors).sort()).toEqual([
      'line 4.email',
      'line 5.unit_id',
      'line 6.hire_date',
    ]);
    expect(await employeeCount()).toBe(before);
  });

  it('refuses, all or nothing, a row that only the database finds wrong (an e-mail twice in the file)', async () => {
    const content = csv([HEADER, ...GOOD, 'Eva;Repetida;ana.uno@example.com;01/12/2026;;;;']);
    const before = await employeeCount();
    const commit = await admin.call('POST', '/dashboard/api/imports/employees', {
      format: 'csv',
      content,
      commit: true,
    });
    expect(commit.statusCode, commit.body).toBe(422);
    expect(Object.keys(commit.json().errors)).toEqual(['line 4.email']);
    expect(await employeeCount()).toBe(before);
  });

  it('keeps a clean file, with its units and centres, and invites the workers by e-mail', async () => {
    const before = await employeeCount();
    const commit = await admin.call('POST', '/dashboard/api/imports/employees', {
      format: 'csv',
      content: csv([HEADER, ...GOOD]),
      commit: true,
      invite: true,
    });
    expect(commit.statusCode, commit.body).toBe(200);
    const rows = commit.json().rows as Array<{ employee_id: string; invitation: { emailed: boolean } }>;
    expect(commit.json().committed).toBe(true);
    expect(rows.map((row) => row.invitation.emailed)).toEqual([true, true]);
    expect(await employeeCount()).toBe(before + 2);
    const ana = (await company.live.get(`/v1/employees/${rows[0]?.employee_id}`)).json();
    expect(ana).toMatchObject({ first_name: 'Ana', hire_date: '2026-12-01', weekly_minutes: 2400 });
    expect(ana.unit_id).not.toBeNull();
    expect(ana.location_id).not.toBeNull();
    await expect
      .poll(() => sink.received.filter((message) => message.includes('ana.uno@example.com')).length)
      .toBe(1);
  });

  it('reads an XLSX with English headers and date cells', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Staff');
    sheet.addRow(['First name', 'Last name', 'Email', 'Hire date', 'External id']);
    sheet.addRow(['Fran', 'Excel', 'fran@example.com', new Date(Date.UTC(2026, 11, 1)), 'X-1']);
    const content = Buffer.from(await workbook.xlsx.writeBuffer()).toString('base64');
    const commit = await admin.call('POST', '/dashboard/api/imports/employees', {
      format: 'xlsx',
      content,
      commit: true,
    });
    expect(commit.statusCode, commit.body).toBe(200);
    const fran = (await company.live.get(`/v1/employees/${commit.json().rows[0].employee_id}`)).json();
    expect(fran).toMatchObject({ hire_date: '2026-12-01', external_id: 'X-1' });
  });

  it('answers 422, never a 500, to a file it cannot read or a list without its columns', async () => {
    const garbage = await admin.call('POST', '/dashboard/api/imports/employees', {
      format: 'xlsx',
      content: Buffer.from('not a zip').toString('base64'),
    });
    expect(garbage.statusCode).toBe(422);
    expect(garbage.json().errors.content).toEqual(['is not a readable XLSX file']);
    const columns = await admin.call('POST', '/dashboard/api/imports/employees', {
      format: 'csv',
      content: csv(['Nombre;Teléfono', 'Ana;600']),
    });
    expect(columns.statusCode).toBe(422);
    expect(columns.json().errors.content[0]).toContain('last_name, email');
  });
});

describe('shift imports', () => {
  const PLAN = 'Empleado;Semana;Lunes;Martes;Miércoles;Jueves;Viernes;Sábado;Domingo';

  it('previews a week plan with its wrong cells named by line and day, then places the drafts all at once', async () => {
    const template = await company.live.post('/v1/shift-templates', {
      name: 'Mañana',
      start: '06:00',
      end: '14:00',
    });
    expect(template.statusCode, template.body).toBe(201);
    const late = await company.live.post('/v1/employees', {
      first_name: 'Tardía',
      last_name: 'Alta',
      email: 'tardia.alta@example.com',
      hire_date: '2026-12-09',
    });
    expect(late.statusCode, late.body).toBe(201);
    const wrong = csv([
      PLAN,
      'ana.uno@example.com;07/12/2026;08:00-16:00;08:00-16:30 30;Mañana;;;;',
      'nadie@example.com;2026-12-07;08:00-16:00;;;;;;',
      'beto.dos@example.com;2026-12-08;08:00-16:00;;;;;;',
      'beto.dos@example.com;2026-12-07;8 a 4;;;;;;',
      // Hired on the Wednesday: the planner refuses Monday, named by its column.
      'tardia.alta@example.com;2026-12-07;08:00-16:00;;;;;;',
    ]);
    const preview = await admin.call('POST', '/dashboard/api/imports/shifts', {
      format: 'csv',
      content: wrong,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const byLine = Object.fromEntries(
      preview
        .json()
        .rows.map((row: { line: number; errors: Record<string, string[]> }) => [row.line, row.errors]),
    );
    expect(byLine[2]).toEqual({});
    expect(byLine[3]).toEqual({ Empleado: ['is not an employee of this company'] });
    expect(byLine[4]).toEqual({ Semana: ['must be a Monday'] });
    expect(Object.keys(byLine[5])).toEqual(['Lunes']);
    expect(preview.json().rows_with_errors).toBe(4);
    const shiftsOf = async (employeeId: string) =>
      (
        (await company.live.get('/v1/shifts', { query: { employee_id: employeeId } })).json()
          .data as unknown[]
      ).length;
    const refused = await admin.call('POST', '/dashboard/api/imports/shifts', {
      format: 'csv',
      content: wrong,
      commit: true,
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toContain('line 5.Lunes');

    // Only the good row and the hire-date one: the planner's own check names Monday.
    const planner = await admin.call('POST', '/dashboard/api/imports/shifts', {
      format: 'csv',
      content: csv([PLAN, 'tardia.alta@example.com;2026-12-07;08:00-16:00;;;;;;']),
    });
    expect(Object.keys(planner.json().rows[0].errors)).toEqual(['Lunes']);

    const good = csv([PLAN, 'ana.uno@example.com;07/12/2026;08:00-16:00;08:00-16:30 30;Mañana;;;;']);
    const kept = await admin.call('POST', '/dashboard/api/imports/shifts', {
      format: 'csv',
      content: good,
      commit: true,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ committed: true, shifts: 3 });
    const everyone = (await company.live.get('/v1/employees?limit=100')).json().data as Array<{
      id: string;
      email: string;
    }>;
    const ana = everyone.find((employee) => employee.email === 'ana.uno@example.com');
    const listed = (
      await company.live.get('/v1/shifts', {
        query: { from: '2026-12-07', to: '2026-12-13', status: 'draft' },
      })
    ).json().data as Array<{
      employee_id: string;
      date: string;
      start: string;
      end: string;
      break_minutes: number;
    }>;
    const anas = listed.filter((shift) => shift.employee_id === ana?.id);
    expect(anas.map((shift) => [shift.date, shift.start, shift.end, shift.break_minutes])).toEqual([
      ['2026-12-07', '08:00', '16:00', 0],
      ['2026-12-08', '08:00', '16:30', 30],
      ['2026-12-09', '06:00', '14:00', 0],
    ]);
    expect(await shiftsOf(late.json().id)).toBe(0);
  });
});
