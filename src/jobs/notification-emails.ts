import { storedWorkerPdf } from '../modules/month-documents/month-documents.service.ts';
import { type Attachments, sendDueEmails } from '../modules/notifications/notifications.service.ts';
import type { AppDeps } from '../platform/deps.ts';
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

/** Sends the notification e-mails that are due (issue 39), a few at a time; at once again while a backlog remains. */
export function notificationEmailsJob(
  deps: Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'publicUrl' | 'instanceSecret'>,
): Job {
  const attach = notificationAttachments(deps);
  return {
    name: 'notification-emails',
    idleMilliseconds: 2_000,
    tick: async () => await sendDueEmails(deps, 20, attach),
  };
}
