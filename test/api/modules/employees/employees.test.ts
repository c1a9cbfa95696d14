import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { nextUtcHour, pinClock, useCompanyContext } from '../../../helpers/context.ts';
import { eventsDuring, eventsOf, hire } from '../../../helpers/resources.ts';

const env = useCompanyContext();
// Fresh rate-limit window for each test (live keys allow 120 requests a minute).
beforeEach(() => env.ctx.clock.advance(60));

const today = () => env.ctx.clock.now().toZonedDateTimeISO('Europe/Madrid').toPlainDate().toString();

describe('POST /v1/employees', () => {
  it('creates an employee with the documented defaults and emits employee.created', async () => {
    let body: Record<string, unknown> = {};
    const events = await eventsDuring(env.ctx.db, env.company.id, async () => {
      const response = await env.company.live.post('/v1/employees', {
        first_name: 'Lucía',
        last_name: 'Martín',
        email: 'Lucia.Martin@Example.com',
      });
      expect(response.statusCode).toBe(201);
      body = response.json();
    });
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      first_name: 'Lucía',
      last_name: 'Martín',
      email: 'Lucia.Martin@Example.com',
      external_id: null,
      status: 'active',
      hire_date: today(),
      termination_date: null,
      location_id: null,
      unit_id: null,
      timezone: null,
      work_schedule: { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 },
      vacation_days_per_year: 22,
      contract_type: 'full_time',
      weekly_minutes: 2400,
      part_time_percentage: null,
      complementary_limit_percentage: null,
      overtime_compensation: null,
      // The later of the hire date and the company's tracking start (2000-01-01 for the test companies).
      tracking_start_date: today(),
      opening_banked_minutes: 0,
      national_id: null,
      social_security_number: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: body.created_at,
    });
    expect(events).toEqual([{ type: 'employee.created', data: { employee_id: body.id } }]);
  });

  it('takes every writable field', async () => {
    const location = (
      await env.ctx.admin.post(`/admin/v1/companies/${env.company.id}/locations`, { name: 'Bilbao' })
    ).json();
    const unit = (
      await env.ctx.admin.post(`/admin/v1/companies/${env.company.id}/units`, {
        name: 'Kitchen',
        location_id: location.id,
      })
    ).json();
    const employee = await hire(env.company.live, {
      external_id: 'PAY-001',
      hire_date: '2025-03-01',
      location_id: location.id,
      unit_id: unit.id,
      timezone: 'america/new_york',
      work_schedule: { mon: 420, tue: 420, wed: 420, thu: 420, fri: 300, sat: 0, sun: 0 },
      vacation_days_per_year: 23.5,
    });
    expect(employee).toMatchObject({
      external_id: 'PAY-001',
      hire_date: '2025-03-01',
      location_id: location.id,
      unit_id: unit.id,
      timezone: 'America/New_York',
      work_schedule: { mon: 420, fri: 300, sun: 0 },
      vacation_days_per_year: 23.5,
    });
    expect((await env.company.live.get(`/v1/employees/${employee.id}`)).json()).toEqual(employee);
  });

  it('refuses a duplicate email in the same company, case-insensitively, and accepts it in another', async () => {
    await hire(env.company.live, { email: 'dup@example.com' });
    const again = await env.company.live.post('/v1/employees', {
      first_name: 'B',
      last_name: 'B',
      email: 'DUP@example.com',
    });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({
      code: 'validation_failed',
      errors: { email: [expect.any(String)] },
    });
    const other = await env.ctx.createCompany();
    await hire(other.live, { email: 'dup@example.com' });
  });

  it('refuses a duplicate external_id, and accepts several employees without one', async () => {
    await hire(env.company.live, { external_id: 'X-1' });
    await hire(env.company.live);
    await hire(env.company.live);
    const again = await env.company.live.post('/v1/employees', {
      first_name: 'B',
      last_name: 'B',
      email: 'x1@example.com',
      external_id: 'X-1',
    });
    expect(again.statusCode).toBe(422);
    expect(Object.keys(again.json().errors)).toEqual(['external_id']);
  });

  it('answers 422 with per-field errors for invalid bodies', async () => {
    const other = await env.ctx.createCompany();
    const foreignLocation = (
      await env.ctx.admin.post(`/admin/v1/companies/${other.id}/locations`, { name: 'Theirs' })
    ).json();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ nickname: 'x' }, 'nickname'],
      [{ email: 'not-an-email' }, 'email'],
      [{ first_name: '' }, 'first_name'],
      [{ hire_date: '2026-02-30' }, 'hire_date'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ work_schedule: { mon: 1441, tue: 0, wed: 0, thu: 0, fri: 0, sat: 0, sun: 0 } }, 'work_schedule.mon'],
      [{ work_schedule: { mon: 60 } }, 'work_schedule.tue'],
      [{ vacation_days_per_year: 22.3 }, 'vacation_days_per_year'],
      [{ location_id: foreignLocation.id }, 'location_id'],
      [{ status: 'terminated' }, 'status'],
    ];
    for (const [fields, path] of cases) {
      const response = await env.company.live.post('/v1/employees', {
        first_name: 'A',
        last_name: 'B',
        email: `case.${path}@example.com`,
        ...fields,
      });
      expect(response.statusCode, path).toBe(422);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(Object.keys(response.json().errors), path).toContain(path);
    }
    const missing = await env.company.live.post('/v1/employees', {});
    expect(Object.keys(missing.json().errors).sort()).toEqual(['email', 'first_name', 'last_name']);
  });

  it('answers 402 billing_required when every seat is taken, the same on retry, and frees a seat on termination', async () => {
    const small = await env.ctx.createCompany({ seats: 2 });
    const first = await hire(small.live);
    await hire(small.live);
    const body = { first_name: 'C', last_name: 'C', email: 'c@example.com' };
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await small.live.post('/v1/employees', body);
      expect(refused.statusCode).toBe(402);
      expect(refused.json().code).toBe('billing_required');
    }
    expect((await small.live.get('/v1/organization')).json().active_employees).toBe(2);
    expect((await small.live.post(`/v1/employees/${first.id}/terminate`)).statusCode).toBe(200);
    expect((await small.live.get('/v1/organization')).json().active_employees).toBe(1);
    expect((await small.live.post('/v1/employees', body)).statusCode).toBe(201);
    // The sandbox has its own count against the same number of seats.
    await hire(small.test);
    await hire(small.test);
    expect((await small.test.post('/v1/employees', body)).statusCode).toBe(402);
  });

  it('admits exactly the free seats under concurrent creation', async () => {
    const small = await env.ctx.createCompany({ seats: 3 });
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        small.live.post('/v1/employees', {
          first_name: 'P',
          last_name: `${index}`,
          email: `p${index}@example.com`,
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 402, 402, 402, 402, 402]);
    const row = await env.ctx.db
      .selectFrom('companies')
      .select('active_employee_count')
      .where('id', '=', small.id)
      .executeTakeFirstOrThrow();
    expect(row.active_employee_count).toBe(3);
  });

  it('keeps the employee and its event together: a failure after the event insert leaves neither', async () => {
    const tenant = await env.ctx.createCompany();
    // A deferred constraint trigger fails the transaction at commit, after both rows were written.
    await sql`create function fail_on_commit() returns trigger language plpgsql as $$
      begin raise exception 'injected failure after the event insert'; end $$`.execute(env.ctx.db);
    await sql
      .raw(`create constraint trigger fail_events after insert on events deferrable initially deferred
      for each row when (new.company_id = '${tenant.id}') execute function fail_on_commit()`)
      .execute(env.ctx.db);
    try {
      const response = await tenant.live.post('/v1/employees', {
        first_name: 'Lost',
        last_name: 'Write',
        email: 'lost@example.com',
      });
      expect(response.statusCode).toBe(500);
      expect(response.json().code).toBe('internal_error');
      const employees = await env.ctx.db
        .selectFrom('employees')
        .select('id')
        .where('company_id', '=', tenant.id)
        .execute();
      expect(employees).toEqual([]);
      expect(await eventsOf(env.ctx.db, tenant.id)).toEqual([]);
      expect((await tenant.live.get('/v1/organization')).json().active_employees).toBe(0);
    } finally {
      await sql`drop trigger fail_events on events`.execute(env.ctx.db);
      await sql`drop function fail_on_commit()`.execute(env.ctx.db);
    }
    // With the failure gone, the same request succeeds.
    expect(
      (
        await tenant.live.post('/v1/employees', {
          first_name: 'L',
          last_name: 'W',
          email: 'lost@example.com',
        })
      ).statusCode,
    ).toBe(201);
  });
});

