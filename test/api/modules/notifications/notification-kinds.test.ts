import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationAttachments } from '../../../../src/jobs/notification-emails.ts';
import { makeDueDocuments } from '../../../../src/modules/month-documents/month-documents.service.ts';
import { sendDueEmails } from '../../../../src/modules/notifications/notifications.service.ts';
import { tellMissedClockOuts } from '../../../../src/modules/workdays/missed-clock-outs.ts';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';
import { joinPortal, type PortalWorker, readLinksFrom } from '../../../helpers/portal.ts';
import { startSmtpSink } from '../../../helpers/smtp-sink.ts';

/**
 * The notification kinds of issue 39 beyond the requests: a record someone else made for a worker (once a day),
 * a probable missed clock-out (to the worker an hour after the shift's end, once; to the approvers the next
 * morning), and a closed month (to every worker, with the month's PDF attached to the e-mail). Each through the
 * inbox and a real SMTP sink, in the worker's language.
 */
let ctx: TestContext;
let company: TestCompany;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let owner: DashboardSession;
let ownerLogin: { email: string; password: string };
let worker: PortalWorker;
let workerId: string;
let workerEmail: string;

const inbox = async () => {
  const response = await worker.send('GET', '/portal/api/notifications?lang=es');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<{ kind: string; title: string; body: string }>;
};
const attach = () => notificationAttachments(ctx.deps);
async function mailed(): Promise<string[]> {
  const before = sink.received.length;
  while ((await sendDueEmails(ctx.deps, 20, attach())) > 0) {
    // Until nothing is due.
  }
  return sink.received.slice(before);
}

beforeAll(async () => {
  sink = await startSmtpSink();
  readLinksFrom(sink.received);
  ctx = await createTestContext({ smtp: sink.smtp });
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  pinClock(ctx.clock, '2026-10-05T06:10:00Z');
  const admin = await createAdmin(ctx, company.id);
  ownerLogin = admin;
  owner = await dashboardSession(ctx, admin.email, admin.password);
  const joined = await joinPortal(ctx, company.live, { first_name: 'Rita', last_name: 'Registro' });
  worker = joined.worker;
  workerId = joined.employee.id;
  workerEmail = joined.employee.email;
  await mailed();
  sink.received.length = 0;
});
afterAll(async () => {
  await ctx.close();
  await sink.close();
});

describe('notification kinds', () => {
  it('tells a worker of the records someone else made for them, once a day', async () => {
    for (const [type, timestamp] of [
      ['in', '2026-10-05T06:00:00Z'],
      ['break_start', '2026-10-05T06:05:00Z'],
    ]) {
      const made = await company.live.post('/v1/check-ins', { employee_id: workerId, type, timestamp });
      expect(made.statusCode, made.body).toBe(201);
    }
    const told = (await inbox()).filter((notification) => notification.kind === 'record_to_answer');
    expect(told).toHaveLength(1);
    expect(told[0]?.body).toContain(
      'Una integración de la empresa ha registrado un fichaje a tu nombre el lun, 5 oct 2026',
    );
    const messages = await mailed();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(`To: ${workerEmail}`);
  });

  it("tells the worker of a missed clock-out an hour after the shift's end, once, and the approvers the next morning", async () => {
    const shift = await company.live.post('/v1/shifts', {
      employee_id: workerId,
      date: '2026-10-05',
      start: '08:00',
      end: '16:00',
      status: 'published',
    });
    expect(shift.statusCode, shift.body).toBe(201);
    // 16:30 in Madrid: the shift ended half an hour ago.
    pinClock(ctx.clock, '2026-10-05T14:30:00Z');
    await tellMissedClockOuts(ctx.deps);
    expect((await inbox()).filter((notification) => notification.kind === 'missed_clock_out')).toEqual([]);
    // 17:01: an hour past its end.
    pinClock(ctx.clock, '2026-10-05T15:01:00Z');
    await tellMissedClockOuts(ctx.deps);
    await tellMissedClockOuts(ctx.deps);
    const told = (await inbox()).filter((notification) => notification.kind === 'missed_clock_out');
    expect(told).toHaveLength(1);
    expect(told[0]?.body, told[0]?.body).toContain('sigue abierta desde las 08:00');
    expect((await owner.call('GET', '/dashboard/api/notifications')).json().data).toEqual([]);
    // The next morning at 08:30 in Madrid, the administrators are told, once.
    pinClock(ctx.clock, '2026-10-06T06:30:00Z');
    // Sessions do not last the night: both log in again.
    owner = await dashboardSession(ctx, ownerLogin.email, ownerLogin.password);
    expect((await worker.login(workerEmail, 'correct horse battery')).statusCode).toBe(200);
    await tellMissedClockOuts(ctx.deps);
    await tellMissedClockOuts(ctx.deps);
    const leads = (await owner.call('GET', '/dashboard/api/notifications?lang=es')).json().data as Array<{
      kind: string;
      body: string;
    }>;
    const missed = leads.filter((notification) => notification.kind === 'missed_clock_outs');
    expect(missed).toHaveLength(1);
    expect(missed[0]?.body).toContain('Rita Registro');
    expect((await inbox()).filter((notification) => notification.kind === 'missed_clock_out')).toHaveLength(
      1,
    );
  });

  it('tells every worker of the closed month, with the PDF of their month attached', async () => {
    pinClock(ctx.clock, '2026-11-02T09:00:00Z');
    expect((await worker.login(workerEmail, 'correct horse battery')).statusCode).toBe(200);
    // The open shift settled first: a month with a missed clock-out closes all the same, as it stands.
    const closed = await company.live.post('/v1/registry/months/2026-10/close');
    expect(closed.statusCode, closed.body).toBe(200);
    await mailed();
    const before = (await inbox()).filter((notification) => notification.kind === 'month_closed');
    expect(before).toEqual([]);
    while ((await makeDueDocuments(ctx.deps)) > 0);
    const told = (await inbox()).filter((notification) => notification.kind === 'month_closed');
    expect(told).toHaveLength(1);
    expect(told[0]?.title).toBe('Tu registro de octubre de 2026 está cerrado');
    const messages = await mailed();
    const mail = messages.find((message) => message.includes(`To: ${workerEmail}`)) ?? '';
    expect(mail).toContain('Content-Type: application/pdf');
    expect(mail).toMatch(/filename="?registro-de-jornada-2026-10\.pdf/);
    const base64 =
      /Content-Type: application\/pdf[\s\S]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(mail)?.[1] ?? '';
    expect(Buffer.from(base64.replace(/\s/g, ''), 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });
});
