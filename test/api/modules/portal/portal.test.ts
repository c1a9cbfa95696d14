import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import {
  invite as inviteTo,
  joinPortal,
  mailedLink,
  PortalWorker,
  readLinksFrom,
  tokenOf,
} from '../../../helpers/portal.ts';
import { hire } from '../../../helpers/resources.ts';
import { startSmtpSink } from '../../../helpers/smtp-sink.ts';

/**
 * The workers' portal (issue 15, docs/registry.md): invitations (also by email, to a local SMTP sink), the
 * worker's session, clocking, reading one's own record, and corrections that need the worker and the company.
 */
let ctx: TestContext;
let company: TestCompany;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let received: string[];

beforeAll(async () => {
  sink = await startSmtpSink();
  received = sink.received;
  ctx = await createTestContext({ smtp: sink.smtp });
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  // With mail, a link goes to the worker alone (issue 35): the helpers read it where the worker would.
  readLinksFrom(received);
});
afterAll(async () => {
  await ctx.close();
  await sink.close();
});
beforeEach(() => ctx.clock.advance(60));

/** A worker's browser (helpers/portal.ts) on this file's context. */
class Worker extends PortalWorker {
  constructor() {
    super(ctx);
  }
}

const invite = (employeeId: string, client = company.live) => inviteTo(client, employeeId);

const joined = (fields: Record<string, unknown> = {}) => joinPortal(ctx, company.live, fields);

