import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approveCorrection, requestCorrection } from '../../../../src/modules/corrections/corrections.service.ts';
import { verifyRegistry } from '../../../../src/modules/verification/verification.service.ts';
import type { ActingTenant } from '../../../../src/platform/tenant.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { eventsDuring, hire } from '../../../helpers/resources.ts';

/**
 * Corrections of the registry (issue 15, docs/registry.md): a recorded check-in changes only through a correction
 * that the company and the worker have both approved, and every step is in the employee's chain.
 */
let ctx: TestContext;
let company: TestCompany;
let other: TestCompany;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  other = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());
// A fresh rate-limit window for each test (a key admits 120 requests a minute).
beforeEach(() => ctx.clock.advance(60));

const iso = (instant: Temporal.Instant) => instant.toString({ smallestUnit: 'second' });
/** An instant on a local date in Madrid. */
const at = (date: string, time: string) =>
  iso(
    Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: 'Europe/Madrid', plainTime: time }).toInstant(),
  );

/** The worker's side, as the portal gives it: the same service, acting as the employee. */
const asWorker = (employeeId: string): ActingTenant => ({
  companyId: company.id,
  accountId: company.id,
  timezone: 'Europe/Madrid',
  actor: { type: 'employee', id: employeeId },
});
const workerAccepts = (employeeId: string, correctionId: string) =>
  approveCorrection(ctx.deps, asWorker(employeeId), correctionId);

async function clock(employeeId: string, events: Array<[string, string]>, client = company.live) {
  const ids: string[] = [];
  for (const [type, timestamp] of events) {
    const response = await client.post('/v1/check-ins', { employee_id: employeeId, type, timestamp });
    expect(response.statusCode, response.body).toBe(201);
    ids.push(response.json().id);
  }
  return ids;
}

async function day(employeeId: string, date: string) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'day', employee_id: employeeId, from: date, to: date },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0];
}

