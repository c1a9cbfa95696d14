import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  downloadReport,
  generateReports,
  pinClock,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { localInstant, MADRID } from '../../../helpers/local-time.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * The payroll hand-off (issue 41): the `payroll_variables` report of a closed month, checked row by row against
 * the monthly work summaries the API serves, in English (the generic layout) and Spanish (a concept map), as CSV
 * and XLSX; an open month's rows are provisional.
 */
let ctx: TestContext;
let company: TestCompany;

type Summary = Record<string, number | string>;
const workers: Record<'ana' | 'bea' | 'carla', { id: string }> = {} as never;

async function work(employeeId: string, from: [string, string], to: [string, string]) {
  for (const [type, [date, time]] of [
    ['in', from],
    ['out', to],
  ] as const) {
    const response = await company.live.post('/v1/check-ins', {
      employee_id: employeeId,
      type,
      timestamp: localInstant(date, time),
    });
    expect(response.statusCode, response.body).toBe(201);
    ctx.clock.advance(0.6);
  }
}

async function absence(employeeId: string, type: string, start_date: string, end_date: string) {
  const requested = await company.live.post('/v1/absences', {
    employee_id: employeeId,
    type,
    start_date,
    end_date,
  });
  expect(requested.statusCode, requested.body).toBe(201);
  const approved = await company.live.post(`/v1/absences/${requested.json().id}/approve`);
  expect(approved.statusCode, approved.body).toBe(200);
}

/** A report made and downloaded: its view and its file's text (or bytes). */
async function payroll(params: Record<string, unknown>, format: 'csv' | 'xlsx' = 'csv') {
  ctx.clock.advance(61);
  return await downloadReport(ctx, company.live, { type: 'payroll_variables', format, params });
}

async function monthSummaries(month: string): Promise<Map<string, Summary>> {
  const first = Temporal.PlainYearMonth.from(month).toPlainDate({ day: 1 });
  const [from, to] = [first.toString(), first.add({ months: 1 }).subtract({ days: 1 }).toString()];
  const response = await company.live.get('/v1/work-summaries', { query: { period: 'month', from, to } });
  expect(response.statusCode, response.body).toBe(200);
  return new Map(response.json().data.map((row: Summary) => [row.employee_id, row]));
}

/** What each concept must be, from a month's work summary (docs/payroll.md). */
const expectedMinutes = (summary: Summary) => {
  const n = (key: string) => Number(summary[key]);
  return {
    ordinary: n('worked_minutes') - n('overtime_minutes') - n('complementary_minutes'),
    overtime_paid: n('overtime_counted_minutes'),
    overtime_time_off: n('overtime_minutes') - n('overtime_counted_minutes'),
    complementary: n('complementary_minutes'),
    night: n('night_minutes'),
    holiday_worked: n('holiday_worked_minutes'),
    on_call: n('on_call_worked_minutes'),
  };
};

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: MADRID });
  pinClock(ctx.clock, '2026-11-20T11:00:00Z');
  expect(
    (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, {
        date: '2026-10-13',
        name: 'Fiesta',
      })
    ).statusCode,
  ).toBe(201);
  workers.ana = await hire(company.live, {
    first_name: 'Ana',
    last_name: 'Ruiz',
    external_id: 'A-1',
    national_id: '12345678Z',
    social_security_number: '281234567840',
    hire_date: '2026-09-01',
    overtime_compensation: 'time_off',
  });
  workers.bea = await hire(company.live, {
    first_name: 'Bea',
    last_name: 'Sanz',
    external_id: 'B-2',
    national_id: 'X1234567L',
    hire_date: '2026-09-01',
    overtime_compensation: 'paid',
  });
  workers.carla = await hire(company.live, {
    first_name: 'Carla',
    last_name: 'Vidal',
    external_id: 'C-3',
    hire_date: '2026-09-01',
    contract_type: 'part_time',
    work_schedule: { mon: 240, tue: 240, wed: 240, thu: 240, fri: 240, sat: 0, sun: 0 },
  });
  // Ana: an hour and twenty minutes over on the 5th (to time off), a night shift, four hours on the company's holiday, two days off.
  await work(workers.ana.id, ['2026-10-05', '09:00'], ['2026-10-05', '18:20']);
  await work(workers.ana.id, ['2026-10-06', '22:00'], ['2026-10-07', '06:00']);
  await work(workers.ana.id, ['2026-10-13', '09:00'], ['2026-10-13', '13:00']);
  await absence(workers.ana.id, 'vacation', '2026-10-19', '2026-10-20');
  // Bea: two hours over, paid; a sick leave begun in September, and a second one in October.
  await work(workers.bea.id, ['2026-10-05', '09:00'], ['2026-10-05', '19:00']);
  await absence(workers.bea.id, 'sick_leave', '2026-09-28', '2026-10-02');
  await absence(workers.bea.id, 'sick_leave', '2026-10-26', '2026-10-27');
  // Carla, part-time: two complementary hours.
  await work(workers.carla.id, ['2026-10-05', '09:00'], ['2026-10-05', '15:00']);
  await work(workers.carla.id, ['2026-11-02', '09:00'], ['2026-11-02', '13:00']);
  const closed = await company.live.post('/v1/registry/months/2026-10/close');
  expect(closed.statusCode, closed.body).toBe(200);
}, 120_000);
afterAll(() => ctx.close());

