import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, dashboardSession } from '../../../helpers/dashboard.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * The dashboard's home page (issue 17): who is in now follows the check-ins at the fake clock's now, a night
 * shift stays "in" across midnight, absences and the expected-but-missing are told apart, and what waits for
 * the company is counted.
 */
let ctx: TestContext;
let company: TestCompany;
let admin: { email: string; password: string };
const people: Record<string, string> = {};

/** Moves the fake clock to a Madrid wall-clock time (winter: UTC+1). */
const at = (local: string) => {
  const target = Temporal.PlainDateTime.from(local).toZonedDateTime('Europe/Madrid').toInstant();
  const real = ctx.clock.now().subtract({ milliseconds: ctx.clock.offsetMilliseconds });
  ctx.clock.setOffset(target.epochMilliseconds - real.epochMilliseconds);
};
const clock = async (name: string, type: string, local: string) => {
  const timestamp = Temporal.PlainDateTime.from(local)
    .toZonedDateTime('Europe/Madrid')
    .toInstant()
    .toString({ smallestUnit: 'second' });
  const response = await company.live.post('/v1/check-ins', { employee_id: people[name], type, timestamp });
  expect(response.statusCode, response.body).toBe(201);
};
// A fresh login each time: the clock jumps further than a session lasts.
const home = async () => {
  const session = await dashboardSession(ctx, admin.email, admin.password);
  const response = await session.call('GET', '/dashboard/api/live/today');
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const states = (body: { people: Array<{ name: string; state: string }> }) =>
  Object.fromEntries(body.people.map((person) => [person.name.split(' ')[0], person.state]));

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  at('2027-01-13T08:00:00');
  for (const name of ['Noa', 'Dia', 'Bre', 'Aus', 'Fal']) {
    people[name] = (
      await hire(company.live, { first_name: name, last_name: 'Home', hire_date: '2026-01-01' })
    ).id;
  }
  const vacation = await company.live.post('/v1/absences', {
    employee_id: people.Aus,
    type: 'vacation',
    start_date: '2027-01-13',
    end_date: '2027-01-13',
  });
  expect(vacation.statusCode, vacation.body).toBe(201);
  expect((await company.live.post(`/v1/absences/${vacation.json().id}/approve`)).statusCode).toBe(200);
  const requested = await company.live.post('/v1/absences', {
    employee_id: people.Dia,
    type: 'vacation',
    start_date: '2027-02-01',
    end_date: '2027-02-02',
  });
  expect(requested.statusCode, requested.body).toBe(201);
  admin = await createAdmin(ctx, company.id);
});
afterAll(() => ctx.close());

