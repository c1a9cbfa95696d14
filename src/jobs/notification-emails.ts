import { fileURLToPath } from 'node:url';
import { storedWorkerPdf } from '../modules/month-documents/month-documents.service.ts';
import {
  type Attachments,
  hasDueEmails,
  sendDueEmails,
} from '../modules/notifications/notifications.service.ts';
import type { AppDeps } from '../platform/deps.ts';
import { type BackgroundDatabase, clockOffsetOf, runToEnd } from './background.ts';
import type { Job } from './runner.ts';

/**
 * A closed month's e-mail carries the worker's document of the month as a PDF, in the e-mail's language (issue
 * 39): the sealed file itself, the one the portal and the inspector's link serve.
 */
export function notificationAttachments(deps: Pick<AppDeps, 'db'>): Attachments {
  return async ({ companyId, recipient, kind, data, language }) => {
    if (kind !== 'month_closed' || recipient.type !== 'employee' || typeof data.month !== 'string') return [];
    const pdf = await storedWorkerPdf(deps.db, companyId, recipient.id, data.month, language);
    if (!pdf) return null;
    const name = language === 'es' ? 'registro-de-jornada' : 'time-record';
    return [{ filename: `${name}-${data.month}.pdf`, content: pdf, contentType: 'application/pdf' }];
  };
}

/** What an e-mails process needs: the database, the SMTP server, the links' origin and key, the clock's offset. */
/** The database as an e-mails process reaches it (it pages nothing: no cursor key). */
type EmailsDatabase = Omit<BackgroundDatabase, 'cursorKey'>;

export type EmailsProcessData = EmailsDatabase & {
  smtp: { url: string; from: string };
  publicUrl: string;
  instanceSecret: Uint8Array;
  clockOffsetMilliseconds: number;
  batch: number;
  /** How long the process stays with nothing to send before it leaves. */
  lingerMilliseconds: number;
};

const ENTRY = fileURLToPath(new URL('./emails-process.ts', import.meta.url));
/** How many e-mails one process handles before the next one starts. */
const PROCESS_BATCH = 5_000;
/** How long a process stays with nothing to send (a month close's e-mails come as its documents are made). */
const LINGER_MILLISECONDS = 60_000;

/**
 * Sends the notification e-mails that are due (issue 39). In a service with the database's address and an SMTP
 * server (`serve`), in a background process at the lowest priority (emails-process.ts), started when some are
 * due: building a month close's 2,000 e-mails with their PDFs never touches the heap or the event loop that
 * answers the API. Without it (a test's in-process service), a few at a time in this process; at once again while
 * a backlog remains.
 */
export function notificationEmailsJob(
  deps: Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'publicUrl' | 'instanceSecret'>,
  background?: EmailsDatabase & { smtp: { url: string; from: string } | null },
): Job {
  const attach = notificationAttachments(deps);
  const smtp = background?.smtp ?? null;
  return {
    name: 'notification-emails',
    idleMilliseconds: 2_000,
    tick: async (stopping) => {
      if (!background || smtp === null) return await sendDueEmails(deps, 20, attach);
      if (!(await hasDueEmails(deps.db, deps.clock.now()))) return 0;
      await runToEnd<EmailsProcessData, { handled: number }>(
        ENTRY,
        {
          databaseUrl: background.databaseUrl,
          pool: background.pool,
          smtp,
          publicUrl: deps.publicUrl,
          instanceSecret: deps.instanceSecret,
          clockOffsetMilliseconds: clockOffsetOf(deps.clock),
          batch: PROCESS_BATCH,
          lingerMilliseconds: LINGER_MILLISECONDS,
        },
        'e-mails',
        stopping,
      );
      return 0;
    },
  };
}
