import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Executor } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Mail } from '../../platform/mail.ts';
import { keysetPage, mapPage, type Page, timestampKey } from '../../platform/pagination.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import {
  type Language,
  NOTIFICATION_KINDS,
  type NotificationKind,
  notificationBody,
  notificationTitle,
  renderNotification,
} from './notifications.messages.ts';
import {
  approverIds,
  claimDueEmails,
  type DueEmail,
  deleteNotificationsBefore,
  employeeName,
  hasDueEmails as hasDueEmailsAt,
  hasNotified,
  insertNotifications,
  isSandbox,
  markRead,
  preferencesOf,
  type Recipient,
  retryEmailAt,
  savePreferences,
  selectInbox,
  settleEmail,
  unreadCount,
} from './notifications.repo.ts';

export { NOTIFICATION_KINDS, type NotificationKind } from './notifications.messages.ts';
export type { Recipient } from './notifications.repo.ts';

/** Where a notification leads: a screen of the recipient's surface. */
const LINK_BASE: Record<Recipient['type'], string> = { admin: '/dashboard#/', employee: '/portal#/' };

/**
 * One thing to tell: its kind, to whom (some recipients, or every administrator who can act on an employee's
 * records: owners, admins and the employee's team leads), what, where.
 */
export type Notice = {
  kind: NotificationKind;
  to: readonly Recipient[] | { approversOf: string };
  data: Record<string, unknown>;
  /** The screen, without the surface (`absences`, `corrections`). */
  screen: string;
  /**
   * A key that tells the recipient once: when a notification of the kind with this key exists, another is not
   * written (a day's records made by an integration are one notification, not one per record; an open shift is
   * one missed clock-out).
   */
  once?: string;
};

/**
 * Writes notifications in the caller's transaction (docs/decisions/0028-notifications.md): they exist exactly when
 * what caused them does, and their e-mails are the worker role's job, never the request's.
 */
export async function notify(tx: Executor, companyId: string, at: Date, notices: readonly Notice[]) {
  // A sandbox's people are test data: nobody is told anything.
  if (notices.length === 0 || (await isSandbox(tx, companyId))) return;
  const rows = [];
  for (const notice of notices) {
    const recipients =
      'approversOf' in notice.to
        ? (await approverIds(tx, companyId, notice.to.approversOf)).map((id) => ({
            type: 'admin' as const,
            id,
          }))
        : notice.to;
    for (const recipient of recipients) {
      if (notice.once && (await hasNotified(tx, companyId, recipient, notice.kind, notice.once))) continue;
      rows.push({
        id: newId(),
        recipient_type: recipient.type,
        recipient_id: recipient.id,
        kind: notice.kind,
        data: notice.once ? { ...notice.data, once: notice.once } : notice.data,
        link: `${LINK_BASE[recipient.type]}${notice.screen}`,
        created_at: at,
      });
    }
  }
  await insertNotifications(tx, companyId, rows);
}

/** Who can act on an employee's records: owners, admins and the employee's team leads (admins/roles.ts). */
export const approversOf = (db: Executor, companyId: string, employeeId: string) =>
  approverIds(db, companyId, employeeId);

/** The name a notification prints for an employee. */
export const nameOf = (db: Executor, companyId: string, employeeId: string) =>
  employeeName(db, companyId, employeeId);

export type NotificationView = {
  id: string;
  kind: string;
  title: string;
  body: string;
  link: string;
  created_at: string;
  read: boolean;
};

/**
 * A recipient's inbox, newest first, in the reader's language, a keyset page at a time (the project's signed
 * cursors, bound to the recipient's listing); with how many are unread.
 */
export async function inbox(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  companyId: string,
  recipient: Recipient,
  query: { language: Language; limit?: number | undefined; cursor?: string | undefined },
): Promise<Page<NotificationView> & { unread: number }> {
  const page = await keysetPage(selectInbox(deps.db, companyId, recipient), {
    codec: deps.cursors,
    listing: `notifications|${recipient.type}|${recipient.id}`,
    sort: [
      { column: 'created_at', kind: 'timestamp' },
      { column: 'id', kind: 'text' },
    ],
    direction: 'desc',
    limit: query.limit ?? 20,
    cursor: query.cursor,
    keyOf: (row) => [timestampKey(row.created_at), row.id],
  });
  return {
    ...mapPage(page, (row): NotificationView => {
      const data = (row.data ?? {}) as Record<string, unknown>;
      return {
        id: row.id,
        kind: row.kind,
        title: notificationTitle(row.kind, query.language, data),
        body: notificationBody(row.kind, query.language, data),
        link: row.link,
        created_at: formatInstant(row.created_at),
        read: row.read_at !== null,
      };
    }),
    unread: await unreadCount(deps.db, companyId, recipient),
  };
}

