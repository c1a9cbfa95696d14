import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import {
  createTestContext,
  reportWorker,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/** The world of the report tests: a test context, a company with employees and check-ins, and the helpers the files share. */

export let ctx: TestContext;
export let company: TestCompany;
export let other: TestCompany;
export const employees: Array<{
  id: string;
  first_name: string;
  last_name: string;
  external_id: string | null;
}> = [];
export const checkIns: Array<{
  id: string;
  employee_id: string;
  type: string;
  timestamp: string;
  source: string;
  status: string;
  late: boolean;
  correction_id: string | null;
  voided_by_correction_id: string | null;
  recorded_at: string;
  recorded_by: { type: string; id: string; key_kind?: string };
  worker_confirmed: boolean;
  worker_response: { status: string } | null;
  recorded_offline: boolean;
  device_time: string | null;
}> = [];

// Names a CSV or a spreadsheet must carry safely: a comma, quotes, a newline, and formulas.
export const NAMES: Array<[string, string, string | null]> = [
  ['Ana', 'García, "la jefa"', 'PAY-001'],
  ['=HYPERLINK("http://x")', 'Injected', '+34 600'],
  ['Bea', 'Line\nBreak', '@ext'],
];

export const job = () => reportWorker(ctx);

export async function generated(body: Record<string, unknown>, owner = company) {
  const created = await owner.live.post('/v1/reports', body);
  expect(created.statusCode, created.body).toBe(202);
  expect(created.json()).toEqual({ id: expect.any(String), status: 'processing' });
  const worker = job();
  while ((await worker.tick()) > 0) {}
  const report = await owner.live.get(`/v1/reports/${created.json().id}`);
  expect(report.statusCode).toBe(200);
  return report.json();
}

export const download = (url: string, headers: Record<string, string> = {}) => {
  const address = new URL(url);
  return ctx.app.inject({ method: 'GET', url: `${address.pathname}${address.search}`, headers });
};

export const csvRecords = (body: string) =>
  parse(body, { bom: true, columns: true, skip_empty_lines: true }) as Array<Record<string, string>>;

export const neutralized = (text: string | null) =>
  text && /^[=+\-@\t\r\n]/.test(text) ? `'${text}` : (text ?? '');

export function useReportsWorld(): void {
  beforeAll(async () => {
    // A file's own employees and check-ins (the arrays are this module's, shared by the files that use it).
    employees.length = 0;
    checkIns.length = 0;
    ctx = await createTestContext();
    company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    other = await ctx.createCompany();
    for (const [first, last, externalId] of NAMES) {
      employees.push(
        await hire(company.live, {
          first_name: first,
          last_name: last,
          external_id: externalId,
          hire_date: '2026-09-01',
        }),
      );
    }
    // October 2026 (CEST until the 25th, then CET): in/out on weekdays 1–9, a break on the 5th, a night shift on
    // the 8th, and an in without out on the 12th (incomplete once 24 hours have passed).
    const record = async (employeeId: string, type: string, timestamp: string) => {
      const response = await company.live.post('/v1/check-ins', { employee_id: employeeId, type, timestamp });
      expect(response.statusCode, response.body).toBe(201);
      checkIns.push(response.json());
      ctx.clock.advance(0.6); // 120 requests a minute per live key
    };
    for (const employee of employees.slice(0, 2)) {
      for (const day of ['01', '02', '05', '06', '07', '09']) {
        await record(employee.id, 'in', `2026-10-${day}T09:00:00+02:00`);
        if (day === '05') {
          await record(employee.id, 'break_start', '2026-10-05T13:00:00+02:00');
          await record(employee.id, 'break_end', '2026-10-05T13:30:00+02:00');
        }
        await record(employee.id, 'out', `2026-10-${day}T17:15:00+02:00`);
      }
      await record(employee.id, 'in', '2026-10-08T22:00:00+02:00');
      await record(employee.id, 'out', '2026-10-09T02:00:00+02:00');
      await record(employee.id, 'in', '2026-10-12T08:00:00+02:00');
    }
    const vacation = await company.live.post('/v1/absences', {
      employee_id: employees[0]?.id,
      type: 'vacation',
      start_date: '2026-10-19',
      end_date: '2026-10-20',
    });
    await company.live.post(`/v1/absences/${vacation.json().id}/approve`);
    await other.live.post('/v1/employees', { first_name: 'O', last_name: 'Ther', email: 'o@example.com' });
  }, 120_000);
  afterAll(() => ctx.close());
  beforeEach(() => {
    ctx.clock.advance(61);
  });
}
