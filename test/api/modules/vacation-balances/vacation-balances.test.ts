import { beforeAll, describe, expect, it } from 'vitest';
import type { TestCompany } from '../../../helpers/context.ts';
import { useCompanyContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Hand-checked balances. The test clock runs at the real date (November 2026), so the 2025 carry-over into 2026
 * has expired (31 March 2026) and the 2026 carry-over into 2027 has not.
 */
const env = useCompanyContext();
let tenant: TestCompany;
const ids = { a: '', b: '', c: '' };

async function absence(employeeId: string, fields: Record<string, unknown>, decision?: string) {
  const response = await tenant.live.post('/v1/absences', {
    employee_id: employeeId,
    type: 'vacation',
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  if (decision)
    expect((await tenant.live.post(`/v1/absences/${response.json().id}/${decision}`)).statusCode).toBe(200);
  return response.json();
}

beforeAll(async () => {
  tenant = env.company;
  await env.ctx.admin.patch(`/admin/v1/companies/${tenant.id}`, {
    vacation_carry_over_max_days: 5,
    vacation_carry_over_expiry: '03-31',
  });
  await env.ctx.admin.post(`/admin/v1/companies/${tenant.id}/holidays`, {
    date: '2027-01-06',
    name: 'Epiphany',
  });
  ids.a = (await hire(tenant.live, { hire_date: '2025-07-02' })).id;
  ids.b = (await hire(tenant.live, { hire_date: '2020-01-01' })).id;
  ids.c = (await hire(tenant.live, { hire_date: '2027-02-01' })).id;
  // A, 2025: Monday 4 to Friday 8 August, approved.
  await absence(ids.a, { start_date: '2025-08-04', end_date: '2025-08-08' }, 'approve');
  // A, across the new year: 28–31 Dec 2026 (4 days) and 1–8 Jan 2027 less the 6 Jan holiday (5 days).
  const newYear = await absence(ids.a, { start_date: '2026-12-28', end_date: '2027-01-08' }, 'approve');
  expect(newYear.days_count).toBe(9);
  await absence(ids.a, { start_date: '2026-06-01', end_date: '2026-06-03' });
  await absence(ids.a, { start_date: '2026-06-08', end_date: '2026-06-10' }, 'reject');
  await absence(ids.a, { start_date: '2026-09-14', end_date: '2026-09-14', half_day: true }, 'approve');
  await absence(ids.a, { type: 'sick_leave', start_date: '2026-10-05', end_date: '2026-10-09' }, 'approve');
  await tenant.live.post(`/v1/employees/${ids.b}/terminate`, { termination_date: '2026-06-30' });
});

async function balances(query: Record<string, string | number>) {
  const response = await tenant.live.get('/v1/vacation-balances', { query });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { data: Array<Record<string, unknown>>; meta: { next_cursor: string | null } };
}

describe('GET /v1/vacation-balances', () => {
  it('prorates the hire year and counts approved days', async () => {
    const { data } = await balances({ year: 2025, employee_id: ids.a });
    // 2 July to 31 December: 183 of 365 days of 22 → 11.03 → 11.
    expect(data).toEqual([
      {
        employee_id: ids.a,
        year: 2025,
        entitled_days: 11,
        used_days: 5,
        pending_days: 0,
        remaining_days: 6,
        carry_over_days: 0,
        carry_over_expires_at: null,
      },
    ]);
  });

  it('splits a range across the new year, counts pending and half days, ignores denied and other types, and expires carry-over', async () => {
    const { data } = await balances({ year: 2026, employee_id: ids.a });
    // 2025 left 6 days, but their expiry (31 March 2026) has passed.
    expect(data[0]).toEqual({
      employee_id: ids.a,
      year: 2026,
      entitled_days: 22,
      used_days: 4.5,
      pending_days: 3,
      remaining_days: 14.5,
      carry_over_days: 0,
      carry_over_expires_at: null,
    });
  });

  it('carries the previous year over, capped by the policy, until the expiry date', async () => {
    const { data } = await balances({ year: 2027, employee_id: ids.a });
    // 2026 leaves 14.5 days, capped at 5; 2027 uses 5 days of the new-year vacation.
    expect(data[0]).toEqual({
      employee_id: ids.a,
      year: 2027,
      entitled_days: 22,
      used_days: 5,
      pending_days: 0,
      remaining_days: 22,
      carry_over_days: 5,
      carry_over_expires_at: '2027-03-31',
    });
  });

  it('lists employees employed during the year only, prorating a termination', async () => {
    const y2026 = (await balances({ year: 2026 })).data;
    expect(y2026.map((row) => row.employee_id).sort()).toEqual([ids.a, ids.b].sort());
    // 1 January to 30 June: 181 of 365 days of 22 → 10.9 → 11.
    expect(y2026.find((row) => row.employee_id === ids.b)).toMatchObject({
      entitled_days: 11,
      remaining_days: 11,
    });
    const y2027 = (await balances({ year: 2027 })).data;
    expect(y2027.map((row) => row.employee_id).sort()).toEqual([ids.a, ids.c].sort());
    // 1 February to 31 December 2027: 334 of 365 days of 22 → 20.13 → 20.
    expect(y2027.find((row) => row.employee_id === ids.c)).toMatchObject({ entitled_days: 20 });
  });

  it('pages by employee, validates, and accepts the deprecated updated_since with headers', async () => {
    const whole = (await balances({ year: 2026 })).data;
    const first = await balances({ year: 2026, limit: 1 });
    const second = await balances({ year: 2026, limit: 1, cursor: first.meta.next_cursor ?? '' });
    expect([...first.data, ...second.data]).toEqual(whole);
    const invalid: Array<Record<string, string | number>> = [{}, { year: 'this' }, { year: 2026, month: 1 }];
    for (const query of invalid) {
      expect((await tenant.live.get('/v1/vacation-balances', { query })).statusCode).toBe(422);
    }
    const deprecated = await tenant.live.get('/v1/vacation-balances', {
      query: { year: 2026, updated_since: '2026-01-01T00:00:00Z' },
    });
    expect(deprecated.headers.sunset).toBe('Fri, 27 Aug 2027 00:00:00 GMT');
    expect(deprecated.json().data).toEqual(whole);
  });

  it('keeps tenants apart and needs org:saldos:read', async () => {
    const other = await env.ctx.createCompany();
    expect(
      (
        await other.live.get('/v1/vacation-balances', { query: { year: 2026, employee_id: ids.a as string } })
      ).json().data,
    ).toEqual([]);
    const key = await env.ctx.createKey(tenant.id, 'live', ['org:ausencias:read']);
    const refused = await env.ctx.as(key.secret).get('/v1/vacation-balances', { query: { year: 2026 } });
    expect(refused.json().errors.required_scope).toBe('org:saldos:read');
  });
});
