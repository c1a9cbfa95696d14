import { sendDueEmails } from '../modules/notifications/notifications.service.ts';
import type { AppDeps } from '../platform/deps.ts';
import type { Job } from './runner.ts';

/** Sends the notification e-mails that are due (issue 39), a few at a time; at once again while a backlog remains. */
export function notificationEmailsJob(
  deps: Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'publicUrl' | 'instanceSecret'>,
): Job {
  return {
    name: 'notification-emails',
    idleMilliseconds: 2_000,
    tick: async () => await sendDueEmails(deps),
  };
}
