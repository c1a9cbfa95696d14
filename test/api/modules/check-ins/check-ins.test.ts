import { beforeEach, describe, expect, it } from 'vitest';
import { useCompanyContext } from '../../../helpers/context.ts';
import { eventsDuring, hire } from '../../../helpers/resources.ts';

const env = useCompanyContext();
beforeEach(() => env.ctx.clock.advance(60));

const now = () => env.ctx.clock.now();
const iso = (instant: Temporal.Instant) => instant.toString({ smallestUnit: 'second' });

describe('POST /v1/check-ins', () => {
  it('records a check-in with source api and emits checkin.created', async () => {
    const employee = await hire(env.company.live);
    const timestamp = iso(now().subtract({ hours: 1 }));
    let body: Record<string, unknown> = {};
    const events = await eventsDuring(env.ctx.db, env.company.id, async () => {
      const response = await env.company.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type: 'in',
        timestamp,
      });
      expect(response.statusCode).toBe(201);
      body = response.json();
    });
    expect(body).toEqual({
      id: expect.any(String),
      employee_id: employee.id,
      type: 'in',
      timestamp,
      source: 'api',
      work_mode: null,
      status: 'active',
      voided_by_correction_id: null,
      correction_id: null,
      late: false,
      device_id: null,
      location: null,
      recorded_offline: false,
      device_time: null,
      received_at: body.recorded_at,
      recorded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      recorded_by: { type: 'api_key', id: env.company.liveKeyId, key_kind: 'integration' },
      worker_confirmed: false,
      worker_response: null,
      created_at: expect.stringMatching(/Z$/),
      updated_at: body.created_at,
    });
    expect(events).toEqual([
      { type: 'checkin.created', data: { check_in_id: body.id, employee_id: employee.id } },
    ]);
    expect((await env.company.live.get(`/v1/check-ins/${body.id}`)).json()).toEqual(body);
  });

  it('normalizes offsets to UTC and truncates fractional seconds', async () => {
    const employee = await hire(env.company.live);
    const response = await env.company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: '2026-03-02T09:00:07.987+01:00',
    });
    expect(response.json().timestamp).toBe('2026-03-02T08:00:07Z');
    const duplicate = await env.company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: '2026-03-02T08:00:07.001Z',
    });
    expect(duplicate.statusCode).toBe(422);
  });

  it('accepts out-of-order and messy sequences', async () => {
    const employee = await hire(env.company.live);
    const base = now().subtract({ hours: 72 });
    for (const [type, hours] of [
      ['out', 8],
      ['in', 0],
      ['in', 1],
      ['break_end', 5],
      ['out', 9],
    ] as const) {
      const response = await env.company.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type,
        timestamp: iso(base.add({ hours })),
      });
      expect(response.statusCode).toBe(201);
    }
  });

  it('answers 422 with errors for each refused case, and stores nothing', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-03-01' });
    const stranger = await hire((await env.ctx.createCompany()).live);
    const recorded = await env.company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'out',
      timestamp: '2026-03-05T17:00:00Z',
    });
    expect(recorded.statusCode).toBe(201);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ employee_id: '0190a0a0-0000-7000-8000-000000000000' }, 'employee_id'],
      [{ employee_id: stranger.id }, 'employee_id'],
      [{ timestamp: iso(now().add({ minutes: 5, seconds: 30 })) }, 'timestamp'],
      // 23:30 on 28 February in Madrid: the day before the hire date.
      [{ timestamp: '2026-02-28T22:30:00Z' }, 'timestamp'],
      [{ type: 'lunch' }, 'type'],
      [{ timestamp: '2026-03-05' }, 'timestamp'],
      [{ timestamp: '2026-03-05T17:00:00' }, 'timestamp'],
      [{ type: 'out', timestamp: '2026-03-05T17:00:00Z' }, 'timestamp'],
      [{ source: 'kiosk' }, 'source'],
    ];
    for (const [fields, field] of cases) {
      const response = await env.company.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type: 'in',
        timestamp: '2026-03-05T08:00:00Z',
        ...fields,
      });
      expect(response.statusCode, JSON.stringify(fields)).toBe(422);
      expect(response.json().code).toBe('validation_failed');
      expect(Object.keys(response.json().errors), JSON.stringify(fields)).toContain(field);
    }
    const listed = await env.company.live.get('/v1/check-ins', { query: { employee_id: employee.id } });
    expect(listed.json().data).toHaveLength(1);
  });

  it('accepts the first minutes of the hire date in the employee’s zone and up to 5 minutes ahead', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-03-01' });
    const post = (timestamp: string) =>
      env.company.live.post('/v1/check-ins', { employee_id: employee.id, type: 'in', timestamp });
    // 00:30 on 1 March in Madrid.
    expect((await post('2026-02-28T23:30:00Z')).statusCode).toBe(201);
    expect((await post(iso(now().add({ minutes: 4, seconds: 50 })))).statusCode).toBe(201);
    const auckland = await hire(env.company.live, { hire_date: '2026-03-01', timezone: 'Pacific/Auckland' });
    // 28 February 12:00 UTC is already 1 March 01:00 in Auckland.
    expect(
      (
        await env.company.live.post('/v1/check-ins', {
          employee_id: auckland.id,
          type: 'in',
          timestamp: '2026-02-28T12:00:00Z',
        })
      ).statusCode,
    ).toBe(201);
  });

  it('refuses check-ins after the termination date of a terminated employee', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-01-01' });
    await env.company.live.post(`/v1/employees/${employee.id}/terminate`, { termination_date: '2026-06-30' });
    const post = (timestamp: string) =>
      env.company.live.post('/v1/check-ins', { employee_id: employee.id, type: 'out', timestamp });
    // 23:30 on 30 June in Madrid (UTC+2) is still the last day; 00:30 on 1 July is not.
    expect((await post('2026-06-30T21:30:00Z')).statusCode).toBe(201);
    const late = await post('2026-06-30T22:30:00Z');
    expect(late.statusCode).toBe(422);
    expect(late.json().errors.timestamp[0]).toContain('termination date');
  });

  it('executes once per Idempotency-Key', async () => {
    const employee = await hire(env.company.live);
    const body = { employee_id: employee.id, type: 'in', timestamp: iso(now().subtract({ minutes: 30 })) };
    const headers = { 'idempotency-key': `ci-${employee.id}` };
    const first = await env.company.live.post('/v1/check-ins', body, { headers });
    const replay = await env.company.live.post('/v1/check-ins', body, { headers });
    expect(first.statusCode).toBe(201);
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    const conflict = await env.company.live.post('/v1/check-ins', { ...body, type: 'out' }, { headers });
    expect(conflict.json().code).toBe('idempotency_conflict');
  });

  it('has no update or delete', async () => {
    const employee = await hire(env.company.live);
    const checkIn = (
      await env.company.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type: 'in',
        timestamp: iso(now().subtract({ hours: 2 })),
      })
    ).json();
    expect((await env.company.live.patch(`/v1/check-ins/${checkIn.id}`, { type: 'out' })).statusCode).toBe(
      405,
    );
    expect((await env.company.live.delete(`/v1/check-ins/${checkIn.id}`)).statusCode).toBe(405);
  });
});