describe('payroll_variables', () => {
  it('writes a closed month, concept by concept, exactly as the work summaries say (generic layout, English)', async () => {
    const { report, file } = await payroll({ month: '2026-10', locale: 'en' });
    expect(file.headers['content-disposition']).toBe('attachment; filename="payroll-variables-2026-10.csv"');
    const records = parse(file.body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(Object.keys(records[0] ?? {})).toEqual([
      'worker_id',
      'employee_id',
      'employee_name',
      'month',
      'concept',
      'code',
      'concept_name',
      'hours',
      'minutes',
      'days',
      'from',
      'to',
      'provisional',
    ]);
    expect(report.row_count).toBe(records.length);
    const summaries = await monthSummaries('2026-10');
    expect(summaries.size).toBe(3);
    for (const [employeeId, summary] of summaries) {
      const own = records.filter((record) => record.employee_id === employeeId);
      const time = Object.fromEntries(
        own
          .filter((record) => record.minutes !== '')
          .map((record) => [record.concept, Number(record.minutes)]),
      );
      const expected = Object.fromEntries(
        Object.entries(expectedMinutes(summary)).filter(
          ([concept, minutes]) => minutes !== 0 || concept === 'ordinary',
        ),
      );
      expect(time, employeeId).toEqual(expected);
      // The parts of the worked time add up to it, and hours are the minutes in decimal hours.
      expect(
        (time.ordinary ?? 0) +
          (time.overtime_paid ?? 0) +
          (time.overtime_time_off ?? 0) +
          (time.complementary ?? 0),
      ).toBe(Number(summary.worked_minutes));
      for (const record of own.filter((row) => row.minutes !== '')) {
        expect(Number(record.hours)).toBeCloseTo(Number(record.minutes) / 60, 2);
        expect(record.code).toBe(record.concept);
        expect(record.provisional).toBe('false');
      }
    }
    const ana = records.filter((record) => record.employee_id === workers.ana.id);
    expect(ana[0]).toMatchObject({ worker_id: 'A-1', employee_name: 'Ana Ruiz', month: '2026-10' });
    // The figures the file exists for are there, not zero: each kind of work the month held.
    const concepts = new Set(records.map((record) => record.concept));
    for (const concept of ['overtime_paid', 'overtime_time_off', 'complementary', 'night', 'holiday_worked'])
      expect(concepts, concept).toContain(concept);
    expect(ana.find((record) => record.concept === 'absence:vacation')).toMatchObject({
      concept_name: 'Vacation',
      days: '2',
      from: '',
    });
    // Each sick leave spell with its own dates (the first began in September: 2 of its days are October's).
    expect(
      records
        .filter((record) => record.concept === 'absence:sick_leave')
        .map((record) => [record.employee_id, record.days, record.from, record.to]),
    ).toEqual([
      [workers.bea.id, '2', '2026-09-28', '2026-10-02'],
      [workers.bea.id, '2', '2026-10-26', '2026-10-27'],
    ]);
  });

  it('drops into a payroll program through a concept map, in Spanish by default for a company in Spain', async () => {
    const map = await company.live.post('/v1/payroll/concept-maps', {
      name: 'Nómina',
      worker_identifier: 'national_id',
      codes: { ordinary: '001', overtime_paid: '120', overtime_time_off: '121', night: '130' },
      absence_codes: { sick_leave: 'IT', vacation: 'VAC' },
      columns: ['worker_id', 'code', 'hours', 'days', 'from', 'to'],
      headers: { worker_id: 'DNI', code: 'Concepto' },
    });
    expect(map.statusCode, map.body).toBe(201);
    const { report, file } = await payroll({ month: '2026-10', concept_map_id: map.json().id });
    expect(report.params).toEqual({ month: '2026-10', concept_map_id: map.json().id, locale: 'es' });
    expect(file.headers['content-disposition']).toBe('attachment; filename="variables-nomina-2026-10.csv"');
    expect(file.body.startsWith('\uFEFFDNI;Concepto;horas;días;desde;hasta\r\n')).toBe(true);
    const records = parse(file.body, { bom: true, columns: true, delimiter: ';' }) as Array<
      Record<string, string>
    >;
    const english = parse((await payroll({ month: '2026-10', locale: 'en' })).file.body, {
      bom: true,
      columns: true,
    }) as Array<Record<string, string>>;
    // Row for row the generic file's, with the map's identifier, codes and decimal commas.
    expect(records).toHaveLength(english.length);
    const codes: Record<string, string> = {
      ordinary: '001',
      overtime_paid: '120',
      overtime_time_off: '121',
      night: '130',
      'absence:sick_leave': 'IT',
      'absence:vacation': 'VAC',
    };
    const nationalIds: Record<string, string> = {
      [workers.ana.id]: '12345678Z',
      [workers.bea.id]: 'X1234567L',
    };
    english.forEach((row, index) => {
      expect(records[index]).toEqual({
        DNI: nationalIds[row.employee_id ?? ''] ?? '',
        Concepto: codes[row.concept ?? ''] ?? row.concept,
        horas: (row.hours ?? '').replace('.', ','),
        días: (row.days ?? '').replace('.', ','),
        desde: row.from,
        hasta: row.to,
      });
    });
    expect(records.some((record) => record.horas?.includes(','))).toBe(true);
  });

  it('writes XLSX with numbers as numbers, and an open month as provisional', async () => {
    const { file } = await payroll({ month: '2026-11', locale: 'es' }, 'xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file.rawPayload as never);
    const sheet = workbook.getWorksheet('Variables de nómina');
    expect(sheet).toBeDefined();
    const header = sheet?.getRow(1).values as unknown[];
    expect(header.slice(1, 4)).toEqual(['id_trabajador', 'id_empleado', 'empleado']);
    const rows: unknown[][] = [];
    sheet?.eachRow((row, number) => {
      if (number > 1) rows.push((row.values as unknown[]).slice(1));
    });
    const carla = rows.find((row) => row[1] === workers.carla.id && row[4] === 'ordinary');
    expect(carla?.[7]).toBe(4);
    expect(carla?.[8]).toBe(240);
    expect(carla?.[6]).toBe('Horas ordinarias');
    expect(rows.every((row) => row[12] === 'sí')).toBe(true);
  });
});

describe('concept maps', () => {
  it('are the company’s own: created with the generic preset’s defaults, changed, listed and deleted', async () => {
    const created = await company.live.post('/v1/payroll/concept-maps', { name: 'Generic' });
    expect(created.statusCode, created.body).toBe(201);
    const map = created.json();
    expect(map).toMatchObject({
      name: 'Generic',
      preset: 'generic',
      worker_identifier: 'external_id',
      codes: {},
      absence_codes: {},
      headers: {},
    });
    expect(map.columns).toHaveLength(13);
    ctx.clock.advance(1);
    const changed = await company.live.patch(`/v1/payroll/concept-maps/${map.id}`, {
      worker_identifier: 'naf',
      codes: { night: 'N1' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      worker_identifier: 'naf',
      codes: { night: 'N1' },
      name: 'Generic',
    });
    expect(changed.json().updated_at > map.updated_at).toBe(true);
    const listed = (await company.live.get('/v1/payroll/concept-maps')).json().data;
    expect(listed.map((row: { id: string }) => row.id)).toContain(map.id);
    expect((await company.live.get(`/v1/payroll/concept-maps/${map.id}`)).json()).toEqual(changed.json());

    // Another company sees none of it, cannot change it, and cannot lay a report out with it.
    const other = await ctx.createCompany();
    expect((await other.live.get(`/v1/payroll/concept-maps/${map.id}`)).statusCode).toBe(404);
    expect((await other.live.patch(`/v1/payroll/concept-maps/${map.id}`, { name: 'x' })).statusCode).toBe(
      404,
    );
    expect((await other.live.delete(`/v1/payroll/concept-maps/${map.id}`)).statusCode).toBe(404);
    expect((await other.live.get('/v1/payroll/concept-maps')).json().data).toEqual([]);
    const borrowed = await other.live.post('/v1/reports', {
      type: 'payroll_variables',
      format: 'csv',
      params: { month: '2026-10', concept_map_id: map.id },
    });
    expect(borrowed.statusCode).toBe(422);
    expect(borrowed.json().errors['params.concept_map_id']).toEqual(['is not a concept map of this company']);

    expect((await company.live.delete(`/v1/payroll/concept-maps/${map.id}`)).statusCode).toBe(204);
    expect((await company.live.get(`/v1/payroll/concept-maps/${map.id}`)).statusCode).toBe(404);
    expect((await company.live.delete(`/v1/payroll/concept-maps/${map.id}`)).statusCode).toBe(404);
  });

  it.each([
    [
      'an absence code for a type the company does not have',
      { absence_codes: { sabbatical: 'S' } },
      'absence_codes',
    ],
    ['an unknown column', { columns: ['worker_id', 'salary'] }, 'columns.1'],
    ['a column twice', { columns: ['code', 'code'] }, 'columns'],
    ['an unknown concept', { codes: { bonus: 'B' } }, 'codes.bonus'],
    ['an unknown identifier', { worker_identifier: 'email' }, 'worker_identifier'],
  ])('refuses %s with 422', async (_name, body, field) => {
    const response = await company.live.post('/v1/payroll/concept-maps', { name: 'Bad', ...body });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().code).toBe('validation_failed');
    expect(Object.keys(response.json().errors)).toContain(field);
  });

  it('are written only with org:nomina:write, read with org:informes:read', async () => {
    const reader = await ctx.createCompany({ scopes: ['org:informes:read'] });
    expect((await reader.live.get('/v1/payroll/concept-maps')).statusCode).toBe(200);
    const refused = await reader.live.post('/v1/payroll/concept-maps', { name: 'x' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('invalid_scope');
  });

  it('fails a report whose map was deleted before its file was made, and says why', async () => {
    const map = (await company.live.post('/v1/payroll/concept-maps', { name: 'Soon gone' })).json();
    const created = await company.live.post('/v1/reports', {
      type: 'payroll_variables',
      format: 'csv',
      params: { month: '2026-10', concept_map_id: map.id },
    });
    expect(created.statusCode).toBe(202);
    expect((await company.live.delete(`/v1/payroll/concept-maps/${map.id}`)).statusCode).toBe(204);
    await generateReports(ctx);
    const report = (await company.live.get(`/v1/reports/${created.json().id}`)).json();
    expect(report.status).toBe('failed');
    expect(report.error).toEqual({
      code: 'generation_failed',
      message: 'The concept map of this report was deleted after it was requested.',
    });
  });
});