describe('invitations', () => {
  it('makes a single-use link valid 7 days, emails it, and retires the earlier links', async () => {
    const employee = await hire(company.live, { hire_date: '2025-01-01', first_name: 'Marta' });
    const before = received.length;
    const answered = await company.live.post(`/v1/employees/${employee.id}/portal-invitation`);
    // With mail the link goes to the worker alone: the company's answer does not hold it (issue 35).
    expect(answered.json()).toMatchObject({ emailed: true, kind: 'invitation' });
    expect(answered.json().url).toBeUndefined();
    const first = { ...answered.json(), url: mailedLink(received, employee.email) };
    expect(first.url).toMatch(/^http:\/\/jornada\.test\/portal\/invitation\?token=[\w-]{43}$/);
    expect(Date.parse(first.expires_at) - ctx.clock.now().epochMilliseconds).toBeGreaterThan(
      7 * 86_400_000 - 2000,
    );
    expect(first.emailed).toBe(true);
    expect(received.length).toBe(before + 1);
    const mail = received.at(-1) as string;
    expect(mail).toContain(`To: ${employee.email}`);
    expect(mail).toContain('From: Jornada <registro@example.com>');
    expect(mail.replace(/=\r\n/g, '')).toContain(tokenOf(first.url).slice(0, 20));

    const second = await invite(employee.id);
    const worker = new Worker();
    expect((await worker.accept(tokenOf(first.url))).statusCode).toBe(404);
    expect((await worker.accept(tokenOf(second.url), 'too short')).statusCode).toBe(422);
    const accepted = await worker.accept(tokenOf(second.url));
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.headers['set-cookie']).toMatch(
      /^jornada_portal=[\w-]+; Max-Age=43200; Path=\/portal; HttpOnly; SameSite=Strict/,
    );
    expect((await new Worker().accept(tokenOf(second.url))).statusCode).toBe(404);
  });

  it('expires after 7 days, and answers 404 for another company’s employee or without the scope', async () => {
    const employee = await hire(company.live, { hire_date: '2025-01-01' });
    const link = await invite(employee.id);
    ctx.clock.advance(7 * 86_400 + 1);
    expect((await new Worker().accept(tokenOf(link.url))).statusCode).toBe(404);
    const other = await ctx.createCompany();
    expect((await other.live.post(`/v1/employees/${employee.id}/portal-invitation`)).statusCode).toBe(404);
    const reader = await ctx.createKey(company.id, 'live', ['org:empleados:read']);
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `/v1/employees/${employee.id}/portal-invitation`,
      headers: { authorization: `Bearer ${reader.secret}` },
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('a worker’s session', () => {
  it('logs in with the email, and is throttled after 10 failures without checking the password', async () => {
    const { employee } = await joined();
    const worker = new Worker();
    expect((await worker.login(employee.email.toUpperCase(), 'correct horse battery')).statusCode).toBe(200);
    expect((await worker.send('GET', '/portal/api/me')).json().employee.id).toBe(employee.id);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await new Worker().login(employee.email, 'wrong password!!', '10.0.0.9')).statusCode).toBe(401);
    }
    const locked = await new Worker().login(employee.email, 'correct horse battery', '10.0.0.10');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('rate_limited');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('needs the session for every call and the CSRF token for every write', async () => {
    const { worker } = await joined();
    expect((await new Worker().send('GET', '/portal/api/me')).statusCode).toBe(401);
    const noToken = await worker.send('POST', '/portal/api/check-ins', { type: 'in' }, { csrf: false });
    expect(noToken.statusCode).toBe(403);
    const unknown = await worker.send('POST', '/portal/api/check-ins', { type: 'in', employee_id: 'x' });
    expect(unknown.statusCode).toBe(422);
    // The portal session is no API key, and no dashboard session.
    expect((await worker.send('GET', '/v1/employees')).statusCode).toBe(401);
    expect((await worker.send('GET', '/dashboard/api/session')).statusCode).toBe(401);
    expect((await worker.send('POST', '/portal/api/logout')).statusCode).toBe(204);
    expect((await worker.send('GET', '/portal/api/me')).statusCode).toBe(401);
  });
});

describe('clocking and reading one’s own record', () => {
  it('records in, break, out at the service’s now, as the worker, and shows the day', async () => {
    const { employee, worker } = await joined();
    const day = ctx.clock.now().toZonedDateTimeISO('Europe/Madrid').toPlainDate().toString();
    const ids: string[] = [];
    for (const [type, minutes] of [
      ['in', 0],
      ['break_start', 180],
      ['break_end', 30],
      ['out', 240],
    ] as const) {
      ctx.clock.advance(minutes * 60);
      // The fake clock runs on with the real one: the check-in is stamped between these two instants.
      const before = Math.floor(ctx.clock.now().epochMilliseconds / 1000) * 1000;
      const response = await worker.send('POST', '/portal/api/check-ins', {
        type,
        ...(type === 'in' ? { work_mode: 'remote' } : {}),
      });
      const after = ctx.clock.now().epochMilliseconds;
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({
        type,
        source: 'portal',
        recorded_by: { type: 'employee', id: employee.id },
        late: false,
      });
      const stamped = Date.parse(response.json().timestamp);
      expect(stamped).toBeGreaterThanOrEqual(before);
      expect(stamped).toBeLessThanOrEqual(after);
      ids.push(response.json().id);
    }
    const me = (await worker.send('GET', '/portal/api/me')).json();
    expect(me).toMatchObject({
      employee: { id: employee.id, can_clock: true },
      last_check_in: { id: ids[3] },
    });
    // The shift may end after midnight, whatever the hour the test runs at: read the day and the next.
    const next = Temporal.PlainDate.from(day).add({ days: 1 }).toString();
    const listed = await worker.send('GET', `/portal/api/check-ins?from=${day}&to=${next}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.map((row: { id: string }) => row.id)).toEqual(
      expect.arrayContaining(ids.filter((_, index) => index < 4)),
    );
    // The company sees the same record.
    expect((await company.live.get(`/v1/check-ins/${ids[0]}`)).json().work_mode).toBe('remote');
    ctx.clock.advance(2 * 86_400);
    // The session lasted 12 hours: log in again.
    expect((await worker.send('GET', '/portal/api/me')).statusCode).toBe(401);
    expect((await worker.login(employee.email, 'correct horse battery')).statusCode).toBe(200);
    const days = (await worker.send('GET', `/portal/api/days?from=${day}&to=${day}`)).json().data;
    expect(days).toHaveLength(1);
    expect(days[0].break_minutes).toBe(30);
    expect(days[0].worked_minutes).toBeGreaterThanOrEqual(420);
    const bad = await worker.send('GET', '/portal/api/days?from=2026-01-10&to=2026-01-01');
    expect(bad.statusCode).toBe(422);
  });

  it('lets a terminated worker read the past but not clock', async () => {
    const { employee, worker } = await joined();
    const today = ctx.clock.now().toZonedDateTimeISO('Europe/Madrid').toPlainDate();
    const ended = await company.live.post(`/v1/employees/${employee.id}/terminate`, {
      termination_date: today.subtract({ days: 1 }).toString(),
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await worker.send('GET', '/portal/api/me')).json().employee.can_clock).toBe(false);
    const refused = await worker.send('POST', '/portal/api/check-ins', { type: 'in' });
    expect(refused.statusCode).toBe(409);
    const read = await worker.send(
      'GET',
      `/portal/api/days?from=${today.subtract({ days: 30 })}&to=${today}`,
    );
    expect(read.statusCode).toBe(200);
  });
});

describe('corrections in the portal', () => {
  it('applies the worker’s own request once the company approves it', async () => {
    const { employee, worker } = await joined();
    const [inId] = [(await worker.send('POST', '/portal/api/check-ins', { type: 'in' })).json().id as string];
    const requested = await worker.send('POST', '/portal/api/corrections', {
      reason: 'Pulsé entrada por error',
      void: [inId],
    });
    expect(requested.statusCode, requested.body).toBe(201);
    expect(requested.json()).toMatchObject({
      employee_id: employee.id,
      status: 'pending',
      requested_by: { type: 'employee', id: employee.id },
      employee_approval: { by: { type: 'employee', id: employee.id } },
      company_approval: null,
    });
    const twice = await worker.send('POST', `/portal/api/corrections/${requested.json().id}/accept`, {});
    expect(twice.statusCode).toBe(409);
    const approved = await company.live.post(`/v1/check-in-corrections/${requested.json().id}/approve`);
    expect(approved.json().status).toBe('applied');
    expect((await company.live.get(`/v1/check-ins/${inId}`)).json().status).toBe('voided');
    const mine = (await worker.send('GET', '/portal/api/corrections')).json().data;
    expect(mine.map((row: { id: string }) => row.id)).toEqual([requested.json().id]);
  });

  it('changes nothing until the worker accepts the company’s correction', async () => {
    const { employee, worker } = await joined();
    const inId = (await worker.send('POST', '/portal/api/check-ins', { type: 'in' })).json().id as string;
    const correction = (
      await company.live.post('/v1/check-in-corrections', {
        employee_id: employee.id,
        reason: 'The in was recorded twice',
        void: [inId],
      })
    ).json();
    expect((await company.live.post(`/v1/check-in-corrections/${correction.id}/approve`)).json().status).toBe(
      'pending',
    );
    expect((await company.live.get(`/v1/check-ins/${inId}`)).json().status).toBe('active');
    const seen = await worker.send('GET', `/portal/api/corrections/${correction.id}`);
    expect(seen.json()).toMatchObject({ status: 'pending', company_approval: { by: { type: 'api_key' } } });
    const accepted = await worker.send('POST', `/portal/api/corrections/${correction.id}/accept`, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      status: 'applied',
      employee_approval: { by: { type: 'employee' } },
    });
    expect((await company.live.get(`/v1/check-ins/${inId}`)).json().status).toBe('voided');
  });

  it('lets the worker reject with a reason, and shows no worker another worker’s data', async () => {
    const a = await joined();
    const b = await joined();
    const bIn = (await b.worker.send('POST', '/portal/api/check-ins', { type: 'in' })).json().id as string;
    const forB = (
      await company.live.post('/v1/check-in-corrections', {
        employee_id: b.employee.id,
        reason: 'Wrong day',
        void: [bIn],
      })
    ).json();
    expect((await a.worker.send('GET', `/portal/api/corrections/${forB.id}`)).statusCode).toBe(404);
    expect((await a.worker.send('POST', `/portal/api/corrections/${forB.id}/accept`, {})).statusCode).toBe(
      404,
    );
    expect(
      (await a.worker.send('POST', `/portal/api/corrections/${forB.id}/reject`, { reason: 'No' })).statusCode,
    ).toBe(404);
    // Voiding another worker's check-in is no check-in of one's own.
    const foreign = await a.worker.send('POST', '/portal/api/corrections', { reason: 'Theirs', void: [bIn] });
    expect(foreign.statusCode).toBe(422);
    expect((await a.worker.send('GET', '/portal/api/corrections')).json().data).toEqual([]);
    const today = ctx.clock.now().toZonedDateTimeISO('Europe/Madrid').toPlainDate().toString();
    const aSees = (await a.worker.send('GET', `/portal/api/check-ins?from=${today}&to=${today}`)).json().data;
    expect(aSees.map((row: { id: string }) => row.id)).not.toContain(bIn);

    const rejected = await b.worker.send('POST', `/portal/api/corrections/${forB.id}/reject`, {
      reason: 'Fue un día normal',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json()).toMatchObject({
      status: 'rejected',
      rejection: { by: { type: 'employee', id: b.employee.id }, reason: 'Fue un día normal' },
    });
  });
});

describe('the worker’s copy of a closed month', () => {
  it('shows the month once closed, records the acknowledgement once in the chain, and tells the company who has', async () => {
    const own = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    const hireWorker = async (first_name: string) => {
      const employee = await hire(own.live, { hire_date: '2025-01-01', first_name });
      const worker = new Worker();
      const link = await inviteTo(own.live, employee.id);
      expect((await worker.accept(tokenOf(link.url))).statusCode).toBe(200);
      return { employee, worker };
    };
    const a = await hireWorker('Alba');
    const b = await hireWorker('Bruno');
    const today = ctx.clock.now().toZonedDateTimeISO('Europe/Madrid').toPlainDate();
    const month = today.with({ day: 1 }).subtract({ months: 1 }).toPlainYearMonth().toString();
    const worked = Temporal.PlainDate.from(`${month}-10`)
      .toZonedDateTime({ timeZone: 'Europe/Madrid', plainTime: '09:00' })
      .toInstant();
    for (const [type, at] of [
      ['in', worked],
      ['out', worked.add({ hours: 8 })],
    ] as const) {
      const response = await own.live.post('/v1/check-ins', {
        employee_id: a.employee.id,
        type,
        timestamp: at.toString(),
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    // Not yet closed: no copy, no acknowledgement, no company list.
    expect((await a.worker.send('GET', `/portal/api/registry/${month}`)).statusCode).toBe(404);
    expect((await a.worker.send('POST', `/portal/api/registry/${month}/acknowledge`, {})).statusCode).toBe(
      404,
    );
    expect((await own.live.get(`/v1/registry/months/${month}/acknowledgements`)).statusCode).toBe(404);
    expect((await own.live.post(`/v1/registry/months/${month}/close`)).statusCode).toBe(200);

    const copy = await a.worker.send('GET', `/portal/api/registry/${month}`);
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json().acknowledged_at).toBeNull();
    expect(copy.json().totals).toMatchObject({ date: 'total', worked_minutes: 480, worked_hhmm: '8:00' });
    expect(copy.json().days.find((day: { date: string }) => day.date === `${month}-10`)).toMatchObject({
      intervals: '09:00-17:00',
    });
    const pdf = await a.worker.send('GET', `/portal/api/registry/${month}.pdf`);
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await b.worker.send('GET', `/portal/api/registry/${month}.pdf?locale=en`)).statusCode).toBe(200);
    expect((await a.worker.send('GET', `/portal/api/registry/${month}.pdf?locale=fr`)).statusCode).toBe(422);
    const first = await a.worker.send('POST', `/portal/api/registry/${month}/acknowledge`, {});
    expect(first.statusCode, first.body).toBe(200);
    ctx.clock.advance(5);
    const again = await a.worker.send('POST', `/portal/api/registry/${month}/acknowledge`, {});
    expect(again.json()).toEqual(first.json());
    expect((await a.worker.send('GET', `/portal/api/registry/${month}`)).json().acknowledged_at).toBe(
      first.json().acknowledged_at,
    );
    const entries = await ctx.db
      .selectFrom('registry_entries')
      .select('kind')
      .where('company_id', '=', own.id)
      .where('employee_id', '=', a.employee.id)
      .where('kind', '=', 'month_acknowledged')
      .execute();
    expect(entries).toHaveLength(1);

    const list = await own.live.get(`/v1/registry/months/${month}/acknowledgements`);
    expect(list.statusCode, list.body).toBe(200);
    const byId = new Map(
      list
        .json()
        .data.map((row: { employee_id: string; acknowledged_at: string | null }) => [
          row.employee_id,
          row.acknowledged_at,
        ]),
    );
    expect(byId.get(a.employee.id)).toBe(first.json().acknowledged_at);
    expect(byId.get(b.employee.id)).toBeNull();
    // Another company sees none of it.
    const other = await ctx.createCompany();
    const foreign = (await other.live.get(`/v1/registry/months/${month}/acknowledgements`)).statusCode;
    expect(foreign).toBe(404);
  });
});
