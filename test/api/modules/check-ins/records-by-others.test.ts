import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyRegistry } from '../../../../src/modules/verification/verification.service.ts';
import {
  createTestContext,
  reportWorker,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { joinPortal } from '../../../helpers/portal.ts';

/**
 * Records the worker did not make are marked, and the worker decides (issue 34, docs/registry.md). A part-timer's
 * own 15:00 `out` was silently ignored after an integration posted an `out` at 13:00: every document said 4:00
 * instead of 6:00 and nothing marked it. The tests move the clock to the instants they record, so that a
 * terminal's punch is made at the moment.
 */
let ctx: TestContext;
let company: TestCompany;
let integration: { id: string; secret: string };
let terminal: { id: string; secret: string };

const ZONE = 'Europe/Madrid';
const DAY = '2026-11-10';
const at = (time: string, date = DAY) =>
  Temporal.PlainDate.from(date).toZonedDateTime({ timeZone: ZONE, plainTime: time }).toInstant();

/** Moves the fake clock to an instant (it goes on at real speed from there). */
function clockAt(instant: Temporal.Instant) {
  ctx.clock.setOffset(0);
  ctx.clock.setOffset(instant.epochMilliseconds - ctx.clock.now().epochMilliseconds);
}

async function punch(secret: string, employeeId: string, type: string, instant: Temporal.Instant) {
  const response = await ctx.as(secret).post('/v1/check-ins', {
    employee_id: employeeId,
    type,
    timestamp: instant.toString({ smallestUnit: 'second' }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function dayRow(employeeId: string, date = DAY) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'day', employee_id: employeeId, from: date, to: date },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0];
}

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: ZONE });
  integration = await ctx.createKey(company.id, 'live', ['org:fichajes:read', 'org:fichajes:write']);
  terminal = await ctx.createKey(company.id, 'live', ['org:fichajes:write'], { kind: 'terminal' });
});
afterAll(() => ctx.close());

describe('API keys have a kind', () => {
  it('is integration by default and terminal when asked, set at creation and listed', async () => {
    const keys = (await ctx.as(company.liveKey).get('/v1/api-keys')).json().data as Array<{
      id: string;
      kind: string;
    }>;
    expect(keys.find((key) => key.id === integration.id)?.kind).toBe('integration');
    expect(keys.find((key) => key.id === terminal.id)?.kind).toBe('terminal');
    const bad = await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
      mode: 'live',
      scopes: ['org:fichajes:write'],
      kind: 'kiosk',
    });
    expect(bad.statusCode).toBe(422);
  });
});

