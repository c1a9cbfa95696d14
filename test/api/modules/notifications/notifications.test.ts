import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sendDueEmails,
  sweepNotifications,
} from '../../../../src/modules/notifications/notifications.service.ts';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';
import { joinPortal, type PortalWorker, readLinksFrom } from '../../../helpers/portal.ts';
import { hire } from '../../../helpers/resources.ts';
import { startSmtpSink } from '../../../helpers/smtp-sink.ts';

/**
 * Notifications (issue 39): a worker's request tells the company's administrators, a company's decision tells
 * the worker with its reason, a correction tells whoever must answer it, a legal-limit alert tells the
 * administrators. Each is an inbox entry in the recipient's surface (read marks their own only) and an e-mail
 * through a real SMTP sink, in the recipient's language, with a plain-text part, an HTML part and a working
 * unsubscribe-by-kind link. A sandbox tells nobody; another company sees nothing.
 */
let ctx: TestContext;
let company: TestCompany;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let spanishAdmin: DashboardSession;
let englishAdmin: DashboardSession;
let adminEmails: string[];
let worker: PortalWorker;
let workerId: string;
let workerEmail: string;

const inboxOf = async (call: DashboardSession['call'] | PortalWorker, url: string) => {
  const response = typeof call === 'function' ? await call('GET', url) : await call.send('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    data: Array<{ id: string; kind: string; title: string; body: string; link: string; read: boolean }>;
    unread: number;
  };
};

/** Sends what is due and returns the messages the sink received meanwhile. */
async function mailed(): Promise<string[]> {
  const before = sink.received.length;
  while ((await sendDueEmails(ctx.deps)) > 0) {
    // Until nothing is due.
  }
  return sink.received.slice(before);
}