/** The company's request to void one check-in of an employee (a double `in`), pending. */
async function voidOf(employeeId: string, checkInId: string, reason = 'Double in') {
  const response = await company.live.post('/v1/check-in-corrections', {
    employee_id: employeeId,
    reason,
    void: [checkInId],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A worker hired long ago with a mistaken double `in` on 2026-10-05: the day is incomplete. */
async function doubleIn() {
  const employee = await hire(company.live, { hire_date: '2025-01-01' });
  const [first, second, out] = await clock(employee.id, [
    ['in', at('2026-10-05', '09:00')],
    ['in', at('2026-10-05', '09:02')],
    ['out', at('2026-10-05', '17:00')],
  ]);
  return { employee, first: first as string, second: second as string, out: out as string };
}

describe('requesting a correction', () => {
  it('refuses a request that names no change, no reason, or check-ins that are not the worker’s active ones', async () => {
    const { employee, second } = await doubleIn();
    const stranger = await hire(company.live, { hire_date: '2025-01-01' });
    const [strangers] = await clock(stranger.id, [['in', at('2026-10-06', '09:00')]]);
    const post = (body: Record<string, unknown>) => company.live.post('/v1/check-in-corrections', body);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ employee_id: employee.id, void: [second] }, 'reason'],
      [{ employee_id: employee.id, reason: '', void: [second] }, 'reason'],
      [{ employee_id: employee.id, reason: '   ', void: [second] }, 'reason'],
      [{ employee_id: employee.id, reason: 'x'.repeat(501), void: [second] }, 'reason'],
      [{ employee_id: employee.id, reason: 'Nothing' }, 'void'],
      [{ employee_id: employee.id, reason: 'Nothing', void: [], add: [] }, 'void'],
      [{ employee_id: employee.id, reason: 'Not theirs', void: [strangers] }, 'void[0]'],
      [
        { employee_id: employee.id, reason: 'Unknown', void: ['0191a8e0-0000-7000-8000-000000000000'] },
        'void[0]',
      ],
      [{ employee_id: employee.id, reason: 'Twice', void: [second, second] }, 'void'],
      [{ employee_id: stranger.id, reason: 'Wrong worker', void: [second] }, 'void[0]'],
      [
        {
          employee_id: employee.id,
          reason: 'Future',
          add: [{ type: 'out', timestamp: iso(ctx.clock.now().add({ hours: 1 })) }],
        },
        'add[0].timestamp',
      ],
      [
        {
          employee_id: employee.id,
          reason: 'Before hire',
          add: [{ type: 'in', timestamp: at('2024-12-31', '09:00') }],
        },
        'add[0].timestamp',
      ],
      [
        {
          employee_id: employee.id,
          reason: 'Duplicate',
          add: [{ type: 'out', timestamp: at('2026-10-05', '17:00') }],
        },
        'add[0]',
      ],
      [
        {
          employee_id: employee.id,
          reason: 'Twice added',
          add: [
            { type: 'out', timestamp: at('2026-10-05', '18:00') },
            { type: 'out', timestamp: at('2026-10-05', '18:00') },
          ],
        },
        'add[1]',
      ],
      [
        {
          employee_id: employee.id,
          reason: 'Bad type',
          add: [{ type: 'lunch', timestamp: at('2026-10-05', '18:00') }],
        },
        'add.0.type',
      ],
      [{ employee_id: employee.id, reason: 'Extra', void: [second], note: 'x' }, 'note'],
      [{ employee_id: other.liveKeyId, reason: 'Other company', void: [second] }, 'employee_id'],
    ];
    for (const [body, field] of cases) {
      const response = await post(body);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(422);
      expect(response.json().code).toBe('validation_failed');
      const errors = Object.keys(response.json().errors ?? {});
      expect(
        errors.some((name) =>
          name
            .replace(/^body\./, '')
            .replace(/\//g, '.')
            .startsWith(field),
        ),
        `${field} in ${errors.join(', ')}`,
      ).toBe(true);
    }
    expect(
      (await company.live.get('/v1/check-in-corrections', { query: { employee_id: employee.id } })).json()
        .data,
    ).toEqual([]);
  });

  it('answers 201 with the pending correction, emits the event, and changes nothing in the record', async () => {
    const { employee, second } = await doubleIn();
    const before = await day(employee.id, '2026-10-05');
    expect(before.incomplete_days).toBe(1);
    let body: Record<string, unknown> = {};
    const events = await eventsDuring(ctx.db, company.id, async () => {
      const response = await company.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'Clocked in twice by mistake',
        void: [second],
        add: [{ type: 'break_start', timestamp: '2026-10-05T13:00:00.900+02:00', work_mode: 'on_site' }],
      });
      expect(response.statusCode, response.body).toBe(201);
      body = response.json();
    });
    expect(body).toEqual({
      id: expect.any(String),
      employee_id: employee.id,
      status: 'pending',
      reason: 'Clocked in twice by mistake',
      void: [second],
      add: [{ type: 'break_start', timestamp: '2026-10-05T11:00:00Z', work_mode: 'on_site' }],
      requested_by: { type: 'api_key', id: company.liveKeyId },
      requested_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      company_approval: null,
      employee_approval: null,
      rejection: null,
      applied_at: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: body.created_at,
    });
    expect(events).toEqual([
      {
        type: 'check_in_correction.requested',
        data: { correction_id: body.id, employee_id: employee.id, status: 'pending' },
      },
    ]);
    expect((await company.live.get(`/v1/check-in-corrections/${body.id}`)).json()).toEqual(body);
    expect((await company.live.get(`/v1/check-ins/${second}`)).json().status).toBe('active');
    expect(await day(employee.id, '2026-10-05')).toEqual(before);
  });

  it('replays the answer for the same Idempotency-Key', async () => {
    const { employee, second } = await doubleIn();
    const body = { employee_id: employee.id, reason: 'Double in', void: [second] };
    const headers = { 'idempotency-key': `correction-${employee.id}` };
    const first = await company.live.post('/v1/check-in-corrections', body, { headers });
    const again = await company.live.post('/v1/check-in-corrections', body, { headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});

describe('approving a correction', () => {
  it('changes nothing with the company’s approval alone, and refuses a second one', async () => {
    const { employee, second } = await doubleIn();
    const before = await day(employee.id, '2026-10-05');
    const correction = await voidOf(employee.id, second);
    const approved = await company.live.post(`/v1/check-in-corrections/${correction.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'pending',
      company_approval: { by: { type: 'api_key', id: company.liveKeyId }, at: expect.any(String) },
      employee_approval: null,
      applied_at: null,
    });
    expect((await company.live.get(`/v1/check-ins/${second}`)).json().status).toBe('active');
    expect(await day(employee.id, '2026-10-05')).toEqual(before);
    const twice = await company.live.post(`/v1/check-in-corrections/${correction.id}/approve`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('conflict');
  });

  it('applies once both have approved: voids, adds, re-computes the day, and emits the events', async () => {
    const { employee, first, second, out } = await doubleIn();
    expect((await day(employee.id, '2026-10-05')).incomplete_days).toBe(1);
    const correction = (
      await company.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'Clocked in twice; the break was not recorded',
        void: [second],
        add: [
          { type: 'break_start', timestamp: at('2026-10-05', '13:00') },
          { type: 'break_end', timestamp: at('2026-10-05', '13:30'), work_mode: 'remote' },
        ],
      })
    ).json();
    const accepted = await workerAccepts(employee.id, correction.id);
    expect(accepted).toMatchObject({
      status: 'pending',
      employee_approval: { by: { type: 'employee', id: employee.id } },
    });
    ctx.clock.advance(1);
    let applied: Record<string, unknown> = {};
    const events = await eventsDuring(ctx.db, company.id, async () => {
      const response = await company.live.post(`/v1/check-in-corrections/${correction.id}/approve`);
      expect(response.statusCode, response.body).toBe(200);
      applied = response.json();
    });
    expect(applied).toMatchObject({ status: 'applied', applied_at: expect.any(String) });
    const voided = (await company.live.get(`/v1/check-ins/${second}`)).json();
    expect(voided).toMatchObject({ status: 'voided', voided_by_correction_id: correction.id });
    expect(voided.updated_at > voided.created_at).toBe(true);

    const listed = (
      await company.live.get('/v1/check-ins', {
        query: { employee_id: employee.id, from: at('2026-10-05', '00:00'), to: at('2026-10-06', '00:00') },
      })
    ).json().data;
    expect(listed.map((row: { id: string }) => row.id)).toEqual([
      first,
      expect.any(String),
      expect.any(String),
      out,
    ]);
    const added = listed.slice(1, 3);
    for (const row of added) {
      expect(row).toMatchObject({
        source: 'correction',
        correction_id: correction.id,
        status: 'active',
        late: true,
        recorded_by: { type: 'api_key', id: company.liveKeyId },
      });
    }
    expect(added[1].work_mode).toBe('remote');
    expect(events).toEqual([
      {
        type: 'check_in_correction.applied',
        data: { correction_id: correction.id, employee_id: employee.id, status: 'applied' },
      },
      ...added.map((row: { id: string }) => ({
        type: 'checkin.created',
        data: { check_in_id: row.id, employee_id: employee.id },
      })),
    ]);
    expect(await day(employee.id, '2026-10-05')).toMatchObject({
      worked_minutes: 8 * 60 - 30,
      break_minutes: 30,
      incomplete_days: 0,
      anomalies: 0,
    });

    const voidedOnly = (
      await company.live.get('/v1/check-ins', { query: { employee_id: employee.id, status: 'voided' } })
    ).json().data;
    expect(voidedOnly.map((row: { id: string }) => row.id)).toEqual([second]);
    const all = (
      await company.live.get('/v1/check-ins', { query: { employee_id: employee.id, status: 'all' } })
    ).json().data;
    expect(all).toHaveLength(5);
    const synced = (
      await company.live.get('/v1/check-ins', {
        query: { employee_id: employee.id, updated_since: voided.created_at },
      })
    ).json().data;
    expect(synced.map((row: { id: string }) => row.id)).toContain(second);

    const after = await company.live.post(`/v1/check-in-corrections/${correction.id}/reject`, {
      reason: 'Late',
    });
    expect(after.statusCode).toBe(409);
    expect(await verifyRegistry(ctx.deps, company.id)).toMatchObject({ ok: true });
  });

  it('applies a worker’s own request with the company’s approval alone', async () => {
    const { employee, second } = await doubleIn();
    const requested = await requestCorrection(ctx.deps, asWorker(employee.id), {
      employee_id: employee.id,
      reason: 'I pressed twice',
      void: [second],
    });
    expect(requested).toMatchObject({
      status: 'pending',
      requested_by: { type: 'employee', id: employee.id },
      employee_approval: { by: { type: 'employee', id: employee.id } },
    });
    const response = await company.live.post(`/v1/check-in-corrections/${requested.id}/approve`);
    expect(response.json()).toMatchObject({ status: 'applied' });
    expect((await day(employee.id, '2026-10-05')).incomplete_days).toBe(0);
  });

  it('applies a correction once under 10 concurrent approvals', async () => {
    const { employee, second } = await doubleIn();
    const correction = (
      await company.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'Double in',
        void: [second],
        add: [
          { type: 'break_start', timestamp: at('2026-10-05', '12:00') },
          { type: 'break_end', timestamp: at('2026-10-05', '12:15') },
        ],
      })
    ).json();
    await workerAccepts(employee.id, correction.id);
    const events = await eventsDuring(ctx.db, company.id, async () => {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          company.live.post(`/v1/check-in-corrections/${correction.id}/approve`),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    });
    expect(events.filter((event) => event.type === 'check_in_correction.applied')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'checkin.created')).toHaveLength(2);
    const rows = await ctx.db
      .selectFrom('check_ins')
      .select(['id'])
      .where('company_id', '=', company.id)
      .where('correction_id', '=', correction.id)
      .execute();
    expect(rows).toHaveLength(2);
    expect(await verifyRegistry(ctx.deps, company.id)).toMatchObject({ ok: true });
  });

  it('stays pending with 409 when a check-in it voids was voided meanwhile by another correction', async () => {
    const { employee, second } = await doubleIn();
    const one = await voidOf(employee.id, second);
    const two = await voidOf(employee.id, second);
    await workerAccepts(employee.id, one.id);
    await workerAccepts(employee.id, two.id);
    expect((await company.live.post(`/v1/check-in-corrections/${one.id}/approve`)).json().status).toBe(
      'applied',
    );
    const late = await company.live.post(`/v1/check-in-corrections/${two.id}/approve`);
    expect(late.statusCode).toBe(409);
    expect(late.json().errors).toEqual({ check_in_id: second });
    expect((await company.live.get(`/v1/check-in-corrections/${two.id}`)).json()).toMatchObject({
      status: 'pending',
      company_approval: null,
    });
    expect(
      (await company.live.post(`/v1/check-in-corrections/${two.id}/reject`, { reason: 'Done by the other' }))
        .statusCode,
    ).toBe(200);
  });
});

describe('rejecting a correction', () => {
  it('ends it as rejected with who, when and why; nothing changes; a decided one is 409', async () => {
    const { employee, second } = await doubleIn();
    const correction = await voidOf(employee.id, second);
    expect((await company.live.post(`/v1/check-in-corrections/${correction.id}/reject`, {})).statusCode).toBe(
      422,
    );
    expect(
      (await company.live.post(`/v1/check-in-corrections/${correction.id}/reject`, { reason: ' ' }))
        .statusCode,
    ).toBe(422);
    let body: Record<string, unknown> = {};
    const events = await eventsDuring(ctx.db, company.id, async () => {
      const response = await company.live.post(`/v1/check-in-corrections/${correction.id}/reject`, {
        reason: 'The second in was a real re-entry',
      });
      expect(response.statusCode, response.body).toBe(200);
      body = response.json();
    });
    expect(body).toMatchObject({
      status: 'rejected',
      rejection: {
        by: { type: 'api_key', id: company.liveKeyId },
        at: expect.any(String),
        reason: 'The second in was a real re-entry',
      },
      applied_at: null,
    });
    expect(events).toEqual([
      {
        type: 'check_in_correction.rejected',
        data: { correction_id: correction.id, employee_id: employee.id, status: 'rejected' },
      },
    ]);
    await expect(workerAccepts(employee.id, correction.id)).rejects.toMatchObject({ code: 'conflict' });
    expect((await company.live.post(`/v1/check-in-corrections/${correction.id}/approve`)).statusCode).toBe(
      409,
    );
    expect((await company.live.get(`/v1/check-ins/${second}`)).json().status).toBe('active');
    const listed = await company.live.get('/v1/check-in-corrections', {
      query: { employee_id: employee.id, status: 'rejected' },
    });
    expect(listed.json().data.map((row: { id: string }) => row.id)).toEqual([correction.id]);
  });

  it('lets the worker reject, and no worker see or decide another worker’s correction', async () => {
    const { employee, second } = await doubleIn();
    const colleague = await hire(company.live, { hire_date: '2025-01-01' });
    const correction = await voidOf(employee.id, second);
    await expect(workerAccepts(colleague.id, correction.id)).rejects.toMatchObject({ code: 'not_found' });
    const { rejectCorrection } = await import('../../../../src/modules/corrections/corrections.service.ts');
    const rejected = await rejectCorrection(ctx.deps, asWorker(employee.id), correction.id, 'That was me');
    expect(rejected).toMatchObject({
      status: 'rejected',
      rejection: { by: { type: 'employee', id: employee.id } },
    });
  });
});

describe('corrections and closed months', () => {
  it('is the one change a closed month accepts', async () => {
    const employee = await hire(other.live, { hire_date: '2025-01-01' });
    const [, second] = await clock(
      employee.id,
      [
        ['in', at('2026-09-07', '09:00')],
        ['in', at('2026-09-07', '09:01')],
        ['out', at('2026-09-07', '17:00')],
      ],
      other.live,
    );
    expect((await other.live.post('/v1/registry/months/2026-09/close')).statusCode).toBe(200);
    const direct = await other.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'break_start',
      timestamp: at('2026-09-07', '13:00'),
    });
    expect(direct.statusCode).toBe(409);
    const correction = (
      await other.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'Double in, found after the close',
        void: [second],
      })
    ).json();
    await approveCorrection(
      ctx.deps,
      {
        companyId: other.id,
        accountId: other.id,
        timezone: 'Europe/Madrid',
        actor: { type: 'employee', id: employee.id },
      },
      correction.id,
    );
    const applied = await other.live.post(`/v1/check-in-corrections/${correction.id}/approve`);
    expect(applied.json().status).toBe('applied');
    const summary = (
      await other.live.get('/v1/work-summaries', {
        query: { period: 'day', employee_id: employee.id, from: '2026-09-07', to: '2026-09-07' },
      })
    ).json().data[0];
    expect(summary).toMatchObject({ worked_minutes: 8 * 60, incomplete_days: 0 });
  });
});

describe('the chain records every step, and verification finds what was changed behind its back', () => {
  it('writes request, approvals, void, added check-ins and the application in order', async () => {
    const { employee, second } = await doubleIn();
    const correction = (
      await company.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'Double in',
        void: [second],
        add: [{ type: 'break_start', timestamp: at('2026-10-05', '12:00') }],
      })
    ).json();
    await workerAccepts(employee.id, correction.id);
    await company.live.post(`/v1/check-in-corrections/${correction.id}/approve`);
    const kinds = await ctx.db
      .selectFrom('registry_entries')
      .select(['kind'])
      .where('company_id', '=', company.id)
      .where('employee_id', '=', employee.id)
      .orderBy('seq')
      .execute();
    expect(kinds.map((row) => row.kind)).toEqual([
      'employee',
      'check_in',
      'check_in',
      'check_in',
      'correction_requested',
      'correction_accepted',
      'correction_approved',
      'check_in_void',
      'check_in',
      'correction_applied',
    ]);
  });

  it('names a correction whose reason was rewritten, and a check-in voided without one (triggers disabled)', async () => {
    const tampered = await ctx.createCompany({ name: 'Tampered corrections' });
    const employee = await hire(tampered.live, { hire_date: '2025-01-01' });
    const [, second, third] = await clock(
      employee.id,
      [
        ['in', at('2026-10-05', '09:00')],
        ['in', at('2026-10-05', '09:02')],
        ['out', at('2026-10-05', '17:00')],
      ],
      tampered.live,
    );
    const correction = (
      await tampered.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'Double in',
        void: [second],
      })
    ).json();
    // Three check-ins and the request, the employee's state and the company's (issue 34).
    expect(await verifyRegistry(ctx.deps, tampered.id)).toMatchObject({ ok: true, entries: 6 });
    await ctx.db.transaction().execute(async (tx) => {
      await sql`alter table check_in_corrections disable trigger check_in_corrections_forward_only`.execute(
        tx,
      );
      await sql`update check_in_corrections set reason = 'Worker asked' where id = ${correction.id}`.execute(
        tx,
      );
      await sql`alter table check_in_corrections enable trigger check_in_corrections_forward_only`.execute(
        tx,
      );
    });
    const rewritten = await verifyRegistry(ctx.deps, tampered.id);
    expect(rewritten).toMatchObject({ ok: false, broken: { employee_id: employee.id, entry: 5 } });
    expect(rewritten.broken?.found).toContain('Worker asked');
    await ctx.db.transaction().execute(async (tx) => {
      await sql`alter table check_in_corrections disable trigger check_in_corrections_forward_only`.execute(
        tx,
      );
      await sql`update check_in_corrections set reason = 'Double in' where id = ${correction.id}`.execute(tx);
      await sql`alter table check_in_corrections enable trigger check_in_corrections_forward_only`.execute(
        tx,
      );
      await sql`alter table check_ins disable trigger check_ins_immutable`.execute(tx);
      await sql`update check_ins set status = 'voided', voided_by_correction_id = ${correction.id} where id = ${third}`.execute(
        tx,
      );
      await sql`alter table check_ins enable trigger check_ins_immutable`.execute(tx);
    });
    expect(await verifyRegistry(ctx.deps, tampered.id)).toMatchObject({
      ok: false,
      broken: { employee_id: employee.id, entry: 0, found: `check-in ${third} without one` },
    });
  });

  it('refuses to rewrite a correction’s request or to undo a decision', async () => {
    const { employee, second } = await doubleIn();
    const correction = await voidOf(employee.id, second);
    const refused = async (statement: Promise<unknown>) => {
      const error = await statement.then(
        () => null,
        (failure: { code?: string }) => failure,
      );
      expect(error?.code).toBe('42501');
    };
    await refused(
      sql`update check_in_corrections set reason = 'x' where id = ${correction.id}`.execute(ctx.db),
    );
    await refused(sql`delete from check_in_corrections where id = ${correction.id}`.execute(ctx.db));
    await company.live.post(`/v1/check-in-corrections/${correction.id}/reject`, { reason: 'No' });
    await refused(
      sql`update check_in_corrections set status = 'pending', rejected_at = null where id = ${correction.id}`.execute(
        ctx.db,
      ),
    );
  });
});
