import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allowAnySyncStamp } from '../../../../src/db/sync-stamp.ts';
import type { TestCompany } from '../../../helpers/context.ts';
import { useCompanyContext } from '../../../helpers/context.ts';
import { eventsDuring, hire } from '../../../helpers/resources.ts';

const env = useCompanyContext();
beforeEach(() => env.ctx.clock.advance(60));

let tenant: TestCompany;
beforeAll(async () => {
  tenant = env.company;
  await env.ctx.admin.post(`/admin/v1/companies/${tenant.id}/holidays`, {
    date: '2026-05-01',
    name: 'Labour Day',
  });
  await env.ctx.admin.post(`/admin/v1/companies/${tenant.id}/absence-types`, {
    key: 'training',
    label: 'Training',
  });
});

const request = async (fields: Record<string, unknown>) =>
  await tenant.live.post('/v1/absences', { type: 'vacation', ...fields });

async function requested(fields: Record<string, unknown>) {
  const response = await request(fields);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('POST /v1/absences', () => {
  it('creates a requested absence counting scheduled working days, and emits its events', async () => {
    const employee = await hire(tenant.live);
    let absence: Record<string, unknown> = {};
    const events = await eventsDuring(env.ctx.db, tenant.id, async () => {
      // Monday 27 April to Sunday 3 May 2026: five weekdays, one of them the 1 May holiday.
      absence = await requested({
        employee_id: employee.id,
        start_date: '2026-04-27',
        end_date: '2026-05-03',
        note: 'Family trip',
      });
    });
    expect(absence).toEqual({
      id: expect.any(String),
      employee_id: employee.id,
      type: { key: 'vacation', label: 'Vacaciones' },
      start_date: '2026-04-27',
      end_date: '2026-05-03',
      half_day: false,
      status: 'requested',
      days_count: 4,
      note: 'Family trip',
      denial_reason: null,
      decided_at: null,
      cancelled_at: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: absence.created_at,
    });
    expect(events).toEqual([
      {
        type: 'absence.requested',
        data: { absence_id: absence.id, employee_id: employee.id, status: 'requested' },
      },
      { type: 'vacation_balance.updated', data: { employee_id: employee.id, year: 2026 } },
    ]);
    expect((await tenant.live.get(`/v1/absences/${absence.id}`)).json()).toEqual(absence);
  });

  it('counts by the employee’s own schedule and half days as 0.5', async () => {
    const weekender = await hire(tenant.live, {
      work_schedule: { mon: 0, tue: 0, wed: 0, thu: 0, fri: 240, sat: 480, sun: 480 },
    });
    const week = await requested({
      employee_id: weekender.id,
      type: 'sick_leave',
      start_date: '2026-04-27',
      end_date: '2026-05-03',
    });
    // Friday 1 May is a holiday: Saturday and Sunday remain.
    expect(week.days_count).toBe(2);
    expect(week.type).toEqual({ key: 'sick_leave', label: 'Baja por enfermedad' });
    const half = await requested({
      employee_id: weekender.id,
      type: 'training',
      start_date: '2026-05-09',
      end_date: '2026-05-09',
      half_day: true,
    });
    expect(half).toMatchObject({
      days_count: 0.5,
      half_day: true,
      type: { key: 'training', label: 'Training' },
    });
    const off = await requested({
      employee_id: weekender.id,
      start_date: '2026-05-11',
      end_date: '2026-05-11',
    });
    expect(off.days_count).toBe(0);
  });

  it('emits no balance event for other types, and one per year for a vacation across the new year', async () => {
    const employee = await hire(tenant.live);
    const sick = await eventsDuring(env.ctx.db, tenant.id, () =>
      requested({
        employee_id: employee.id,
        type: 'sick_leave',
        start_date: '2026-06-01',
        end_date: '2026-06-02',
      }),
    );
    expect(sick.map((event) => event.type)).toEqual(['absence.requested']);
    const newYear = await eventsDuring(env.ctx.db, tenant.id, () =>
      requested({ employee_id: employee.id, start_date: '2026-12-28', end_date: '2027-01-08' }),
    );
    expect(newYear.slice(1)).toEqual([
      { type: 'vacation_balance.updated', data: { employee_id: employee.id, year: 2026 } },
      { type: 'vacation_balance.updated', data: { employee_id: employee.id, year: 2027 } },
    ]);
  });

  it('answers 422 for each invalid request and stores nothing', async () => {
    const employee = await hire(tenant.live, { hire_date: '2026-02-01' });
    const stranger = await hire((await env.ctx.createCompany()).live);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'sabbatical' }, 'type'],
      [{ end_date: '2026-03-01' }, 'end_date'],
      [{ end_date: '2027-03-10' }, 'end_date'],
      [{ half_day: true }, 'half_day'],
      [{ employee_id: stranger.id }, 'employee_id'],
      [{ start_date: '2026-01-31' }, 'start_date'],
      [{ start_date: '2026-13-01' }, 'start_date'],
      [{ status: 'approved' }, 'status'],
      [{ note: 'x'.repeat(1001) }, 'note'],
    ];
    for (const [fields, field] of cases) {
      const response = await request({
        employee_id: employee.id,
        start_date: '2026-03-02',
        end_date: '2026-03-06',
        ...fields,
      });
      expect(response.statusCode, JSON.stringify(fields)).toBe(422);
      expect(Object.keys(response.json().errors), JSON.stringify(fields)).toContain(field);
    }
    const listed = await tenant.live.get('/v1/absences', { query: { employee_id: employee.id } });
    expect(listed.json().data).toEqual([]);
  });

  it('refuses an absence after the termination date of a terminated employee', async () => {
    const employee = await hire(tenant.live, { hire_date: '2026-01-01' });
    await tenant.live.post(`/v1/employees/${employee.id}/terminate`, { termination_date: '2026-03-31' });
    const response = await request({
      employee_id: employee.id,
      start_date: '2026-03-30',
      end_date: '2026-04-02',
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['end_date']);
  });

  it('answers 409 on overlap with a requested or approved absence, not with a denied or cancelled one', async () => {
    const employee = await hire(tenant.live);
    const first = await requested({
      employee_id: employee.id,
      start_date: '2026-07-06',
      end_date: '2026-07-10',
    });
    const overlap = await request({
      employee_id: employee.id,
      type: 'sick_leave',
      start_date: '2026-07-10',
      end_date: '2026-07-13',
    });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json()).toMatchObject({ code: 'conflict', errors: { conflicting_absence_id: first.id } });
    await tenant.live.post(`/v1/absences/${first.id}/approve`);
    expect(
      (await request({ employee_id: employee.id, start_date: '2026-07-08', end_date: '2026-07-08' }))
        .statusCode,
    ).toBe(409);
    await tenant.live.post(`/v1/absences/${first.id}/cancel`);
    const again = await requested({
      employee_id: employee.id,
      start_date: '2026-07-08',
      end_date: '2026-07-08',
    });
    await tenant.live.post(`/v1/absences/${again.id}/reject`);
    await requested({ employee_id: employee.id, start_date: '2026-07-06', end_date: '2026-07-10' });
    // Another employee's absences never conflict.
    const other = await hire(tenant.live);
    await requested({ employee_id: other.id, start_date: '2026-07-06', end_date: '2026-07-10' });
  });

  it('admits one of several concurrent overlapping requests', async () => {
    const employee = await hire(tenant.live);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        request({ employee_id: employee.id, start_date: '2026-08-03', end_date: `2026-08-0${4 + index}` }),
      ),
    );
    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });
});