describe('GET /v1/check-ins', () => {
  it('lists in sync order, filters by employee, updated_since and a timestamp range, and pages', async () => {
    const tenant = await env.ctx.createCompany();
    const ana = await hire(tenant.live);
    const bo = await hire(tenant.live);
    const record = async (employee: { id: string }, type: string, timestamp: string) => {
      env.ctx.clock.advance(1);
      const response = await tenant.live.post('/v1/check-ins', { employee_id: employee.id, type, timestamp });
      expect(response.statusCode).toBe(201);
      return response.json() as { id: string; updated_at: string };
    };
    // Recorded late and out of order: sync order and timeline order differ.
    const c1 = await record(ana, 'in', '2026-05-04T07:00:00Z');
    const c2 = await record(bo, 'in', '2026-05-03T07:00:00Z');
    const c3 = await record(ana, 'out', '2026-05-04T15:00:00Z');
    env.ctx.clock.advance(2);
    const c4 = await record(bo, 'out', '2026-05-03T15:00:00Z');
    const c5 = await record(ana, 'in', '2026-05-02T07:00:00Z');

    const ids = async (query: Record<string, string | number>) => {
      const response = await tenant.live.get('/v1/check-ins', { query });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.map((row: { id: string }) => row.id);
    };
    expect(await ids({})).toEqual([c1.id, c2.id, c3.id, c4.id, c5.id]);
    expect(await ids({ employee_id: ana.id })).toEqual([c1.id, c3.id, c5.id]);
    const afterC3 = Temporal.Instant.from(c3.updated_at).add({ seconds: 1 }).toString();
    expect(await ids({ updated_since: afterC3 })).toEqual([c4.id, c5.id]);
    // from is inclusive, to exclusive; the range lists in timestamp order.
    expect(await ids({ from: '2026-05-03T07:00:00Z', to: '2026-05-04T15:00:00Z' })).toEqual([
      c2.id,
      c4.id,
      c1.id,
    ]);
    expect(await ids({ from: '2026-05-01T00:00:00Z', employee_id: ana.id })).toEqual([c5.id, c1.id, c3.id]);
    expect(await ids({ to: '2026-05-04T00:00:00Z', updated_since: afterC3 })).toEqual([c4.id, c5.id]);

    const queries: Array<Record<string, string>> = [
      {},
      { from: '2026-05-01T00:00:00Z' },
      { from: '2026-05-01T00:00:00Z', employee_id: ana.id },
      { from: '2026-05-03T00:00:00Z' },
      { updated_since: Temporal.Instant.from(c1.updated_at).add({ seconds: 1 }).toString() },
    ];
    for (const query of queries) {
      const all = await ids(query);
      const paged: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (
          await tenant.live.get('/v1/check-ins', {
            query: { ...query, limit: 2, ...(cursor ? { cursor } : {}) },
          })
        ).json();
        paged.push(...page.data.map((row: { id: string }) => row.id));
        cursor = page.meta.next_cursor ?? undefined;
      } while (cursor);
      expect(paged).toEqual(all);
      expect(all.length).toBeGreaterThan(2);
    }

    const bad = await tenant.live.get('/v1/check-ins', {
      query: { from: '2026-05-04T00:00:00Z', to: '2026-05-03T00:00:00Z' },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['query.to']);
    expect((await tenant.live.get('/v1/check-ins', { query: { from: 'yesterday' } })).statusCode).toBe(422);
  });

  it('answers 404 for an unknown check-in', async () => {
    const response = await env.company.live.get('/v1/check-ins/0190a0a0-0000-7000-8000-000000000000');
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
  });

  it('needs org:fichajes:read to read and org:fichajes:write to record', async () => {
    const reader = env.ctx.as(
      (await env.ctx.createKey(env.company.id, 'live', ['org:fichajes:read'])).secret,
    );
    const employee = await hire(env.company.live);
    expect((await reader.get('/v1/check-ins')).statusCode).toBe(200);
    const refused = await reader.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: iso(now()),
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors.required_scope).toBe('org:fichajes:write');
    const other = env.ctx.as(
      (await env.ctx.createKey(env.company.id, 'live', ['org:empleados:read'])).secret,
    );
    expect((await other.get('/v1/check-ins')).json().errors.required_scope).toBe('org:fichajes:read');
  });
});
