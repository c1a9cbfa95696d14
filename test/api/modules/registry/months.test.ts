import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/** Closed months (issue 15, docs/registry.md): once closed, nothing but a correction changes a month's figures. */
let ctx: TestContext;
let company: TestCompany;
let other: TestCompany;
let employee: { id: string };
let leaver: { id: string };

// The fake clock follows the real one: the tests need a month that has ended, and the current one.
const now = () => ctx.clock.now().toZonedDateTimeISO('Europe/Madrid');
const monthOf = (date: Temporal.PlainDate) => date.toPlainYearMonth().toString();
let closed: string;
let current: string;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  other = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  const today = now().toPlainDate();
  const previous = today.with({ day: 1 }).subtract({ months: 1 });
  closed = monthOf(previous);
  current = monthOf(today);
  employee = await hire(company.live, { hire_date: previous.subtract({ years: 1 }).toString() });
  leaver = await hire(company.live, { hire_date: previous.subtract({ years: 1 }).toString() });
  const left = await company.live.post(`/v1/employees/${leaver.id}/terminate`, {
    termination_date: previous.subtract({ months: 1 }).toString(),
  });
  expect(left.statusCode, left.body).toBe(200);
  // Hired after the month to close: its chain gets no closing (the closings below name `employee` alone).
  await hire(company.live, { hire_date: today.with({ day: 1 }).toString() });
  await hire(other.live, { hire_date: previous.subtract({ years: 1 }).toString() });
});
afterAll(() => ctx.close());

const inClosedMonth = () =>
  Temporal.PlainDate.from(`${closed}-15`)
    .toZonedDateTime({ timeZone: 'Europe/Madrid', plainTime: '09:00' })
    .toInstant()
    .toString();