/** A quoted-printable body made readable (soft line breaks joined, =XX bytes decoded as UTF-8). */
const readable = (message: string) =>
  Buffer.from(
    message
      .replace(/\r\n[ \t]+/g, ' ')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

beforeAll(async () => {
  sink = await startSmtpSink();
  readLinksFrom(sink.received);
  ctx = await createTestContext({ smtp: sink.smtp });
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  pinClock(ctx.clock, '2027-02-01T09:00:00Z');
  const first = await createAdmin(ctx, company.id);
  const second = await createAdmin(ctx, company.id);
  adminEmails = [first.email, second.email];
  spanishAdmin = await dashboardSession(ctx, first.email, first.password);
  englishAdmin = await dashboardSession(ctx, second.email, second.password);
  expect((await englishAdmin.call('PATCH', '/dashboard/api/me', { language: 'en' })).statusCode).toBe(200);
  const joined = await joinPortal(ctx, company.live, { first_name: 'Ana', last_name: 'Avisos' });
  worker = joined.worker;
  workerId = joined.employee.id;
  workerEmail = joined.employee.email;
  // The invitation e-mails are not this test's.
  sink.received.length = 0;
});
afterAll(async () => {
  await ctx.close();
  await sink.close();
});

describe('notifications', () => {
  it("tells the administrators of a worker's request, each in their language, by inbox and by e-mail", async () => {
    const asked = await worker.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-03-15',
      end_date: '2027-03-17',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const inbox = await inboxOf(spanishAdmin.call, '/dashboard/api/notifications?lang=es');
    expect(inbox.unread).toBe(1);
    expect(inbox.data[0]).toMatchObject({
      kind: 'absence_requested',
      title: 'Ana Avisos pide Vacaciones',
      link: '/dashboard#/absences',
      read: false,
    });
    expect(inbox.data[0]?.body).toContain('del lun, 15 mar 2027 al mié, 17 mar 2027 (3 días)');
    const english = await inboxOf(englishAdmin.call, '/dashboard/api/notifications?lang=en');
    expect(english.data[0]?.title).toBe('Ana Avisos asks for Vacaciones');

    const messages = await mailed();
    expect(messages).toHaveLength(2);
    const toSpanish = readable(messages.find((message) => message.includes(`To: ${adminEmails[0]}`)) ?? '');
    const toEnglish = readable(messages.find((message) => message.includes(`To: ${adminEmails[1]}`)) ?? '');
    expect(toSpanish).toMatch(/Subject: .*pide/);
    expect(toSpanish).toContain('Content-Type: text/plain');
    expect(toSpanish).toContain('Content-Type: text/html');
    expect(toSpanish).toContain('La solicitud espera que la apruebes o la deniegues.');
    expect(toSpanish).toMatch(/List-Unsubscribe: <http[^>]+\/notifications\/unsubscribe\?token=/);
    expect(toSpanish).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(toSpanish).toMatch(/Message-ID: <[0-9a-f-]{36}@notifications\.jornada>/);
    expect(toEnglish).toContain('The request waits for you to approve or refuse it.');
    // Sent once: nothing is due any more.
    expect(await mailed()).toEqual([]);
    // The worker's inbox has nothing: they asked.
    expect((await inboxOf(worker, '/portal/api/notifications')).data).toEqual([]);
  });

  it('tells the worker of a refusal with its reason; read marks are each recipient’s own', async () => {
    const id = (await worker.send('GET', '/portal/api/absences')).json().absences[0].id as string;
    const refused = await company.live.post(`/v1/absences/${id}/reject`, {
      reason: 'Cierre <de> inventario',
    });
    expect(refused.statusCode, refused.body).toBe(200);
    const inbox = await inboxOf(worker, '/portal/api/notifications?lang=es');
    expect(inbox.data[0]).toMatchObject({
      kind: 'absence_decided',
      title: 'Tu solicitud de Vacaciones está denegada',
      link: '/portal#/absences',
    });
    expect(inbox.data[0]?.body).toContain('Motivo: «Cierre <de> inventario».');
    const [message] = await mailed();
    const text = readable(message ?? '');
    expect(text).toContain(`To: ${workerEmail}`);
    expect(text).toContain('Motivo: «Cierre <de> inventario».');
    // In the HTML part, what a person typed is escaped.
    expect(text).toContain('Cierre &lt;de&gt; inventario');
    expect(text).not.toContain('<de>&');

    // The worker marks theirs read; the administrator's entries stay as they were, even named by id.
    const adminEntry = (await inboxOf(spanishAdmin.call, '/dashboard/api/notifications')).data[0]
      ?.id as string;
    const read = await worker.send('POST', '/portal/api/notifications/read', {
      ids: [inbox.data[0]?.id, adminEntry],
    });
    expect(read.json()).toEqual({ read: 1, unread: 0 });
    expect((await inboxOf(spanishAdmin.call, '/dashboard/api/notifications')).unread).toBe(1);
    const all = await spanishAdmin.call('POST', '/dashboard/api/notifications/read', { all: true });
    expect(all.json()).toEqual({ read: 1, unread: 0 });
    const neither = await spanishAdmin.call('POST', '/dashboard/api/notifications/read', {});
    expect(neither.statusCode).toBe(422);
  });

  it('unsubscribes one kind by the e-mail’s link, after a confirmation; the inbox keeps it', async () => {
    const asked = await worker.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-04-05',
      end_date: '2027-04-05',
    });
    expect(asked.statusCode).toBe(201);
    await mailed();
    expect((await company.live.post(`/v1/absences/${asked.json().id}/approve`)).statusCode).toBe(200);
    const [message] = await mailed();
    const link = readable(message ?? '').match(
      /https?:\/\/\S+\/notifications\/unsubscribe\?token=[\w.-]+/,
    )?.[0];
    expect(link).toBeDefined();
    const path = new URL(link as string);
    // Following the link changes nothing: it asks first.
    const page = await ctx.app.inject({ method: 'GET', url: `${path.pathname}${path.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<form method="post"');
    expect((await worker.send('GET', '/portal/api/notification-preferences')).json().email_off).toEqual([]);
    // A mail client's one-click unsubscribe.
    const done = await ctx.app.inject({
      method: 'POST',
      url: `${path.pathname}${path.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await worker.send('GET', '/portal/api/notification-preferences')).json().email_off).toEqual([
      'absence_decided',
    ]);
    // The next decision is in the inbox, and no e-mail goes.
    const again = await worker.send('POST', '/portal/api/absences', {
      type: 'vacation',
      start_date: '2027-04-12',
      end_date: '2027-04-12',
    });
    await mailed();
    expect((await company.live.post(`/v1/absences/${again.json().id}/approve`)).statusCode).toBe(200);
    expect(await mailed()).toEqual([]);
    expect((await inboxOf(worker, '/portal/api/notifications')).data[0]?.kind).toBe('absence_decided');
    // A forged or altered token changes nothing: neither another signature nor another spelling of the same one
    // (the last character's siblings, which differ only in the bits a base64 decoder ignores).
    const token = path.searchParams.get('token') as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.at(-1) as string);
    const siblings = [0, 1, 2, 3]
      .map((bits) => alphabet[(last & ~3) | bits])
      .filter((c) => c !== token.at(-1));
    for (const replacement of [...siblings, last < 32 ? 'z' : 'A']) {
      const forged = await ctx.app.inject({
        method: 'POST',
        url: `/notifications/unsubscribe?token=${token.slice(0, -1)}${replacement}`,
      });
      expect(forged.statusCode, replacement).toBe(400);
    }
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/notifications/unsubscribe?token=x.y' })).statusCode,
    ).toBe(400);
    // Choices through the API: a kind that does not exist is 422.
    const wrong = await worker.send('PATCH', '/portal/api/notification-preferences', { email_off: ['nope'] });
    expect(wrong.statusCode).toBe(422);
    const back = await worker.send('PATCH', '/portal/api/notification-preferences', {
      email_off: [],
      language: 'en',
    });
    expect(back.json()).toEqual({ language: 'en', email_off: [] });
  });

  it('tells whoever must answer a correction', async () => {
    // Within the sessions' 12 hours.
    pinClock(ctx.clock, '2027-02-01T15:00:00Z');
    // The worker asks: the administrators are told.
    const byWorker = await worker.send('POST', '/portal/api/corrections', {
      reason: 'Olvidé fichar la salida',
      add: [{ type: 'out', timestamp: '2027-01-29T17:00:00Z' }],
    });
    expect(byWorker.statusCode, byWorker.body).toBe(201);
    const admin = await inboxOf(spanishAdmin.call, '/dashboard/api/notifications');
    expect(admin.data[0]).toMatchObject({
      kind: 'correction_requested',
      title: 'Ana Avisos pide corregir su registro',
      link: '/dashboard#/check-ins',
    });
    expect(admin.data[0]?.body).toContain('«Olvidé fichar la salida»');
    // The company asks: the worker is told, in the language they chose.
    const byCompany = await company.live.post('/v1/check-in-corrections', {
      employee_id: workerId,
      reason: 'Entrada registrada dos veces',
      add: [{ type: 'in', timestamp: '2027-01-28T08:00:00Z' }],
    });
    expect(byCompany.statusCode, byCompany.body).toBe(201);
    const mine = await inboxOf(worker, '/portal/api/notifications?lang=en');
    expect(mine.data[0]).toMatchObject({
      kind: 'correction_to_accept',
      title: 'The company proposes to correct your record',
      link: '/portal#/corrections',
    });
    const messages = (await mailed()).map(readable);
    const toWorker = messages.find((message) => message.includes(`To: ${workerEmail}`)) ?? '';
    expect(toWorker).toContain('Nothing changes until you accept it');
  });

  it('tells the administrators of a legal-limit alert, and nothing crosses companies or reaches a sandbox', async () => {
    pinClock(ctx.clock, '2027-02-01T19:00:00Z');
    const long = await hire(company.live, {
      first_name: 'Luis',
      last_name: 'Largo',
      hire_date: '2027-01-01',
    });
    for (const [type, timestamp] of [
      ['in', '2027-01-27T06:00:00Z'],
      ['out', '2027-01-27T17:00:00Z'],
    ] as const) {
      const made = await company.live.post('/v1/check-ins', { employee_id: long.id, type, timestamp });
      expect(made.statusCode, made.body).toBe(201);
    }
    const inbox = await inboxOf(spanishAdmin.call, '/dashboard/api/notifications');
    expect(inbox.data.map((entry) => entry.kind)).toContain('compliance_alert');
    const alert = inbox.data.find((entry) => entry.kind === 'compliance_alert');
    expect(alert?.title).toBe('Alerta de límites legales: Luis Largo');
    expect(alert?.body).toContain('más de nueve horas ordinarias en el día');

    // Another company's administrator has an empty inbox; the same in the sandbox tells nobody.
    const other = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    const stranger = await createAdmin(ctx, other.id);
    const strangerSession = await dashboardSession(ctx, stranger.email, stranger.password);
    expect((await inboxOf(strangerSession.call, '/dashboard/api/notifications')).data).toEqual([]);
    const before = (await inboxOf(spanishAdmin.call, '/dashboard/api/notifications?limit=100')).data.length;
    const tester = await hire(company.test, { first_name: 'Prueba', hire_date: '2027-01-01' });
    for (const [type, timestamp] of [
      ['in', '2027-01-27T06:00:00Z'],
      ['out', '2027-01-27T17:00:00Z'],
    ] as const) {
      expect(
        (await company.test.post('/v1/check-ins', { employee_id: tester.id, type, timestamp })).statusCode,
      ).toBe(201);
    }
    expect((await inboxOf(spanishAdmin.call, '/dashboard/api/notifications?limit=100')).data).toHaveLength(
      before,
    );
    // The inbox pages with the project's signed cursors, bound to its recipient.
    const first = (await spanishAdmin.call('GET', '/dashboard/api/notifications?limit=1')).json();
    expect(first.data).toHaveLength(1);
    expect(first.meta.has_more).toBe(true);
    const cursor = encodeURIComponent(first.meta.next_cursor);
    const second = (
      await spanishAdmin.call('GET', `/dashboard/api/notifications?limit=1&cursor=${cursor}`)
    ).json();
    expect(second.data[0].id).not.toBe(first.data[0].id);
    expect(
      (await englishAdmin.call('GET', `/dashboard/api/notifications?limit=1&cursor=${cursor}`)).statusCode,
    ).toBe(422);
    // Without a session: 401.
    expect((await ctx.app.inject({ method: 'GET', url: '/dashboard/api/notifications' })).statusCode).toBe(
      401,
    );
    expect((await ctx.app.inject({ method: 'GET', url: '/portal/api/notifications' })).statusCode).toBe(401);
  });

  it('keeps a notification a year, then the maintenance deletes it', async () => {
    const count = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('notifications')
            .select((eb) => eb.fn.countAll<string>().as('count'))
            .where('company_id', '=', company.id)
            .executeTakeFirstOrThrow()
        ).count,
      );
    expect(await count()).toBeGreaterThan(0);
    // The notifications were made on 1 February 2027: still within their year on 31 January 2028.
    expect(await sweepNotifications(ctx.db, Temporal.Instant.from('2028-01-31T00:00:00Z'))).toBe(0);
    while ((await sweepNotifications(ctx.db, Temporal.Instant.from('2028-02-02T00:00:00Z'), 3)) > 0) {
      // A batch at a time.
    }
    expect(await count()).toBe(0);
  });
});
