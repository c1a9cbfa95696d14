import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { eventsOf, fieldErrors, hire, voidByCorrection } from '../../../helpers/resources.ts';
import {
  checkIns,
  company,
  csvRecords,
  ctx,
  download,
  employees,
  generated,
  job,
  neutralized,
  other,
  useReportsWorld,
} from './world.ts';

/** Reports: validation, the check-ins export, and the registry's monthly reports. */
useReportsWorld();

describe('POST /v1/reports validation', () => {
  it.each([
    ['an unknown type', { type: 'payroll', format: 'csv', params: {} }, 'type'],
    ['an unknown format', { type: 'check_ins_export', format: 'pdf', params: {} }, 'format'],
    [
      'xlsx for the registry',
      { type: 'time_registry_monthly', format: 'xlsx', params: { month: '2026-10' } },
      'format',
    ],
    ['no params', { type: 'time_registry_monthly', format: 'csv' }, 'params'],
    ['no month', { type: 'time_registry_monthly', format: 'csv', params: {} }, 'params.month'],
    [
      'a bad month',
      { type: 'time_registry_monthly', format: 'csv', params: { month: '2026-13' } },
      'params.month',
    ],
    [
      'a param of another type',
      { type: 'time_registry_monthly', format: 'csv', params: { month: '2026-10', from: '2026-10-01' } },
      'params.from',
    ],
    ['no from', { type: 'check_ins_export', format: 'csv', params: { to: '2026-10-01' } }, 'params.from'],
    [
      'a bad date',
      { type: 'check_ins_export', format: 'csv', params: { from: '2026-02-30', to: '2026-03-01' } },
      'params.from',
    ],
    [
      'to before from',
      { type: 'check_ins_export', format: 'csv', params: { from: '2026-10-02', to: '2026-10-01' } },
      'params.to',
    ],
    [
      'more than a year',
      { type: 'check_ins_export', format: 'xlsx', params: { from: '2025-10-01', to: '2026-10-02' } },
      'params.to',
    ],
    [
      'a bad employee id',
      {
        type: 'check_ins_export',
        format: 'csv',
        params: { from: '2026-10-01', to: '2026-10-02', employee_id: 'x' },
      },
      'params.employee_id',
    ],
    ['an unknown body field', { type: 'check_ins_export', format: 'csv', params: {}, extra: 1 }, 'extra'],
  ])('refuses %s with 422', async (_name, body, field) => {
    const response = await company.live.post('/v1/reports', body);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().code).toBe('validation_failed');
    expect(Object.keys(response.json().errors)).toContain(field);
  });

  it('refuses another company’s employee, and accepts a year exactly', async () => {
    const otherEmployee = (await other.live.get('/v1/employees')).json().data[0];
    const response = await company.live.post('/v1/reports', {
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-10-01', to: '2026-10-31', employee_id: otherEmployee.id },
    });
    expect(fieldErrors(response.json(), 'params.employee_id')).toEqual([
      'is not an employee of this company',
    ]);
    const year = await company.live.post('/v1/reports', {
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2025-10-01', to: '2026-10-01' },
    });
    expect(year.statusCode).toBe(202);
    await job().tick();
  });
});