export async function readNotifications(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  companyId: string,
  recipient: Recipient,
  which: { ids?: string[] | undefined; all?: boolean | undefined },
): Promise<{ read: number; unread: number }> {
  if (!which.all && !which.ids) throw invalid({ ids: 'or all: true is required' });
  const read = await markRead(
    deps.db,
    companyId,
    recipient,
    which.all ? 'all' : (which.ids ?? []),
    toDate(deps.clock.now()),
  );
  return { read, unread: await unreadCount(deps.db, companyId, recipient) };
}

export type PreferencesView = { language: Language | null; email_off: NotificationKind[] };

export async function preferences(
  deps: Pick<AppDeps, 'db'>,
  companyId: string,
  recipient: Recipient,
): Promise<PreferencesView> {
  const row = await preferencesOf(deps.db, companyId, recipient);
  return { language: row?.language ?? null, email_off: (row?.email_off ?? []) as NotificationKind[] };
}

export async function updatePreferences(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  companyId: string,
  recipient: Recipient,
  change: { language?: Language | null | undefined; email_off?: string[] | undefined },
): Promise<PreferencesView> {
  const known = new Set<string>(NOTIFICATION_KINDS);
  const unknown = (change.email_off ?? []).filter((kind) => !known.has(kind));
  if (unknown.length > 0) throw invalid({ email_off: 'names a kind of notification that does not exist' });
  const current = await preferences(deps, companyId, recipient);
  const next = {
    language: change.language === undefined ? current.language : change.language,
    email_off: change.email_off === undefined ? current.email_off : [...new Set(change.email_off)].sort(),
  };
  await savePreferences(deps.db, companyId, recipient, next, toDate(deps.clock.now()));
  return next as PreferencesView;
}

/** The token of an unsubscribe link: who, which kind, signed with the instance's secret. */
export function unsubscribeToken(
  secret: Buffer,
  companyId: string,
  recipient: Recipient,
  kind: string,
): string {
  const payload = Buffer.from(JSON.stringify([companyId, recipient.type, recipient.id, kind])).toString(
    'base64url',
  );
  return `${payload}.${createHmac('sha256', secret).update(`unsubscribe:${payload}`).digest('base64url')}`;
}

/** The recipient and kind of a valid unsubscribe token; null for anything else. */
export function readUnsubscribeToken(
  secret: Buffer,
  token: string,
): { companyId: string; recipient: Recipient; kind: NotificationKind } | null {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return null;
  // Compared as text: a decoder ignores the last character's spare bits, so comparing the decoded bytes would
  // take four spellings of one signature (a link altered in its last character would still work).
  const expected = Buffer.from(
    createHmac('sha256', secret).update(`unsubscribe:${payload}`).digest('base64url'),
  );
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const [companyId, type, id, kind] = JSON.parse(
      Buffer.from(payload, 'base64url').toString('utf8'),
    ) as string[];
    if (!companyId || (type !== 'admin' && type !== 'employee') || !id) return null;
    if (!(NOTIFICATION_KINDS as readonly string[]).includes(kind ?? '')) return null;
    return { companyId, recipient: { type, id }, kind: kind as NotificationKind };
  } catch {
    return null;
  }
}

/** Turns one kind's e-mails off for the token's recipient (the inbox keeps the kind). */
export async function unsubscribe(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  token: { companyId: string; recipient: Recipient; kind: NotificationKind },
): Promise<void> {
  const current = await preferences(deps, token.companyId, token.recipient);
  await updatePreferences(deps, token.companyId, token.recipient, {
    email_off: [...current.email_off, token.kind],
  });
}

/** An e-mail is sent within a day of its notification or not at all (a mailer configured later sends no backlog). */
const EMAIL_WITHIN_HOURS = 24;
const MAX_ATTEMPTS = 8;
const LEASE_MINUTES = 5;

