import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendDueEmails } from '../../../../src/modules/notifications/notifications.service.ts';
import { tellShiftChanges } from '../../../../src/modules/shifts/shifts.service.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';
import { startSmtpSink } from '../../../helpers/smtp-sink.ts';

/**
 * Issue 38: a published change tells the worker, a short while after the planner's last change: since issue 39 a
 * `shifts_published` notification in the worker's inbox and, when the service has mail (JORNADA_SMTP_URL), an
 * e-mail in the worker's language to a real SMTP sink, listing their published shifts of the next two weeks; one
 * per worker for a round of changes; drafts tell nobody.
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
});
afterAll(async () => {
  await ctx.close();
  await sink.close();
});

describe('shift notices by e-mail', () => {
  it('sends one message per worker for a round of published changes, and none for drafts', async () => {
    const worker = await hire(company.live, { first_name: 'Marta', email: 'marta.turnos@example.com' });
    const other = await hire(company.live, { first_name: 'Pablo', email: 'pablo.turnos@example.com' });
    const today = Temporal.Now.zonedDateTimeISO('Europe/Madrid').toPlainDate();
    const day = (days: number) => today.add({ days }).toString();
    for (const [date, start, end] of [
      [day(2), '22:00', '06:00'],
      [day(3), '08:00', '16:00'],
    ] as const) {
      const planned = await company.live.post('/v1/shifts', {
        employee_id: worker.id,
        date,
        start,
        end,
        status: 'published',
      });
      expect(planned.statusCode, planned.body).toBe(201);
    }
    const draft = await company.live.post('/v1/shifts', {
      employee_id: other.id,
      date: day(2),
      start: '08:00',
      end: '12:00',
    });
    expect(draft.statusCode, draft.body).toBe(201);
    // Not yet: a planner's round of changes is one message, a short while after the last.
    expect(await tellShiftChanges(ctx.deps)).toBe(0);
    ctx.clock.advance(121);
    expect(await tellShiftChanges(ctx.deps)).toBe(1);
    expect(await sendDueEmails(ctx.deps)).toBe(1);
    await expect.poll(() => received.length).toBe(1);
    const message = (received[0] as string).replace(/=\r?\n/g, '');
    expect(message).toContain('To: marta.turnos@example.com');
    expect(message).toContain('Subject: Tus turnos han cambiado');
    // The night shift, with the en dash as the message's quoted-printable writes it, and its next-day end.
    expect(message).toContain('22:00=E2=80=9306:00 (+1)');
    expect(message).toContain('08:00=E2=80=9316:00');
    // Sent: nothing left, and the draft's worker was never told.
    ctx.clock.advance(300);
    expect(await tellShiftChanges(ctx.deps)).toBe(0);
    expect(await sendDueEmails(ctx.deps)).toBe(0);
    expect(received.join('\n')).not.toContain('pablo.turnos@example.com');
  });
});