describe('check_ins_export', () => {
  const expectedRows = () =>
    [...checkIns]
      .sort((a, b) =>
        a.employee_id === b.employee_id
          ? a.timestamp.localeCompare(b.timestamp)
          : a.employee_id < b.employee_id
            ? -1
            : 1,
      )
      .map((checkIn) => {
        const employee = employees.find((candidate) => candidate.id === checkIn.employee_id);
        const local = Temporal.Instant.from(checkIn.timestamp)
          .toZonedDateTimeISO('Europe/Madrid')
          .toPlainDateTime()
          .toString({ smallestUnit: 'second' })
          .replace('T', ' ');
        return {
          check_in_id: checkIn.id,
          employee_id: checkIn.employee_id,
          external_id: neutralized(employee?.external_id ?? null),
          employee_name: neutralized(`${employee?.first_name} ${employee?.last_name}`),
          type: checkIn.type,
          timestamp_utc: checkIn.timestamp,
          local_time: local,
          source: checkIn.source,
          status: checkIn.status,
          late: String(checkIn.late),
          correction_id: checkIn.correction_id ?? '',
          voided_by_correction_id: checkIn.voided_by_correction_id ?? '',
          recorded_by_type: checkIn.recorded_by.type,
          recorded_by_id: checkIn.recorded_by.id,
          key_kind: checkIn.recorded_by.key_kind ?? '',
          recorded_at_utc: `${checkIn.recorded_at.slice(0, 19)}Z`,
          worker_confirmed: String(checkIn.worker_confirmed),
          worker_response: checkIn.worker_response?.status ?? '',
          recorded_offline: String(checkIn.recorded_offline),
          device_time_utc: checkIn.device_time ?? '',
        };
      });

  it('generates a CSV that a CSV parser reads back cell by cell', async () => {
    const report = await generated({
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-10-01', to: '2026-10-31' },
    });
    expect(report).toMatchObject({
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-10-01', to: '2026-10-31' },
      status: 'completed',
      row_count: checkIns.length,
      download_url: expect.stringMatching(
        /^http:\/\/jornada\.test\/v1\/reports\/[0-9a-f-]+\/download\?expires=\d+&signature=/,
      ),
    });
    expect(Date.parse(report.expires_at) - Date.parse(report.completed_at)).toBeLessThanOrEqual(
      300_000 + 120_000,
    );
    const used = async () =>
      (
        await ctx.db
          .selectFrom('quota_usage')
          .select((eb) => eb.fn.sum<number>('request_count').as('requests'))
          .where('company_id', '=', company.id)
          .executeTakeFirstOrThrow()
      ).requests;
    const before = await used();
    const response = await download(report.download_url, { authorization: 'Bearer not-a-key' });
    expect(response.statusCode, response.body).toBe(200);
    expect(await used()).toBe(before); // the download is not counted
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="check-ins-2026-10-01_2026-10-31.csv"',
    );
    for (const header of Object.keys(response.headers))
      expect(header).not.toMatch(/^x-(ratelimit|service-quota)/);
    expect(response.body.startsWith('\uFEFFcheck_in_id,employee_id,')).toBe(true);
    expect(response.body).toContain('\r\n');
    expect(csvRecords(response.body)).toEqual(expectedRows());
    const events = await eventsOf(ctx.db, company.id);
    expect(events.at(-1)).toMatchObject({
      type: 'report.completed',
      data: { report_id: report.id, status: 'completed' },
    });
  });

  it('lays an export out as Spanish Excel opens it with locale es, and keeps today’s layout by default', async () => {
    const spanish = await generated({
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-10-01', to: '2026-10-31', locale: 'es' },
    });
    const response = await download(spanish.download_url);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="fichajes-2026-10-01_2026-10-31.csv"',
    );
    expect(response.body.startsWith('\uFEFFid_fichaje;id_empleado;id_externo;empleado;tipo;')).toBe(true);
    const records = parse(response.body, { bom: true, columns: true, delimiter: ';' }) as Array<
      Record<string, string>
    >;
    expect(records).toHaveLength(checkIns.length);
    // Yes/no as Spanish writes it, row for row what the English file says true/false.
    const byId = new Map(expectedRows().map((row) => [row.check_in_id, row]));
    for (const record of records) {
      const row = byId.get(record.id_fichaje ?? '');
      expect(record.tardío).toBe(row?.late === 'true' ? 'sí' : 'no');
      expect(record.confirmado_por_el_trabajador).toBe(row?.worker_confirmed === 'true' ? 'sí' : 'no');
      expect(record.hora_local).toBe(row?.local_time);
    }
    expect(records.map((record) => record.id_fichaje).sort()).toEqual(
      expectedRows()
        .map((row) => row.check_in_id)
        .sort(),
    );
    // The registry's month too: Spanish headers, `;`, sí/no.
    const registry = await generated({
      type: 'time_registry_monthly',
      format: 'csv',
      params: { month: '2026-10', locale: 'es' },
    });
    const month = await download(registry.download_url);
    expect(month.headers['content-disposition']).toBe('attachment; filename="registro-jornada-2026-10.csv"');
    expect(month.body.split('\r\n')[0]).toBe(
      `\uFEFF${[
        'id_empleado',
        'id_externo',
        'empleado',
        'fecha',
        'primera_entrada',
        'última_salida',
        'tramos',
        'minutos_pausa',
        'minutos_trabajados',
      ].join(';')};${month.body.split('\r\n')[0]?.split(';').slice(9).join(';')}`,
    );
    expect(month.body).toMatch(/;(sí|no);/);
    expect(month.body).not.toMatch(/;(true|false)[;\r]/);
    // Without a locale, what integrations parse today: keys, commas, true/false.
    const english = await generated({
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-10-01', to: '2026-10-31' },
    });
    expect((await download(english.download_url)).body.startsWith('\uFEFFcheck_in_id,employee_id,')).toBe(
      true,
    );
    const refused = await company.live.post('/v1/reports', {
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-10-01', to: '2026-10-31', locale: 'fr' },
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toContain('params.locale');
  });

  it('generates an XLSX with a bold frozen header and typed cells, read back by ExcelJS', async () => {
    const employee = employees[1] as { id: string };
    const report = await generated({
      type: 'check_ins_export',
      format: 'xlsx',
      params: { from: '2026-10-01', to: '2026-10-31', employee_id: employee.id },
    });
    const response = await download(report.download_url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.getRow(1).font?.bold ?? sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const expected = expectedRows().filter((row) => row.employee_id === employee.id);
    expect(sheet.rowCount).toBe(expected.length + 1);
    expected.forEach((row, index) => {
      const values = (sheet.getRow(index + 2).values as unknown[]).slice(1);
      const record = Object.fromEntries(header.map((name, column) => [String(name), values[column]]));
      expect(record).toEqual({
        ...row,
        late: row.late === 'true',
        correction_id: row.correction_id || undefined,
        voided_by_correction_id: row.voided_by_correction_id || undefined,
        timestamp_utc: new Date(row.timestamp_utc),
        local_time: new Date(`${row.local_time.replace(' ', 'T')}Z`),
        key_kind: row.key_kind || undefined,
        // A spreadsheet instant keeps the milliseconds the CSV's text leaves out.
        recorded_at_utc: new Date(
          checkIns.find((checkIn) => checkIn.id === row.check_in_id)?.recorded_at ?? '',
        ),
        worker_confirmed: row.worker_confirmed === 'true',
        worker_response: row.worker_response || undefined,
        recorded_offline: row.recorded_offline === 'true',
        device_time_utc: row.device_time_utc ? new Date(row.device_time_utc) : undefined,
      });
    });
    expect(report.row_count).toBe(expected.length);
  });
});

describe('time_registry_monthly, the registry of record’s columns', () => {
  it('marks a night shift’s next-day end, gives HH:MM beside the minutes, the holiday’s name, late and corrected days', async () => {
    const own = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    const worker = await hire(own.live, { hire_date: '2026-09-01' });
    const holiday = await ctx.admin.post(`/admin/v1/companies/${own.id}/holidays`, {
      date: '2026-10-12',
      name: 'Fiesta Nacional de España',
    });
    expect(holiday.statusCode, holiday.body).toBe(201);
    const ids: string[] = [];
    for (const [type, timestamp] of [
      ['in', '2026-10-06T09:00:00+02:00'],
      ['in', '2026-10-06T09:01:00+02:00'],
      ['out', '2026-10-06T17:00:00+02:00'],
      ['in', '2026-10-08T22:00:00+02:00'],
      ['out', '2026-10-09T06:30:00+02:00'],
    ]) {
      const response = await own.live.post('/v1/check-ins', { employee_id: worker.id, type, timestamp });
      expect(response.statusCode, response.body).toBe(201);
      ids.push(response.json().id);
    }
    // The double in of the 6th is voided by a correction both sides approved.
    await voidByCorrection(ctx, own, worker.id, ids[1] as string, 'Double in');

    const report = await generated(
      { type: 'time_registry_monthly', format: 'csv', params: { month: '2026-10' } },
      own,
    );
    const rows = csvRecords((await download(report.download_url)).body);
    const day = (date: string) => rows.find((row) => row.date === date) as Record<string, string>;
    // The existing columns keep their meaning.
    expect(day('2026-10-08')).toMatchObject({ first_in: '22:00', last_out: '06:30', shifts: '22:00-06:30' });
    expect(day('2026-10-08')).toMatchObject({
      intervals: '22:00-06:30 (+1)',
      worked_minutes: '510',
      worked_hhmm: '8:30',
      night_minutes: '480',
      night_hhmm: '8:00',
      late_records: '2',
      corrected: 'false',
    });
    expect(day('2026-10-06')).toMatchObject({
      intervals: '09:00-17:00',
      worked_hhmm: '8:00',
      expected_hhmm: '8:00',
      late_records: '2',
      corrected: 'true',
    });
    expect(day('2026-10-12')).toMatchObject({ holiday: 'Fiesta Nacional de España', expected_minutes: '0' });
    expect(day('2026-10-13')).toMatchObject({
      holiday: '',
      intervals: '',
      late_records: '0',
      corrected: 'false',
    });
    for (const row of rows) {
      for (const field of ['worked', 'break', 'expected', 'overtime', 'night']) {
        const minutes = Number(row[`${field}_minutes`]);
        expect(row[`${field}_hhmm`], `${row.date} ${field}`).toBe(
          `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`,
        );
      }
    }
    expect(rows.at(-1)).toMatchObject({
      date: 'total',
      late_records: '4',
      corrected: 'true',
      worked_hhmm: '16:30',
    });
  });
});

describe('time_registry_monthly', () => {
  it('has a row per employee and date, then totals equal to the work-summaries month row', async () => {
    const report = await generated({
      type: 'time_registry_monthly',
      format: 'csv',
      params: { month: '2026-10' },
    });
    const response = await download(report.download_url);
    expect(response.headers['content-disposition']).toBe('attachment; filename="time-registry-2026-10.csv"');
    const rows = csvRecords(response.body);
    expect(rows).toHaveLength(employees.length * 32);
    expect(report.row_count).toBe(employees.length * 32);
    const months = (
      await company.live.get('/v1/work-summaries', {
        query: { period: 'month', from: '2026-10-01', to: '2026-10-31' },
      })
    ).json().data;
    const days = (
      await company.live.get('/v1/work-summaries', {
        query: { period: 'day', from: '2026-10-01', to: '2026-10-31', limit: 100 },
      })
    ).json().data;
    const sorted = [...employees].sort((a, b) => (a.id < b.id ? -1 : 1));
    sorted.forEach((employee, index) => {
      const block = rows.slice(index * 32, index * 32 + 32);
      expect(block.map((row) => row.date)).toEqual([
        ...Array.from({ length: 31 }, (_, day) => `2026-10-${String(day + 1).padStart(2, '0')}`),
        'total',
      ]);
      for (const row of block) {
        expect(row.employee_id).toBe(employee.id);
        expect(row.employee_name).toBe(neutralized(`${employee.first_name} ${employee.last_name}`));
        expect(row.external_id).toBe(neutralized(employee.external_id));
      }
      const month = months.find((row: { employee_id: string }) => row.employee_id === employee.id);
      const totals = block[31] as Record<string, string>;
      for (const field of [
        'worked_minutes',
        'break_minutes',
        'expected_minutes',
        'overtime_minutes',
        'night_minutes',
      ]) {
        expect(Number(totals[field]), field).toBe(month[field]);
        const sum = block.slice(0, 31).reduce((total, row) => total + Number(row[field]), 0);
        expect(sum, field).toBe(month[field]);
      }
      for (const row of block.slice(0, 31)) {
        const day = days.find(
          (candidate: { employee_id: string; period_start: string }) =>
            candidate.employee_id === employee.id && candidate.period_start === row.date,
        );
        expect(Number(row.worked_minutes)).toBe(day?.worked_minutes ?? 0);
        expect(Number(row.expected_minutes)).toBe(day?.expected_minutes ?? 0);
        expect(row.incomplete).toBe((day?.incomplete_days ?? 0) > 0 ? 'true' : 'false');
      }
    });
    const ana = rows.filter((row) => row.employee_id === employees[0]?.id);
    const date = (day: string) => ana.find((row) => row.date === `2026-10-${day}`) as Record<string, string>;
    expect(date('05')).toMatchObject({
      first_in: '09:00',
      last_out: '17:15',
      shifts: '09:00-17:15',
      break_minutes: '30',
      worked_minutes: '465',
      expected_minutes: '480',
      overtime_minutes: '0',
      incomplete: 'false',
    });
    expect(date('08')).toMatchObject({
      first_in: '22:00',
      last_out: '02:00',
      shifts: '22:00-02:00',
      night_minutes: '240',
    });
    expect(date('09')).toMatchObject({
      first_in: '09:00',
      last_out: '17:15',
      worked_minutes: '495',
      overtime_minutes: '15',
    });
    expect(date('12')).toMatchObject({
      first_in: '',
      last_out: '',
      shifts: '08:00-',
      incomplete: 'true',
      worked_minutes: '0',
    });
    expect(date('19')).toMatchObject({ absence_type: 'vacation', expected_minutes: '0' });
    expect(date('03')).toMatchObject({
      shifts: '',
      worked_minutes: '0',
      expected_minutes: '0',
      absence_type: '',
    });
    // The third employee has no check-ins: a row for every date anyway.
    expect(rows.filter((row) => row.employee_id === employees[2]?.id)).toHaveLength(32);
  });
});