describe('today at a glance', () => {
  it('tells who is in, on a break, absent and expected but missing at midday', async () => {
    at('2027-01-13T12:30:00');
    await clock('Dia', 'in', '2027-01-13T09:00:00');
    await clock('Bre', 'in', '2027-01-13T09:00:00');
    await clock('Bre', 'break_start', '2027-01-13T12:00:00');
    const body = await home();
    expect(body).toMatchObject({ date: '2027-01-13', time_zone: 'Europe/Madrid' });
    expect(states(body)).toEqual({ Noa: 'missing', Dia: 'in', Bre: 'break', Aus: 'absent', Fal: 'missing' });
    const byName = Object.fromEntries(
      body.people.map((person: { name: string }) => [person.name.split(' ')[0], person]),
    );
    expect(byName.Dia.since).toBe('2027-01-13T08:00:00.000Z');
    expect(byName.Bre.since).toBe('2027-01-13T11:00:00.000Z');
    expect(byName.Aus).toMatchObject({ absence_type: expect.any(String), expected_minutes: 0 });
    expect(byName.Fal).toMatchObject({ since: null, expected_minutes: 480 });
    expect(body.counts).toMatchObject({ in: 1, break: 1, absent: 1, missing: 2, out: 0, off: 0 });
    expect(body.pending).toEqual({ absences: 1, corrections: 0 });
  });

  it('keeps a night shift in across midnight, until its out', async () => {
    at('2027-01-13T23:30:00');
    await clock('Dia', 'out', '2027-01-13T17:00:00');
    await clock('Bre', 'break_end', '2027-01-13T12:30:00');
    await clock('Bre', 'out', '2027-01-13T17:30:00');
    await clock('Noa', 'in', '2027-01-13T22:00:00');
    expect(states(await home())).toEqual({
      Noa: 'in',
      Dia: 'out',
      Bre: 'out',
      Aus: 'absent',
      Fal: 'missing',
    });

    // 03:00 on Thursday: a new company day; Noa's shift from Wednesday 22:00 is still open.
    at('2027-01-14T03:00:00');
    const night = await home();
    expect(night.date).toBe('2027-01-14');
    expect(states(night)).toEqual({
      Noa: 'in',
      Dia: 'missing',
      Bre: 'missing',
      Aus: 'missing',
      Fal: 'missing',
    });
    expect(night.people.find((person: { name: string }) => person.name.startsWith('Noa')).since).toBe(
      '2027-01-13T21:00:00.000Z',
    );

    at('2027-01-14T06:30:00');
    await clock('Noa', 'out', '2027-01-14T06:00:00');
    expect(states(await home()).Noa).toBe('out');
  });

  it('lists the problem days of the last two weeks: late records and ignored events', async () => {
    at('2027-01-15T19:00:00');
    // Wednesday's shift recorded two days late; an out with no shift open on Friday.
    await clock('Fal', 'in', '2027-01-13T09:00:00');
    await clock('Fal', 'out', '2027-01-13T17:00:00');
    await clock('Fal', 'out', '2027-01-15T18:00:00');
    // Aus's in on Thursday morning, never followed by an out: after 24 hours the day is incomplete.
    await clock('Aus', 'in', '2027-01-14T09:00:00');
    at('2027-01-15T19:05:00');
    const body = await home();
    expect(body.problems).toContainEqual(
      expect.objectContaining({ name: 'Aus Home', date: '2027-01-14', incomplete_shifts: 1 }),
    );
    const fal = body.problems.filter((row: { name: string }) => row.name.startsWith('Fal'));
    expect(fal).toEqual([
      expect.objectContaining({ date: '2027-01-15', anomalies: 1, late_records: 0 }),
      expect.objectContaining({ date: '2027-01-13', late_records: 2 }),
    ]);
    expect(body.month.month).toBe('2027-01');
    expect(body.month.worked_minutes).toBeGreaterThan(0);
  });

  it('charts the last 8 weeks, the month’s overtime and the year’s absences', async () => {
    at('2027-01-15T19:30:00');
    // A long Thursday for Bre: eleven hours against eight expected.
    await clock('Bre', 'in', '2027-01-14T08:00:00');
    await clock('Bre', 'out', '2027-01-14T19:00:00');
    const session = await dashboardSession(ctx, admin.email, admin.password);
    const response = await session.call('GET', '/dashboard/api/live/charts');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.weeks).toHaveLength(8);
    expect(body.weeks.at(-1)).toMatchObject({ week_start: '2027-01-11' });
    expect(body.weeks[0].week_start).toBe('2026-11-23');
    expect(body.weeks.at(-1).worked_minutes).toBeGreaterThan(0);
    // Noa's night shift (8 h) and the others' days are in the week's figures; the month's summary agrees.
    const month = (
      await company.live.get('/v1/work-summaries', {
        query: { period: 'month', from: '2027-01-01', to: '2027-01-15' },
      })
    ).json().data as Array<{ employee_id: string; overtime_minutes: number }>;
    expect(body.overtime).toEqual(
      month
        .filter((row) => row.overtime_minutes > 0)
        .sort((a, b) => b.overtime_minutes - a.overtime_minutes)
        .map((row) =>
          expect.objectContaining({ employee_id: row.employee_id, overtime_minutes: row.overtime_minutes }),
        ),
    );
    expect(body.overtime[0]).toMatchObject({ name: 'Bre Home', overtime_minutes: 180 });
    expect(body.absences).toEqual([{ key: 'vacation', label: expect.any(String), days: 1 }]);
  });

  it('shows only the session’s own company', async () => {
    const other = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    await hire(other.live, { first_name: 'Otra', last_name: 'Empresa' });
    const body = await home();
    expect(body.people.map((person: { name: string }) => person.name)).not.toContain('Otra Empresa');
    expect(body.people).toHaveLength(5);
  });

  it("expects nobody on their work centre's local holiday, and the others as usual", async () => {
    const centre = (
      await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, { name: 'Centro Local' })
    ).json().id;
    await hire(company.live, {
      first_name: 'Loc',
      last_name: 'Home',
      hire_date: '2026-01-01',
      location_id: centre,
    });
    const holiday = await ctx.admin.post(`/admin/v1/companies/${company.id}/holidays`, {
      date: '2027-01-18',
      name: 'Fiesta del centro',
      location_id: centre,
    });
    expect(holiday.statusCode, holiday.body).toBe(201);
    // Monday 18 January at 10:00: the centre's employee is off, everyone else scheduled is expected.
    at('2027-01-18T10:00:00');
    const body = await home();
    const byName = Object.fromEntries(
      body.people.map((person: { name: string }) => [person.name.split(' ')[0], person]),
    );
    expect(byName.Loc).toMatchObject({ state: 'off', expected_minutes: 0 });
    expect(byName.Fal).toMatchObject({ state: 'missing', expected_minutes: 480 });
  });
});