/** The language of a recipient's e-mails: their choice, else their dashboard's, else Spanish. */
const languageOf = (row: DueEmail): Language => row.language ?? row.admin_language ?? 'es';

/**
 * Sends the notification e-mails that are due (the worker role's `notification-emails` job): claimed with SKIP
 * LOCKED and leased, so each is sent by one worker; a failure is retried with backoff (1, 2, 4… minutes, 8
 * attempts), and the Message-ID is the notification's, so a receiver can drop a repeat. Returns how many it took.
 */
/** Whether any notification's e-mail is due now. */
export async function hasDueEmails(db: Executor, now: Temporal.Instant): Promise<boolean> {
  return await hasDueEmailsAt(db, toDate(now));
}

export async function sendDueEmails(
  deps: Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'publicUrl' | 'instanceSecret'>,
  limit = 20,
  attach: Attachments = async () => [],
): Promise<number> {
  const { db, clock, mailer } = deps;
  const now = clock.now();
  const due = await db
    .transaction()
    .execute((tx) => claimDueEmails(tx, toDate(now), toDate(now.add({ minutes: LEASE_MINUTES })), limit));
  for (const row of due) {
    const kind = row.kind as NotificationKind;
    const tooOld = now.since(Temporal.Instant.fromEpochMilliseconds(row.created_at.getTime())).total('hours');
    const unwanted = (row.email_off ?? []).includes(kind) || !NOTIFICATION_KINDS.includes(kind);
    if (!mailer || !row.email || unwanted || tooOld > EMAIL_WITHIN_HOURS) {
      await settleEmail(db, row.company_id, row.id, 'skipped', toDate(now));
      continue;
    }
    const recipient = { type: row.recipient_type, id: row.recipient_id };
    const token = unsubscribeToken(deps.instanceSecret, row.company_id, recipient, kind);
    const mail = renderNotification(kind, languageOf(row), (row.data ?? {}) as Record<string, unknown>, {
      company: row.company_name,
      link: `${deps.publicUrl}${row.link}`,
      unsubscribeUrl: `${deps.publicUrl}/notifications/unsubscribe?token=${token}`,
    });
    try {
      const attachments = await attach({
        companyId: row.company_id,
        recipient,
        kind,
        data: (row.data ?? {}) as Record<string, unknown>,
        language: languageOf(row),
      });
      // A file not made yet (a month's document the worker role is still making): tried again in a minute.
      if (attachments === null) {
        await retryEmailAt(db, row.company_id, row.id, toDate(now.add({ minutes: 1 })));
        continue;
      }
      await mailer.send({
        to: row.email,
        ...mail,
        ...(attachments && attachments.length > 0 ? { attachments } : {}),
        messageId: `<${row.id}@notifications.jornada>`,
        headers: {
          'List-Unsubscribe': `<${deps.publicUrl}/notifications/unsubscribe?token=${token}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      });
      await settleEmail(db, row.company_id, row.id, 'sent', toDate(clock.now()));
    } catch {
      if (row.email_attempts >= MAX_ATTEMPTS) {
        await settleEmail(db, row.company_id, row.id, 'failed', toDate(clock.now()));
      } else {
        const backoff = 2 ** (row.email_attempts - 1);
        await retryEmailAt(db, row.company_id, row.id, toDate(now.add({ minutes: backoff })));
      }
    }
  }
  return due.length;
}

/**
 * The files an e-mail carries, found by whoever can (the jobs layer: the month's document of a `month_closed`
 * notification lives in another module). An empty list: none; null: not ready yet, try again later.
 */
export type Attachments = (notification: {
  companyId: string;
  recipient: Recipient;
  kind: NotificationKind;
  data: Record<string, unknown>;
  language: Language;
}) => Promise<Mail['attachments'] | null>;

/** Notifications are kept a year (docs/privacy.md). */
export const NOTIFICATION_RETENTION_DAYS = 365;

/** The maintenance's sweep of notifications past their year, a batch per call. Returns how many went. */
export async function sweepNotifications(
  db: Executor,
  now: Temporal.Instant,
  batch = 1_000,
): Promise<number> {
  return await deleteNotificationsBefore(
    db,
    toDate(now.subtract({ hours: 24 * NOTIFICATION_RETENTION_DAYS })),
    batch,
  );
}