describe('closing a month', () => {
  it('refuses a month that has not ended, a malformed month and unknown fields', async () => {
    const open = await company.live.post(`/v1/registry/months/${current}/close`);
    expect(open.statusCode, open.body).toBe(422);
    expect(open.json().code).toBe('validation_failed');
    const future = await company.live.post(`/v1/registry/months/2099-01/close`);
    expect(future.statusCode).toBe(422);
    for (const month of ['2026-13', '2026-1', 'october', '2026-10-01']) {
      const response = await company.live.post(`/v1/registry/months/${month}/close`);
      expect(response.statusCode, month).toBe(422);
    }
    expect((await company.live.post(`/v1/registry/months/${closed}/close`, { reason: 'x' })).statusCode).toBe(
      422,
    );
    expect((await company.live.get('/v1/registry/months')).json().data).toEqual([]);
  });

  it('needs the check-in write scope', async () => {
    const key = (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
        mode: 'live',
        scopes: ['org:fichajes:read'],
      })
    ).json();
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/v1/registry/months/${closed}/close`,
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(response.statusCode, response.body).toBe(403);
  });

  it('closes an ended month once, records who closed it, and writes it into the chain of each employee of the month', async () => {
    const response = await company.live.post(`/v1/registry/months/${closed}/close`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      month: closed,
      closed_by: { type: 'api_key', id: company.liveKeyId },
    });
    expect(response.json().closed_at).toMatch(/\.\d{3}Z$|Z$/);

    const again = await company.live.post(`/v1/registry/months/${closed}/close`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('conflict');

    const listed = await company.live.get('/v1/registry/months');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toEqual([response.json()]);
    expect((await other.live.get('/v1/registry/months')).json().data).toEqual([]);

    const closings = await ctx.db
      .selectFrom('registry_entries')
      .select('employee_id')
      .where('company_id', '=', company.id)
      .where('kind', '=', 'month_close')
      .execute();
    expect(closings.map((row) => row.employee_id)).toEqual([employee.id]);

    const verified = await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: company.id } });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().ok).toBe(true);
  });

  it('keeps a closing permanent: the table refuses an update or a delete', async () => {
    await expect(
      sql`update registry_months set closed_by_id = 'x' where company_id = ${company.id}`.execute(ctx.db),
    ).rejects.toThrow();
    await expect(
      sql`delete from registry_months where company_id = ${company.id}`.execute(ctx.db),
    ).rejects.toThrow();
    expect((await company.live.get('/v1/registry/months')).json().data).toHaveLength(1);
  });
});

describe('a closed month', () => {
  it('refuses a check-in dated in it (409) and takes one in the open month', async () => {
    const refused = await company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: inClosedMonth(),
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'conflict', errors: { closed_month: closed } });
    const open = await company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: ctx.clock.now().subtract({ minutes: 1 }).toString({ smallestUnit: 'second' }),
    });
    expect(open.statusCode, open.body).toBe(201);
  });

  it('is closed for its company only', async () => {
    const [someone] = (await other.live.get('/v1/employees')).json().data;
    const response = await other.live.post('/v1/check-ins', {
      employee_id: someone.id,
      type: 'in',
      timestamp: inClosedMonth(),
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses approving an absence that covers it, and lets a pending one be denied', async () => {
    const start = `${closed}-28`;
    const end = Temporal.PlainDate.from(`${current}-02`).toString();
    const requested = await company.live.post('/v1/absences', {
      employee_id: employee.id,
      type: 'vacation',
      start_date: start,
      end_date: end,
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const approve = await company.live.post(`/v1/absences/${requested.json().id}/approve`);
    expect(approve.statusCode, approve.body).toBe(409);
    expect(approve.json().errors.closed_month).toBe(closed);
    expect((await company.live.get(`/v1/absences/${requested.json().id}`)).json().status).toBe('requested');
    const reject = await company.live.post(`/v1/absences/${requested.json().id}/reject`, {
      reason: 'closed',
    });
    expect(reject.statusCode, reject.body).toBe(200);
  });

  it('refuses a holiday dated in it', async () => {
    const response = await ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, {
      date: `${closed}-20`,
      name: 'Late holiday',
    });
    expect(response.statusCode, response.body).toBe(409);
    const open = await ctx.admin.post(`/admin/v1/companies/${other.id}/holidays`, {
      date: `${closed}-20`,
      name: 'Holiday elsewhere',
    });
    expect(open.statusCode, open.body).toBe(201);
  });
});

describe('employee changes over a closed month', () => {
  it('refuses a contract change effective in it, a time zone or hire date change, and a termination dated in it', async () => {
    const backdated = await company.live.post('/v1/employees', {
      first_name: 'Back',
      last_name: 'Dated',
      email: 'back.dated@example.com',
      hire_date: `${closed}-01`,
    });
    expect(backdated.statusCode, backdated.body).toBe(409);
    expect(backdated.json().errors.closed_month).toBe(closed);
    const person = employee;
    const before = (await company.live.get(`/v1/employees/${person.id}`)).json();
    const part = { mon: 240, tue: 240, wed: 240, thu: 240, fri: 240, sat: 0, sun: 0 };
    for (const change of [
      { work_schedule: part, effective_from: `${closed}-15` },
      { vacation_days_per_year: 30, effective_from: `${closed}-01` },
      // A zone is effective-dated (issue 34): from a date in the closed month it is refused.
      { timezone: 'America/New_York', effective_from: `${closed}-10` },
      { hire_date: `${closed}-02` },
      { hire_date: '2020-01-01' },
    ]) {
      const response = await company.live.patch(`/v1/employees/${person.id}`, change);
      expect(response.statusCode, JSON.stringify(change)).toBe(409);
      expect(response.json()).toMatchObject({ code: 'conflict', errors: { closed_month: closed } });
    }
    const terminated = await company.live.post(`/v1/employees/${person.id}/terminate`, {
      termination_date: `${closed}-20`,
    });
    expect(terminated.statusCode).toBe(409);
    expect((await company.live.get(`/v1/employees/${person.id}`)).json()).toEqual(before);

    // A change that rewrites no closed figure goes through: a name, a schedule from today (the default), and a
    // termination dated today. The closed month keeps its schedule (the contract history shows both periods).
    expect(
      (await company.live.patch(`/v1/employees/${person.id}`, { first_name: 'Renamed' })).statusCode,
    ).toBe(200);
    const schedule = await company.live.patch(`/v1/employees/${person.id}`, { work_schedule: part });
    expect(schedule.statusCode, schedule.body).toBe(200);
    expect(schedule.json().work_schedule).toEqual(part);
    const periods = (await company.live.get(`/v1/employees/${person.id}/contract-history`)).json().data;
    expect(periods).toHaveLength(2);
    expect(periods[1]).toMatchObject({ effective_from: now().toPlainDate().toString(), effective_to: null });
    expect(periods[0].effective_to).toBe(now().toPlainDate().subtract({ days: 1 }).toString());
    const today = now().toPlainDate().toString();
    const leaving = await company.live.post(`/v1/employees/${person.id}/terminate`, {
      termination_date: today,
    });
    expect(leaving.statusCode, leaving.body).toBe(200);
  });
});

describe('closing while the month is still being written', () => {
  it('lets every check-in of the month either land before the closing in the chain or be refused, hires included', async () => {
    const racing = await ctx.createCompany({ timezone: 'UTC' });
    const month = '2026-09';
    const at = (day: number, minute: number) =>
      `${month}-${String(day).padStart(2, '0')}T09:${String(minute).padStart(2, '0')}:00Z`;
    const staff = await Promise.all(
      [1, 2, 3].map(() => hire(racing.live, { hire_date: '2026-01-01', timezone: 'UTC' })),
    );
    // The closing starts first; the writers race it.
    const closing = racing.live.post(`/v1/registry/months/${month}/close`);
    const checkIns = staff.flatMap((person, index) =>
      [1, 2, 3, 4].map((minute) =>
        racing.live.post('/v1/check-ins', {
          employee_id: person.id,
          type: 'in',
          timestamp: at(10 + index, minute),
        }),
      ),
    );
    const newcomers = [1, 2].map(async (index) => {
      const response = await racing.live.post('/v1/employees', {
        first_name: 'New',
        last_name: `Hire ${index}`,
        email: `new-${index}@example.com`,
        hire_date: `${month}-01`,
      });
      // A hire behind the closing is refused: its hire date is in the closed month.
      if (response.statusCode !== 201) return response;
      return await racing.live.post('/v1/check-ins', {
        employee_id: response.json().id,
        type: 'in',
        timestamp: at(20 + index, 0),
      });
    });
    const responses = await Promise.all([...checkIns, ...newcomers]);
    expect((await closing).statusCode).toBe(200);

    for (const response of responses) expect([201, 409], response.body).toContain(response.statusCode);
    const entries = await ctx.db
      .selectFrom('registry_entries')
      .select(['employee_id', 'seq', 'kind', 'subject_id'])
      .where('company_id', '=', racing.id)
      .execute();
    for (const response of responses.filter((r) => r.statusCode === 201)) {
      const { id, employee_id: employeeId } = response.json();
      const recorded = entries.find((entry) => entry.subject_id === id);
      const closed = entries.find(
        (entry) => entry.employee_id === employeeId && entry.kind === 'month_close',
      );
      expect(recorded, 'the check-in is in the chain').toBeDefined();
      expect(closed, 'the closing is in the chain of an employee with a check-in in the month').toBeDefined();
      expect(Number(recorded?.seq)).toBeLessThan(Number(closed?.seq));
    }
    const verified = await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: racing.id } });
    expect(verified.json().ok).toBe(true);
  });
});