describe('deciding an absence', () => {
  it('approves once, with events, and answers 409 without change afterwards', async () => {
    const employee = await hire(tenant.live);
    const absence = await requested({
      employee_id: employee.id,
      start_date: '2026-09-07',
      end_date: '2026-09-08',
    });
    let approved: Record<string, unknown> = {};
    const events = await eventsDuring(env.ctx.db, tenant.id, async () => {
      const response = await tenant.live.post(`/v1/absences/${absence.id}/approve`);
      expect(response.statusCode).toBe(200);
      approved = response.json();
    });
    expect(approved).toMatchObject({
      status: 'approved',
      decided_at: expect.stringMatching(/Z$/),
      cancelled_at: null,
    });
    expect(events).toEqual([
      {
        type: 'absence.approved',
        data: { absence_id: absence.id, employee_id: employee.id, status: 'approved' },
      },
      { type: 'vacation_balance.updated', data: { employee_id: employee.id, year: 2026 } },
    ]);
    env.ctx.clock.advance(5);
    for (const decision of ['approve', 'reject']) {
      const noChange = await eventsDuring(env.ctx.db, tenant.id, async () => {
        const response = await tenant.live.post(`/v1/absences/${absence.id}/${decision}`);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toMatchObject({ code: 'conflict', errors: { status: 'approved' } });
      });
      expect(noChange).toEqual([]);
    }
    expect((await tenant.live.get(`/v1/absences/${absence.id}`)).json()).toEqual(approved);
  });

  it('rejects with a reason, and emits absence.denied', async () => {
    const employee = await hire(tenant.live);
    const absence = await requested({
      employee_id: employee.id,
      type: 'sick_leave',
      start_date: '2026-09-14',
      end_date: '2026-09-14',
    });
    const events = await eventsDuring(env.ctx.db, tenant.id, async () => {
      const response = await tenant.live.post(`/v1/absences/${absence.id}/reject`, { reason: 'Peak season' });
      expect(response.json()).toMatchObject({ status: 'denied', denial_reason: 'Peak season' });
    });
    expect(events).toEqual([
      {
        type: 'absence.denied',
        data: { absence_id: absence.id, employee_id: employee.id, status: 'denied' },
      },
    ]);
    expect((await tenant.live.post(`/v1/absences/${absence.id}/cancel`)).statusCode).toBe(409);
    const bad = await tenant.live.post(`/v1/absences/${absence.id}/reject`, { reason: 'x', extra: true });
    expect(bad.statusCode).toBe(422);
  });

  it('cancels a requested or an approved absence, once', async () => {
    const employee = await hire(tenant.live);
    const a = await requested({ employee_id: employee.id, start_date: '2026-10-05', end_date: '2026-10-05' });
    const b = await requested({ employee_id: employee.id, start_date: '2026-10-06', end_date: '2026-10-06' });
    await tenant.live.post(`/v1/absences/${b.id}/approve`);
    for (const absence of [a, b]) {
      const events = await eventsDuring(env.ctx.db, tenant.id, async () => {
        const response = await tenant.live.post(`/v1/absences/${absence.id}/cancel`);
        expect(response.json()).toMatchObject({
          status: 'cancelled',
          cancelled_at: expect.stringMatching(/Z$/),
        });
      });
      expect(events.map((event) => event.type)).toEqual(['absence.cancelled', 'vacation_balance.updated']);
      expect((await tenant.live.post(`/v1/absences/${absence.id}/cancel`)).statusCode).toBe(409);
      expect((await tenant.live.post(`/v1/absences/${absence.id}/approve`)).statusCode).toBe(409);
    }
  });

  it('makes exactly one transition and one event out of concurrent approvals', async () => {
    const employee = await hire(tenant.live);
    const absence = await requested({
      employee_id: employee.id,
      type: 'sick_leave',
      start_date: '2026-11-02',
      end_date: '2026-11-03',
    });
    const events = await eventsDuring(env.ctx.db, tenant.id, async () => {
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => tenant.live.post(`/v1/absences/${absence.id}/approve`)),
      );
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    });
    expect(events).toEqual([
      {
        type: 'absence.approved',
        data: { absence_id: absence.id, employee_id: employee.id, status: 'approved' },
      },
    ]);
  });

  it('answers 404 for an unknown absence', async () => {
    for (const decision of ['approve', 'reject', 'cancel']) {
      const response = await tenant.live.post(
        `/v1/absences/0190a0a0-0000-7000-8000-000000000000/${decision}`,
      );
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('GET /v1/absences and /v1/absence-types', () => {
  it('filters by employee, type, status, overlap range and updated_since', async () => {
    const company = await env.ctx.createCompany();
    const ana = await hire(company.live);
    const bo = await hire(company.live);
    const make = async (employee: { id: string }, type: string, start: string, end: string) => {
      env.ctx.clock.advance(1);
      const response = await company.live.post('/v1/absences', {
        employee_id: employee.id,
        type,
        start_date: start,
        end_date: end,
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().id as string;
    };
    const a1 = await make(ana, 'vacation', '2026-03-02', '2026-03-06');
    const a2 = await make(ana, 'sick_leave', '2026-03-20', '2026-03-20');
    const b1 = await make(bo, 'vacation', '2026-02-25', '2026-03-03');
    const b2 = await make(bo, 'vacation', '2026-04-01', '2026-04-03');
    env.ctx.clock.advance(2);
    await company.live.post(`/v1/absences/${a1}/approve`);
    await company.live.post(`/v1/absences/${b2}/approve`);
    await company.live.post(`/v1/absences/${b1}/reject`);

    const ids = async (query: Record<string, string | number>) => {
      const response = await company.live.get('/v1/absences', { query });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.map((row: { id: string }) => row.id);
    };
    expect(await ids({})).toEqual([a2, a1, b2, b1]);
    expect(await ids({ employee_id: ana.id })).toEqual([a2, a1]);
    expect(await ids({ type: 'vacation' })).toEqual([a1, b2, b1]);
    expect(await ids({ type: 'nothing' })).toEqual([]);
    expect(await ids({ status: 'requested' })).toEqual([a2]);
    expect(await ids({ status: 'denied' })).toEqual([b1]);
    // The spec's case: approved absences overlapping the range.
    expect(await ids({ status: 'approved', from: '2026-03-01', to: '2026-03-31' })).toEqual([a1]);
    expect(await ids({ from: '2026-03-01', to: '2026-03-31' })).toEqual([a2, a1, b1]);
    expect(await ids({ from: '2026-03-06', to: '2026-03-06' })).toEqual([a1]);
    expect(await ids({ from: '2026-04-03' })).toEqual([b2]);
    expect(await ids({ to: '2026-02-28' })).toEqual([b1]);
    const list = (await company.live.get('/v1/absences', { query: { limit: 4 } })).json().data;
    const afterA2 = Temporal.Instant.from(list[0].updated_at).add({ seconds: 1 }).toString();
    expect(await ids({ updated_since: afterA2 })).toEqual([a1, b2, b1]);

    const page = (await company.live.get('/v1/absences', { query: { limit: 3 } })).json();
    const rest = (
      await company.live.get('/v1/absences', { query: { limit: 3, cursor: page.meta.next_cursor } })
    ).json();
    expect([...page.data, ...rest.data].map((row: { id: string }) => row.id)).toEqual([a2, a1, b2, b1]);

    const bad = await company.live.get('/v1/absences', { query: { from: '2026-03-31', to: '2026-03-01' } });
    expect(Object.keys(bad.json().errors)).toEqual(['query.to']);
    expect((await company.live.get('/v1/absences', { query: { status: 'pending' } })).statusCode).toBe(422);
  });

  it('lists the built-in and custom absence types', async () => {
    const response = await tenant.live.get('/v1/absence-types');
    expect(response.statusCode).toBe(200);
    // A company in Madrid: the built-in labels in Spanish; the keys are the same everywhere.
    expect(response.json()).toEqual({
      data: [
        { key: 'vacation', label: 'Vacaciones' },
        { key: 'sick_leave', label: 'Baja por enfermedad' },
        { key: 'training', label: 'Training' },
      ],
      meta: { next_cursor: null, has_more: false },
    });
    const first = (await tenant.live.get('/v1/absence-types', { query: { limit: 1 } })).json();
    expect(first.meta.has_more).toBe(true);
  });

  it('labels the built-in types in the company’s language, in its sandbox too', async () => {
    const labels = async (client: TestCompany['live']) =>
      ((await client.get('/v1/absence-types')).json() as { data: Array<{ label: string }> }).data.map(
        (type) => type.label,
      );
    const canary = await env.ctx.createCompany({ timezone: 'Atlantic/Canary' });
    expect(await labels(canary.live)).toEqual(['Vacaciones', 'Baja por enfermedad']);
    expect(await labels(canary.test)).toEqual(['Vacaciones', 'Baja por enfermedad']);
    const lisbon = await env.ctx.createCompany({ timezone: 'Europe/Lisbon' });
    expect(await labels(lisbon.live)).toEqual(['Vacation', 'Sick leave']);
    expect(await labels(lisbon.test)).toEqual(['Vacation', 'Sick leave']);

    // Companies from before: migration 0025 moves a Spanish company's labels still as created, and nothing else.
    const madrid = await env.ctx.createCompany();
    await env.ctx.db
      .updateTable('absence_types')
      .set({ label: sql<string>`case key when 'vacation' then 'Vacation' else 'Bajas' end` })
      .where('company_id', '=', madrid.id)
      .execute();
    const before = await labels(lisbon.live);
    const migration = await readFile(
      new URL('../../../../src/db/migrations/0025_absence_type_language.sql', import.meta.url),
      'utf8',
    );
    // As the migrator runs it: in a transaction that may stamp any instant.
    await env.ctx.db.transaction().execute(async (tx) => {
      await allowAnySyncStamp(tx);
      await sql.raw(migration).execute(tx);
    });
    expect(await labels(madrid.live)).toEqual(['Vacaciones', 'Bajas']);
    expect(await labels(lisbon.live)).toEqual(before);
  });

  it('needs org:ausencias:read to read and org:ausencias:write to write', async () => {
    const reader = env.ctx.as((await env.ctx.createKey(tenant.id, 'live', ['org:ausencias:read'])).secret);
    const employee = await hire(tenant.live);
    const absence = await requested({
      employee_id: employee.id,
      start_date: '2026-12-01',
      end_date: '2026-12-01',
    });
    expect((await reader.get(`/v1/absences/${absence.id}`)).statusCode).toBe(200);
    expect((await reader.get('/v1/absence-types')).statusCode).toBe(200);
    for (const response of [
      await reader.post('/v1/absences', {
        employee_id: employee.id,
        type: 'vacation',
        start_date: '2026-12-02',
        end_date: '2026-12-02',
      }),
      await reader.post(`/v1/absences/${absence.id}/approve`),
      await reader.post(`/v1/absences/${absence.id}/reject`),
      await reader.post(`/v1/absences/${absence.id}/cancel`),
    ]) {
      expect(response.json()).toMatchObject({
        code: 'invalid_scope',
        errors: { required_scope: 'org:ausencias:write' },
      });
    }
    const none = env.ctx.as((await env.ctx.createKey(tenant.id, 'live', ['org:fichajes:read'])).secret);
    expect((await none.get('/v1/absences')).json().errors.required_scope).toBe('org:ausencias:read');
  });
});
