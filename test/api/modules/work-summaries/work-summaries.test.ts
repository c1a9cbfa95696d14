import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCompany } from '../../../helpers/context.ts';
import { useCompanyContext } from '../../../helpers/context.ts';
import { ADDITIVE_SUMMARY_FIELDS, hire } from '../../../helpers/resources.ts';

/** A hand-checked month (March 2026, Europe/Madrid) for one employee hired on Monday 2 March. */
const env = useCompanyContext();
let tenant: TestCompany;
let employeeId: string;

const madrid = (local: string) =>
  Temporal.PlainDateTime.from(local).toZonedDateTime('Europe/Madrid').toInstant().toString();

beforeAll(async () => {
  tenant = env.company;
  await env.ctx.admin.post(`/admin/v1/companies/${tenant.id}/holidays`, {
    date: '2026-03-09',
    name: 'Holiday',
  });
  employeeId = (await hire(tenant.live, { hire_date: '2026-03-02' })).id;
  const sequence: Array<[string, string]> = [
    ['in', '2026-03-02T09:00'],
    ['break_start', '2026-03-02T13:00'],
    ['break_end', '2026-03-02T13:30'],
    ['out', '2026-03-02T17:30'],
    ['in', '2026-03-03T08:00'],
    ['out', '2026-03-03T18:00'],
    ['in', '2026-03-04T09:00'],
    ['in', '2026-03-05T09:00'],
    ['out', '2026-03-05T17:00'],
    ['out', '2026-03-11T07:00'],
    ['in', '2026-03-11T09:00'],
    ['out', '2026-03-11T17:00'],
  ];
  for (const [type, local] of sequence) {
    const response = await tenant.live.post('/v1/check-ins', {
      employee_id: employeeId,
      type,
      timestamp: madrid(local),
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  const vacation = (
    await tenant.live.post('/v1/absences', {
      employee_id: employeeId,
      type: 'vacation',
      start_date: '2026-03-10',
      end_date: '2026-03-10',
    })
  ).json();
  await tenant.live.post(`/v1/absences/${vacation.id}/approve`);
  env.ctx.clock.advance(60);
});

async function summaries(query: Record<string, string | number>, client = () => tenant.live) {
  const response = await client().get('/v1/work-summaries', { query });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    data: Array<Record<string, number | string>>;
    meta: { next_cursor: string | null };
  };
}

const pick = (row: Record<string, number | string>) => ({
  date: row.period_start,
  worked: row.worked_minutes,
  expected: row.expected_minutes,
  overtime: row.overtime_minutes,
  balance: row.balance_minutes,
  banked: row.banked_hours_balance_minutes,
  absences: row.absences_minutes,
  source: row.source_days,
  incomplete: row.incomplete_days,
  anomalies: row.anomalies,
});

describe('GET /v1/work-summaries', () => {
  it('gives day rows with closed, incomplete and absent days, and the running banked balance', async () => {
    const { data } = await summaries({
      period: 'day',
      from: '2026-03-02',
      to: '2026-03-11',
      employee_id: employeeId,
    });
    expect(data.map(pick)).toEqual([
      {
        date: '2026-03-02',
        worked: 480,
        expected: 480,
        overtime: 0,
        balance: 0,
        banked: 0,
        absences: 0,
        source: 1,
        incomplete: 0,
        anomalies: 0,
      },
      {
        date: '2026-03-03',
        worked: 600,
        expected: 480,
        overtime: 120,
        balance: 120,
        banked: 120,
        absences: 0,
        source: 1,
        incomplete: 0,
        anomalies: 0,
      },
      {
        date: '2026-03-04',
        worked: 0,
        expected: 0,
        overtime: 0,
        balance: 0,
        banked: 120,
        absences: 0,
        source: 0,
        incomplete: 1,
        anomalies: 0,
      },
      {
        date: '2026-03-05',
        worked: 480,
        expected: 480,
        overtime: 0,
        balance: 0,
        banked: 120,
        absences: 0,
        source: 1,
        incomplete: 0,
        anomalies: 0,
      },
      {
        date: '2026-03-06',
        worked: 0,
        expected: 480,
        overtime: 0,
        balance: -480,
        banked: -360,
        absences: 0,
        source: 1,
        incomplete: 0,
        anomalies: 0,
      },
      {
        date: '2026-03-10',
        worked: 0,
        expected: 0,
        overtime: 0,
        balance: 0,
        banked: -360,
        absences: 480,
        source: 1,
        incomplete: 0,
        anomalies: 0,
      },
      {
        date: '2026-03-11',
        worked: 480,
        expected: 480,
        overtime: 0,
        balance: 0,
        banked: -360,
        absences: 0,
        source: 1,
        incomplete: 0,
        anomalies: 1,
      },
    ]);
    expect(data[0]).toMatchObject({
      employee_id: employeeId,
      period_end: '2026-03-02',
      break_minutes: 30,
      night_minutes: 0,
    });
  });

  it('gives month rows covering whole months, equal to the sum of their day rows', async () => {
    const { data } = await summaries({
      period: 'month',
      from: '2026-03-15',
      to: '2026-04-10',
      employee_id: employeeId,
    });
    expect(data.map(pick)).toEqual([
      // 20 closed days: 5 worked or absent at 480 expected, the vacation day, and 14 untouched weekdays.
      {
        date: '2026-03-01',
        worked: 2040,
        expected: 9120,
        overtime: 120,
        balance: -7080,
        banked: -7080,
        absences: 480,
        source: 20,
        incomplete: 1,
        anomalies: 1,
      },
      {
        date: '2026-04-01',
        worked: 0,
        expected: 10560,
        overtime: 0,
        balance: -10560,
        banked: -17640,
        absences: 0,
        source: 22,
        incomplete: 0,
        anomalies: 0,
      },
    ]);
    expect(data[1]?.period_end).toBe('2026-04-30');
    const days = (
      await summaries({
        period: 'day',
        from: '2026-03-01',
        to: '2026-03-31',
        employee_id: employeeId,
        limit: 100,
      })
    ).data;
    const total = (field: string) => days.reduce((sum, row) => sum + Number(row[field]), 0);
    for (const field of ADDITIVE_SUMMARY_FIELDS) {
      expect(total(field), field).toBe(data[0]?.[field]);
    }
  });

  it('counts only the days of employment in a month with a hire or a termination inside it', async () => {
    const short = await hire(tenant.live, { hire_date: '2026-03-16' });
    await tenant.live.post(`/v1/employees/${short.id}/terminate`, { termination_date: '2026-03-20' });
    const late = await hire(tenant.live, { hire_date: '2026-04-15' });
    const march = (
      await summaries({ period: 'month', from: '2026-03-01', to: '2026-04-30', employee_id: short.id })
    ).data;
    // Monday 16 to Friday 20 March: 5 days; no April row after the termination.
    expect(march.map(pick)).toEqual([
      {
        date: '2026-03-01',
        worked: 0,
        expected: 2400,
        overtime: 0,
        balance: -2400,
        banked: -2400,
        absences: 0,
        source: 5,
        incomplete: 0,
        anomalies: 0,
      },
    ]);
    const april = (
      await summaries({ period: 'month', from: '2026-03-01', to: '2026-04-30', employee_id: late.id })
    ).data;
    // Wednesday 15 to Thursday 30 April: 12 weekdays; no March row before the hire.
    expect(april.map(pick)).toEqual([
      {
        date: '2026-04-01',
        worked: 0,
        expected: 5760,
        overtime: 0,
        balance: -5760,
        banked: -5760,
        absences: 0,
        source: 12,
        incomplete: 0,
        anomalies: 0,
      },
    ]);
  });

  it('leaves today and open shifts out of the minutes, and counts a shift open for 24 hours as incomplete', async () => {
    const employee = await hire(tenant.live, { hire_date: '2026-01-01' });
    const now = env.ctx.clock.now();
    const today = now.toZonedDateTimeISO('Europe/Madrid').toPlainDate();
    await tenant.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: now.subtract({ hours: 2 }).toString({ smallestUnit: 'second' }),
    });
    const query = {
      period: 'day',
      from: today.subtract({ days: 1 }).toString(),
      to: today.add({ days: 1 }).toString(),
      employee_id: employee.id,
    };
    const open = (await summaries(query)).data.find(
      (row) => row.period_start === localDateOf(now.subtract({ hours: 2 })),
    );
    expect(open).toMatchObject({ worked_minutes: 0, source_days: 0, incomplete_days: 0 });
    env.ctx.clock.advance(24 * 3600);
    const expired = (await summaries(query)).data.find(
      (row) => row.period_start === localDateOf(now.subtract({ hours: 2 })),
    );
    expect(expired).toMatchObject({ worked_minutes: 0, source_days: 0, incomplete_days: 1 });
  });

  it('pages by employee and period, and the pages equal the whole listing', async () => {
    const other = await hire(tenant.live, { hire_date: '2026-02-20' });
    const query = { period: 'day', from: '2026-03-01', to: '2026-03-13' };
    const whole = (await summaries({ ...query, limit: 100 })).data;
    expect(new Set(whole.map((row) => row.employee_id))).toContain(other.id);
    const paged: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = await summaries({ ...query, limit: 4, ...(cursor ? { cursor } : {}) });
      paged.push(...page.data);
      cursor = page.meta.next_cursor;
    } while (cursor);
    expect(paged).toEqual(whole);
    const months = (await summaries({ period: 'month', from: '2026-01-01', to: '2026-03-31', limit: 100 }))
      .data;
    // An employee gets a row for each month of employment only.
    expect(months.filter((row) => row.employee_id === other.id).map((row) => row.period_start)).toEqual([
      '2026-02-01',
      '2026-03-01',
    ]);
  });

  it('validates the query, and accepts the deprecated updated_since with Deprecation and Sunset headers', async () => {
    for (const [query, field] of [
      [{ from: '2026-03-01', to: '2026-03-31' }, 'query.period'],
      [{ period: 'week', from: '2026-03-01', to: '2026-03-31' }, 'query.period'],
      [{ period: 'day', from: '2026-03-31', to: '2026-03-01' }, 'query.to'],
      [{ period: 'day', from: '2026-03-01', to: '2027-03-02' }, 'query.to'],
      [{ period: 'day', to: '2026-03-01' }, 'query.from'],
    ] as const) {
      const response = await tenant.live.get('/v1/work-summaries', { query });
      expect(response.statusCode, JSON.stringify(query)).toBe(422);
      expect(Object.keys(response.json().errors)).toContain(field);
    }
    expect(
      (
        await tenant.live.get('/v1/work-summaries', {
          query: { period: 'day', from: '2026-03-01', to: '2027-03-01' },
        })
      ).statusCode,
    ).toBe(200);
    const base = { period: 'day', from: '2026-03-02', to: '2026-03-03', employee_id: employeeId };
    const plain = await tenant.live.get('/v1/work-summaries', { query: base });
    expect(plain.headers.deprecation).toBeUndefined();
    const deprecated = await tenant.live.get('/v1/work-summaries', {
      query: { ...base, updated_since: '2026-03-05T00:00:00Z' },
    });
    expect(deprecated.headers.deprecation).toMatch(/^@\d+$/);
    expect(deprecated.headers.sunset).toBe('Fri, 27 Aug 2027 00:00:00 GMT');
    expect(deprecated.json()).toEqual(plain.json());
  });

  it('keeps tenants apart and needs org:fichajes:read', async () => {
    const other = await env.ctx.createCompany();
    const { data } = await summaries(
      { period: 'month', from: '2026-03-01', to: '2026-03-31', employee_id: employeeId },
      () => other.live,
    );
    expect(data).toEqual([]);
    const key = await env.ctx.createKey(tenant.id, 'live', ['org:empleados:read']);
    const refused = await env.ctx
      .as(key.secret)
      .get('/v1/work-summaries', { query: { period: 'day', from: '2026-03-01', to: '2026-03-02' } });
    expect(refused.json().errors.required_scope).toBe('org:fichajes:read');
  });
});

function localDateOf(instant: Temporal.Instant): string {
  return instant.toZonedDateTimeISO('Europe/Madrid').toPlainDate().toString();
}