describe('GET /v1/employees', () => {
  it('filters by status, location, unit and updated_since, and pages with a cursor', async () => {
    const tenant = await env.ctx.createCompany();
    const location = (
      await env.ctx.admin.post(`/admin/v1/companies/${tenant.id}/locations`, { name: 'Site' })
    ).json();
    const unit = (
      await env.ctx.admin.post(`/admin/v1/companies/${tenant.id}/units`, { name: 'Unit' })
    ).json();
    const a = await hire(tenant.live, { location_id: location.id });
    const b = await hire(tenant.live, { unit_id: unit.id });
    env.ctx.clock.advance(2);
    const c = await hire(tenant.live);
    env.ctx.clock.advance(2);
    await tenant.live.post(`/v1/employees/${c.id}/terminate`);

    const ids = async (query: Record<string, string | number>) =>
      (await tenant.live.get('/v1/employees', { query })).json().data.map((row: { id: string }) => row.id);
    expect(await ids({})).toEqual([a.id, b.id, c.id]);
    expect(await ids({ status: 'active' })).toEqual([a.id, b.id]);
    expect(await ids({ status: 'terminated' })).toEqual([c.id]);
    expect(await ids({ location_id: location.id })).toEqual([a.id]);
    expect(await ids({ unit_id: unit.id })).toEqual([b.id]);
    // Instants are shown at whole seconds; one second past b's is after b's exact time and before c's.
    const afterB = Temporal.Instant.from(b.updated_at).add({ seconds: 1 }).toString();
    expect(await ids({ updated_since: afterB })).toEqual([c.id]);

    const first = (await tenant.live.get('/v1/employees', { query: { limit: 2 } })).json();
    expect(first.meta.has_more).toBe(true);
    const second = (
      await tenant.live.get('/v1/employees', { query: { limit: 2, cursor: first.meta.next_cursor } })
    ).json();
    expect(second.data.map((row: { id: string }) => row.id)).toEqual([c.id]);
    expect(second.meta).toEqual({ next_cursor: null, has_more: false });
    const rebound = await tenant.live.get('/v1/employees', {
      query: { cursor: first.meta.next_cursor, status: 'active' },
    });
    expect(rebound.statusCode).toBe(422);

    expect((await tenant.live.get('/v1/employees', { query: { status: 'gone' } })).statusCode).toBe(422);
    expect((await tenant.live.get('/v1/employees', { query: { unknown: 1 } })).statusCode).toBe(422);
  });

  it('answers 404 for an unknown employee and 422 for a malformed id', async () => {
    const missing = await env.company.live.get('/v1/employees/0190a0a0-0000-7000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('not_found');
    expect((await env.company.live.get('/v1/employees/abc')).statusCode).toBe(422);
  });
});

describe('PATCH /v1/employees/{id}', () => {
  it('changes writable fields and emits employee.updated', async () => {
    // At noon UTC (the next one; the clock only moves forward) the zone change (dated today in the old zone) and
    // its undo (today in Auckland, a day ahead) fall on two dates: a time zone has one zone per date, and a second
    // change dated the same day is 409 (the test below).
    pinClock(env.ctx.clock, nextUtcHour(env.ctx.clock, 12));
    const employee = await hire(env.company.live);
    env.ctx.clock.advance(1);
    let updated: Record<string, unknown> = {};
    const events = await eventsDuring(env.ctx.db, env.company.id, async () => {
      const response = await env.company.live.patch(`/v1/employees/${employee.id}`, {
        last_name: 'Nuevo',
        external_id: 'E-9',
        timezone: 'Pacific/Auckland',
        work_schedule: { mon: 0, tue: 0, wed: 0, thu: 0, fri: 0, sat: 600, sun: 600 },
      });
      expect(response.statusCode).toBe(200);
      updated = response.json();
    });
    expect(updated).toMatchObject({
      last_name: 'Nuevo',
      external_id: 'E-9',
      timezone: 'Pacific/Auckland',
      work_schedule: { sat: 600, sun: 600, mon: 0 },
      first_name: employee.first_name,
      created_at: employee.created_at,
    });
    expect(updated.updated_at).not.toBe(employee.updated_at);
    expect(events).toEqual([{ type: 'employee.updated', data: { employee_id: employee.id } }]);

    const cleared = (
      await env.company.live.patch(`/v1/employees/${employee.id}`, { external_id: null, timezone: null })
    ).json();
    expect(cleared).toMatchObject({ external_id: null, timezone: null });
  });

  it('refuses a second time-zone change dated the same day: a date has one zone (409)', async () => {
    // At 01:00 UTC it is the same date in Madrid (02:00) and in Auckland (14:00).
    pinClock(env.ctx.clock, nextUtcHour(env.ctx.clock, 1));
    const employee = await hire(env.company.live);
    const moved = await env.company.live.patch(`/v1/employees/${employee.id}`, {
      timezone: 'Pacific/Auckland',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const back = await env.company.live.patch(`/v1/employees/${employee.id}`, { timezone: null });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({ code: 'conflict', errors: { effective_from: expect.any(String) } });
    expect((await env.company.live.get(`/v1/employees/${employee.id}`)).json().timezone).toBe(
      'Pacific/Auckland',
    );
  });

  it('is a no-op, without an event, when nothing changes', async () => {
    const employee = await hire(env.company.live);
    env.ctx.clock.advance(1);
    const events = await eventsDuring(env.ctx.db, env.company.id, async () => {
      const response = await env.company.live.patch(`/v1/employees/${employee.id}`, {
        first_name: employee.first_name,
        vacation_days_per_year: 22,
      });
      expect(response.json()).toEqual(employee);
    });
    expect(events).toEqual([]);
  });

  it('refuses status, a duplicate email, a foreign unit and termination_date on an active employee', async () => {
    const employee = await hire(env.company.live);
    const other = await hire(env.company.live);
    const url = `/v1/employees/${employee.id}`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ status: 'terminated' }, 'status'],
      [{ email: other.email.toUpperCase() }, 'email'],
      [{ unit_id: '0190a0a0-0000-7000-8000-000000000000' }, 'unit_id'],
      [{ termination_date: '2026-12-31' }, 'termination_date'],
      [{ first_name: null }, 'first_name'],
    ];
    for (const [body, field] of cases) {
      const response = await env.company.live.patch(url, body);
      expect(response.statusCode, field).toBe(422);
      expect(Object.keys(response.json().errors), field).toContain(field);
    }
    expect((await env.company.live.get(url)).json()).toEqual(employee);
  });

  it('answers 404 for an unknown employee', async () => {
    const response = await env.company.live.patch('/v1/employees/0190a0a0-0000-7000-8000-000000000000', {
      first_name: 'X',
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('POST /v1/employees/{id}/terminate', () => {
  it('terminates with a date, emits employee.terminated, and answers 409 the second time', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-01-01' });
    let terminated: Record<string, unknown> = {};
    const events = await eventsDuring(env.ctx.db, env.company.id, async () => {
      const response = await env.company.live.post(`/v1/employees/${employee.id}/terminate`, {
        termination_date: '2026-06-30',
      });
      expect(response.statusCode).toBe(200);
      terminated = response.json();
    });
    expect(terminated).toMatchObject({ status: 'terminated', termination_date: '2026-06-30' });
    expect(events).toEqual([{ type: 'employee.terminated', data: { employee_id: employee.id } }]);

    const again = await env.company.live.post(`/v1/employees/${employee.id}/terminate`, {
      termination_date: '2026-07-31',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('conflict');
    expect((await env.company.live.get(`/v1/employees/${employee.id}`)).json().termination_date).toBe(
      '2026-06-30',
    );

    // The date of a terminated employee can be corrected, never moved before the hire date.
    const corrected = await env.company.live.patch(`/v1/employees/${employee.id}`, {
      termination_date: '2026-07-15',
    });
    expect(corrected.json()).toMatchObject({ status: 'terminated', termination_date: '2026-07-15' });
    const backwards = await env.company.live.patch(`/v1/employees/${employee.id}`, {
      termination_date: '2025-12-31',
    });
    expect(backwards.statusCode).toBe(422);
  });

  it('defaults the date to today, works with no body, and refuses a date before the hire date', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-01-10' });
    const early = await env.company.live.post(`/v1/employees/${employee.id}/terminate`, {
      termination_date: '2026-01-09',
    });
    expect(early.statusCode).toBe(422);
    expect(Object.keys(early.json().errors)).toEqual(['termination_date']);
    const response = await env.company.live.request('POST', `/v1/employees/${employee.id}/terminate`);
    expect(response.statusCode).toBe(200);
    expect(response.json().termination_date).toBe(today());
  });
});

describe('scopes', () => {
  it('needs org:empleados:read to read and org:empleados:write to write', async () => {
    const reader = await env.ctx.createKey(env.company.id, 'live', ['org:empleados:read']);
    const writer = await env.ctx.createKey(env.company.id, 'live', ['org:fichajes:read']);
    const employee = await hire(env.company.live);
    const asReader = env.ctx.as(reader.secret);
    expect((await asReader.get(`/v1/employees/${employee.id}`)).statusCode).toBe(200);
    const refusals = [
      await asReader.post('/v1/employees', { first_name: 'A', last_name: 'B', email: 'scope@example.com' }),
      await asReader.patch(`/v1/employees/${employee.id}`, { first_name: 'X' }),
      await asReader.post(`/v1/employees/${employee.id}/terminate`),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'invalid_scope',
        errors: { required_scope: 'org:empleados:write' },
      });
    }
    const listing = await env.ctx.as(writer.secret).get('/v1/employees');
    expect(listing.json()).toMatchObject({
      code: 'invalid_scope',
      errors: { required_scope: 'org:empleados:read' },
    });
  });
});

describe('employment dates and recorded check-ins', () => {
  it('refuses a hire or termination date that would leave a check-in outside the employment (local days)', async () => {
    const tenant = env.company.live;
    const person = await hire(tenant, { hire_date: '2026-01-01', timezone: 'Europe/Madrid' });
    const record = async (timestamp: string) => {
      const response = await tenant.post('/v1/check-ins', { employee_id: person.id, type: 'in', timestamp });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    };
    // 00:30 on 10 November in Madrid, still 9 November in UTC.
    const first = await record('2026-11-09T23:30:00Z');
    const last = await record('2026-11-12T08:00:00Z');

    const later = await tenant.patch(`/v1/employees/${person.id}`, { hire_date: '2026-11-11' });
    expect(later.statusCode, later.body).toBe(409);
    expect(later.json()).toMatchObject({ code: 'conflict', errors: { check_in_id: first.id } });
    expect((await tenant.get(`/v1/employees/${person.id}`)).json().hire_date).toBe('2026-01-01');
    const sameDay = await tenant.patch(`/v1/employees/${person.id}`, { hire_date: '2026-11-10' });
    expect(sameDay.statusCode, sameDay.body).toBe(200);

    const early = await tenant.post(`/v1/employees/${person.id}/terminate`, {
      termination_date: '2026-11-11',
    });
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().errors.check_in_id).toBe(last.id);
    expect((await tenant.get(`/v1/employees/${person.id}`)).json().status).toBe('active');
    const onTime = await tenant.post(`/v1/employees/${person.id}/terminate`, {
      termination_date: '2026-11-12',
    });
    expect(onTime.statusCode, onTime.body).toBe(200);
    const corrected = await tenant.patch(`/v1/employees/${person.id}`, { termination_date: '2026-11-11' });
    expect(corrected.statusCode).toBe(409);
  });
});