describe('a record the worker did not make', () => {
  it('is marked with who recorded it; a terminal at the moment is the worker’s own, late or an integration is not', async () => {
    const { employee } = await joinPortal(ctx, company.live);
    clockAt(at('09:00:30'));
    const moment = await punch(terminal.secret, employee.id, 'in', at('09:00'));
    expect(moment).toMatchObject({
      worker_confirmed: true,
      recorded_by: { type: 'api_key', id: terminal.id, key_kind: 'terminal' },
      worker_response: null,
    });
    clockAt(at('13:30'));
    const late = await punch(terminal.secret, employee.id, 'break_start', at('13:00'));
    expect(late.worker_confirmed).toBe(false);
    const sent = await punch(integration.secret, employee.id, 'break_end', at('13:15'));
    expect(sent).toMatchObject({ worker_confirmed: false, recorded_by: { key_kind: 'integration' } });
    const listed = await ctx.as(integration.secret).get(`/v1/check-ins/${sent.id}`);
    expect(listed.json()).toMatchObject({
      worker_confirmed: false,
      recorded_by: { key_kind: 'integration' },
    });
  });

  it("never silently hides the worker's own record: the day is flagged conflict, the worker sees and disputes it", async () => {
    clockAt(at('08:00'));
    const { employee, worker } = await joinPortal(ctx, company.live);
    clockAt(at('09:00:20'));
    await punch(terminal.secret, employee.id, 'in', at('09:00'));
    // The integration's `out` at 13:00, sent in the evening; the worker's own `out` at 15:00, at the moment.
    clockAt(at('15:00:10'));
    const own = await worker.send('POST', '/portal/api/check-ins', { type: 'out' });
    expect(own.statusCode, own.body).toBe(201);
    clockAt(at('18:00'));
    const other = await punch(integration.secret, employee.id, 'out', at('13:00'));
    // The next morning (the day's figures count once it has ended), in a new session.
    clockAt(at('08:00', '2026-11-11'));
    expect((await worker.login(employee.email, 'correct horse battery')).statusCode).toBe(200);

    const day = await dayRow(employee.id);
    expect(day.worked_minutes).toBe(240);
    expect(day.conflict_days).toBe(1);
    const waiting = await worker.send('GET', '/portal/api/check-ins/unanswered');
    expect(waiting.statusCode, waiting.body).toBe(200);
    expect(waiting.json().data.map((item: { id: string }) => item.id)).toEqual([other.id]);

    const blank = await worker.send('POST', `/portal/api/check-ins/${other.id}/reject`, { reason: '  ' });
    expect(blank.statusCode).toBe(422);
    const rejected = await worker.send('POST', `/portal/api/check-ins/${other.id}/reject`, {
      reason: 'Salí a las 15:00, no a las 13:00.',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().worker_response).toMatchObject({
      status: 'rejected',
      reason: 'Salí a las 15:00, no a las 13:00.',
    });
    // The answer's chain entry names the credential and session it was made with (issue 35).
    const entry = await sql<{ content: string }>`
      select content from registry_entries where kind = 'check_in_rejected' and subject_id = ${other.id}`.execute(
      ctx.db,
    );
    expect(JSON.parse(entry.rows[0]?.content ?? '{}').credential).toMatchObject({ kind: 'password' });
    expect((await worker.send('POST', `/portal/api/check-ins/${other.id}/accept`)).statusCode).toBe(409);
    expect((await worker.send('POST', `/portal/api/check-ins/${own.json().id}/accept`)).statusCode).toBe(409);
    expect((await worker.send('GET', '/portal/api/check-ins/unanswered')).json().data).toEqual([]);
    // The worker's month document marks the record made by someone else, the dispute and the conflict.
    const created = await company.live.post('/v1/reports', {
      type: 'time_registry_monthly',
      format: 'csv',
      params: { month: '2026-11', employee_id: employee.id },
    });
    expect(created.statusCode, created.body).toBe(202);
    const job = reportWorker(ctx);
    while ((await job.tick()) > 0) {}
    const report = (await company.live.get(`/v1/reports/${created.json().id}`)).json();
    const url = new URL(report.download_url);
    const csv = (await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body;
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    const columns = (header as string).split(',');
    const row = (lines.find((line) => line.includes(`,${DAY},`)) as string).split(',');
    const cell = (name: string) => row[columns.indexOf(name)];
    expect([cell('records_by_others'), cell('disputed_records'), cell('conflict')]).toEqual([
      '1',
      '1',
      'true',
    ]);
    // The company sees the dispute on the check-in, and the day stays flagged until a correction settles it.
    const seen = await company.live.get(`/v1/check-ins/${other.id}`);
    expect(seen.json().worker_response).toMatchObject({ status: 'rejected' });
    expect((await dayRow(employee.id)).conflict_days).toBe(1);
    const settled = await company.live.post('/v1/check-in-corrections', {
      employee_id: employee.id,
      reason: 'La salida de las 13:00 fue un error de la integración.',
      void: [other.id],
    });
    expect(settled.statusCode, settled.body).toBe(201);
    const accepted = await worker.send('POST', `/portal/api/check-ins/${other.id}/accept`);
    expect(accepted.statusCode).toBe(409); // answered already
    const correctionId = settled.json().id as string;
    expect((await worker.send('POST', `/portal/api/corrections/${correctionId}/accept`)).statusCode).toBe(
      200,
    );
    expect((await company.live.post(`/v1/check-in-corrections/${correctionId}/approve`)).statusCode).toBe(
      200,
    );
    const fixed = await dayRow(employee.id);
    expect(fixed).toMatchObject({ worked_minutes: 360, conflict_days: 0 });
    // Every answer is in the worker's chain, and verification finds the rows and the entries in agreement.
    expect(await verifyRegistry(ctx.deps, company.id)).toMatchObject({ ok: true, problems: [] });
  });

  it('lets a worker answer only their own records that someone else made, once', async () => {
    clockAt(at('08:00'));
    const first = await joinPortal(ctx, company.live);
    const second = await joinPortal(ctx, company.live);
    clockAt(at('18:00'));
    const forFirst = await punch(integration.secret, first.employee.id, 'in', at('10:00'));
    expect((await second.worker.send('POST', `/portal/api/check-ins/${forFirst.id}/accept`)).statusCode).toBe(
      404,
    );
    expect((await first.worker.send('POST', `/portal/api/check-ins/${forFirst.id}/accept`)).statusCode).toBe(
      200,
    );
    expect((await first.worker.send('POST', `/portal/api/check-ins/${forFirst.id}/accept`)).statusCode).toBe(
      409,
    );
  });
});

describe('the worker_consent policy', () => {
  it('counts a record the worker did not make only once they accept it, and is chosen once for good', async () => {
    const consenting = await ctx.createCompany({ timezone: ZONE });
    const sender = await ctx.createKey(consenting.id, 'live', ['org:fichajes:write']);
    const chosen = await ctx.admin.patch(`/admin/v1/companies/${consenting.id}`, {
      registry_policy: 'worker_consent',
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().registry_policy).toBe('worker_consent');
    expect((await consenting.live.get('/v1/organization')).json().registry_policy).toBe('worker_consent');
    const back = await ctx.admin.patch(`/admin/v1/companies/${consenting.id}`, { registry_policy: 'marked' });
    expect(back.statusCode).toBe(409);

    clockAt(at('08:00'));
    const { employee, worker } = await joinPortal(ctx, consenting.live);
    clockAt(at('18:00'));
    const entered = await punch(sender.secret, employee.id, 'in', at('09:00'));
    const left = await punch(sender.secret, employee.id, 'out', at('17:00'));
    clockAt(at('08:00', '2026-11-11'));
    expect((await worker.login(employee.email, 'correct horse battery')).statusCode).toBe(200);
    const row = async () =>
      (
        await consenting.live.get('/v1/work-summaries', {
          query: { period: 'day', employee_id: employee.id, from: DAY, to: DAY },
        })
      ).json().data[0];
    expect((await row())?.worked_minutes ?? 0).toBe(0);
    for (const id of [entered.id, left.id]) {
      const answer = await worker.send('POST', `/portal/api/check-ins/${id}/accept`);
      expect(answer.statusCode, answer.body).toBe(200);
    }
    expect((await row()).worked_minutes).toBe(480);
  });
});
