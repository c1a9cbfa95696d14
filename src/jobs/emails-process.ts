import { setTimeout as delay } from 'node:timers/promises';
import { serveInBackground } from './background.ts';
import type { EmailsProcessData } from './notification-emails.ts';

/**
 * An e-mails process (notification-emails.ts): sends the notification e-mails that are due, a few at a time, from
 * its own database connection and SMTP connection, at the lowest priority the system offers (background.ts),
 * until none is due or its batch is done; then says how many it handled. A month close's 2,000 e-mails, each with
 * a PDF, are megabytes of MIME to build: here their garbage never reaches the heap of the process that answers
 * the API (issue 39, `npm run bench month-close`). Each e-mail is claimed with a lease, so what a process stopped
 * with the service did not send is sent by the next one.
 */
serveInBackground(async (data: EmailsProcessData, stopping: AbortSignal) => {
  const [{ createDb }, { FakeClock }, { smtpMailer }, { sendDueEmails }, { notificationAttachments }] =
    await Promise.all([
      import('../db/database.ts'),
      import('../time/clock.ts'),
      import('../platform/mail.ts'),
      import('../modules/notifications/notifications.service.ts'),
      import('./notification-emails.ts'),
    ]);
  const db = createDb(data.databaseUrl, { ...data.pool, applicationName: 'jornada emails' });
  try {
    // The parent's clock, offset and all (a fake clock in the end-to-end tests).
    const clock = new FakeClock();
    clock.setOffset(data.clockOffsetMilliseconds);
    const deps = {
      db,
      clock,
      mailer: smtpMailer(data.smtp.url, data.smtp.from),
      publicUrl: data.publicUrl,
      instanceSecret: Buffer.from(data.instanceSecret),
    };
    const attach = notificationAttachments(deps);
    let handled = 0;
    // Starting a process costs the service a fork (tens of milliseconds of its event loop on a large heap): this
    // one stays while e-mails keep coming (a month close's arrive as its documents are made), and leaves after a
    // quiet spell or its batch.
    let lastWork = performance.now();
    while (
      !stopping.aborted &&
      handled < data.batch &&
      performance.now() - lastWork < data.lingerMilliseconds
    ) {
      const claimed = await sendDueEmails(deps, EMAILS_PER_CLAIM, attach);
      handled += claimed;
      if (claimed > 0) lastWork = performance.now();
      else await delay(POLL_MILLISECONDS, undefined, { signal: stopping }).catch(() => {});
    }
    return { handled };
  } finally {
    await db.destroy().catch(() => {});
  }
});

/** How many due e-mails one claim takes (each leased, so another node's process takes the next ones). */
const EMAILS_PER_CLAIM = 20;
/** How often a lingering process looks for due e-mails. */
const POLL_MILLISECONDS = 2_000;
