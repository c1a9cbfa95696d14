import { describe, expect, it } from 'vitest';
import { requestCorrection } from '../../../../src/modules/corrections/corrections.service.ts';
import { verifyRegistry } from '../../../../src/modules/verification/verification.service.ts';
import { eventsDuring, hire } from '../../../helpers/resources.ts';
import {
  asWorker,
  at,
  clock,
  company,
  ctx,
  day,
  doubleIn,
  iso,
  other,
  useCorrectionsWorld,
  voidOf,
  workerAccepts,
} from './world.ts';

/** Corrections: requesting, approving and rejecting. */
useCorrectionsWorld();

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
        data: {
          correction_id: correction.id,
          employee_id: employee.id,
          status: 'applied',
          // The one day whose figures changed, and its month (issue 41).
          affected_dates: ['2026-10-05'],
          affected_months: ['2026-10'],
        },
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
