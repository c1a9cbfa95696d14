import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { NotificationsTable } from '../../db/schema.ts';

export type RecipientType = NotificationsTable['recipient_type'];
export type Recipient = { type: RecipientType; id: string };

/** A notification as its inbox reads it (the table's row, but its company and e-mail state). */
export type NotificationRow = Pick<
  Selectable<NotificationsTable>,
  'id' | 'recipient_type' | 'recipient_id' | 'kind' | 'data' | 'link' | 'created_at' | 'read_at'
>;

/** Stores notifications, their e-mails due now (the worker role sends them). */
export async function insertNotifications(
  db: Executor,
  companyId: string,
  rows: ReadonlyArray<Omit<NotificationRow, 'read_at'>>,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('notifications')
    .values(
      rows.map((row) => ({
        company_id: companyId,
        ...row,
        data: JSON.stringify(row.data),
        read_at: null,
        email_due_at: row.created_at,
        email_sent_at: null,
      })),
    )
    .execute();
}

/** Whether a company is a sandbox (its test data tells nobody). */
export async function isSandbox(db: Executor, companyId: string): Promise<boolean> {
  const row = await db
    .selectFrom('companies')
    .select('sandbox_of')
    .where('id', '=', companyId)
    .executeTakeFirst();
  return row?.sandbox_of != null;
}

/**
 * The administrators who can act on an employee's request (not disabled): the owners and admins, and the team
 * leads of the employee's unit or of a unit above it (admins/roles.ts). Payroll reads; it is not told.
 */
export async function approverIds(db: Executor, companyId: string, employeeId: string): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    with recursive up as (
      select u.id, u.parent_id from units u
      join employees e on e.company_id = u.company_id and e.unit_id = u.id
      where e.company_id = ${companyId} and e.id = ${employeeId}
      union
      select u.id, u.parent_id from units u join up on u.id = up.parent_id where u.company_id = ${companyId}
    )
    select a.id from company_admins a
    where a.company_id = ${companyId} and a.disabled_at is null
      and (a.role in ('owner', 'admin') or (a.role = 'team_lead' and a.unit_ids && array(select id from up)))
    order by a.id
  `.execute(db);
  return rows.rows.map((row) => row.id);
}

/** An employee's name, as a notification prints it. */
export async function employeeName(db: Executor, companyId: string, id: string): Promise<string> {
  const row = await db
    .selectFrom('employees')
    .select(['first_name', 'last_name'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? `${row.first_name} ${row.last_name}` : '';
}

/** A recipient's inbox, newest first, after a keyset position. */
/** A recipient's inbox, for keyset paging newest first by (created_at, id) (platform/pagination.ts). */
export function selectInbox(db: Executor, companyId: string, recipient: Recipient) {
  return db
    .selectFrom('notifications')
    .select(['id', 'recipient_type', 'recipient_id', 'kind', 'data', 'link', 'created_at', 'read_at'])
    .where('company_id', '=', companyId)
    .where('recipient_type', '=', recipient.type)
    .where('recipient_id', '=', recipient.id);
}

export async function unreadCount(db: Executor, companyId: string, recipient: Recipient): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('company_id', '=', companyId)
    .where('recipient_type', '=', recipient.type)
    .where('recipient_id', '=', recipient.id)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks a recipient's notifications read: some by id (others' ids match nothing), or all. Returns how many. */
export async function markRead(
  db: Executor,
  companyId: string,
  recipient: Recipient,
  ids: readonly string[] | 'all',
  at: Date,
): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  let query = db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('company_id', '=', companyId)
    .where('recipient_type', '=', recipient.type)
    .where('recipient_id', '=', recipient.id)
    .where('read_at', 'is', null);
  if (ids !== 'all') query = query.where('id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export type DueEmail = NotificationRow & {
  company_id: string;
  company_name: string;
  email_attempts: number;
  email: string | null;
  recipient_name: string | null;
  language: 'es' | 'en' | null;
  admin_language: 'es' | 'en' | null;
  email_off: string[] | null;
};

/**
 * Claims e-mails that are due, across companies, with SKIP LOCKED, and leases them (due again after `lease`, so a
 * worker that dies mid-send leaves them to another): each with its recipient's address, name and choices.
 */
export async function claimDueEmails(
  db: Executor,
  now: Date,
  lease: Date,
  limit: number,
): Promise<DueEmail[]> {
  const result = await sql<DueEmail>`
    with due as (
      select company_id, id from notifications
       where email_state = 'pending' and email_due_at <= ${now}
       order by email_due_at
       limit ${limit}
       for update skip locked
    ), leased as (
      update notifications n set email_due_at = ${lease}, email_attempts = n.email_attempts + 1
        from due where n.company_id = due.company_id and n.id = due.id
      returning n.*
    )
    select l.company_id, l.id, l.recipient_type, l.recipient_id, l.kind, l.data, l.link, l.created_at, l.read_at,
           l.email_attempts, c.name as company_name,
           coalesce(a.email, e.email) as email,
           case when e.id is not null then e.first_name end as recipient_name,
           p.language, a.language as admin_language, p.email_off
      from leased l
      join companies c on c.id = l.company_id
      left join company_admins a
        on l.recipient_type = 'admin' and a.company_id = l.company_id and a.id = l.recipient_id
       and a.disabled_at is null
      left join employees e
        on l.recipient_type = 'employee' and e.company_id = l.company_id and e.id = l.recipient_id
      left join notification_preferences p
        on p.company_id = l.company_id and p.recipient_type = l.recipient_type and p.recipient_id = l.recipient_id`.execute(
    db,
  );
  return result.rows;
}

/** The e-mail's end: sent, skipped (no address, not wanted, too old) or failed for good. */
/** Whether any notification's e-mail is due (the job's check before it starts a process to send them). */
export async function hasDueEmails(db: Executor, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('email_state', '=', 'pending')
    .where('email_due_at', '<=', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function settleEmail(
  db: Executor,
  companyId: string,
  id: string,
  state: 'sent' | 'skipped' | 'failed',
  at: Date,
): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ email_state: state, email_due_at: null, ...(state === 'sent' ? { email_sent_at: at } : {}) })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('email_state', '=', 'pending')
    .execute();
}

/** A failed attempt: the e-mail is due again at `due`. */
export async function retryEmailAt(db: Executor, companyId: string, id: string, due: Date): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ email_due_at: due })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('email_state', '=', 'pending')
    .execute();
}

export async function preferencesOf(db: Executor, companyId: string, recipient: Recipient) {
  return await db
    .selectFrom('notification_preferences')
    .select(['language', 'email_off'])
    .where('company_id', '=', companyId)
    .where('recipient_type', '=', recipient.type)
    .where('recipient_id', '=', recipient.id)
    .executeTakeFirst();
}

export async function savePreferences(
  db: Executor,
  companyId: string,
  recipient: Recipient,
  preferences: { language: 'es' | 'en' | null; email_off: string[] },
  at: Date,
): Promise<void> {
  await db
    .insertInto('notification_preferences')
    .values({
      company_id: companyId,
      recipient_type: recipient.type,
      recipient_id: recipient.id,
      language: preferences.language,
      email_off: preferences.email_off,
      updated_at: at,
    })
    .onConflict((conflict) =>
      conflict.columns(['company_id', 'recipient_type', 'recipient_id']).doUpdateSet({
        language: preferences.language,
        email_off: preferences.email_off,
        updated_at: at,
      }),
    )
    .execute();
}

/** Deletes, a batch at a time, notifications made before `before`, company by company. Returns how many went. */
export async function deleteNotificationsBefore(db: Executor, before: Date, batch: number): Promise<number> {
  const result = await sql`
    delete from notifications n using (
      select old.company_id, old.id
      from companies c cross join lateral (
        select x.company_id, x.id from notifications x
        where x.company_id = c.id and x.created_at < ${before}
        order by x.created_at
        limit ${batch}
      ) old
      limit ${batch}
    ) old
    where n.company_id = old.company_id and n.id = old.id`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/** Whether a recipient was told of a kind with a `once` key already (Notice.once). */
export async function hasNotified(
  db: Executor,
  companyId: string,
  recipient: Recipient,
  kind: string,
  once: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('company_id', '=', companyId)
    .where('recipient_type', '=', recipient.type)
    .where('recipient_id', '=', recipient.id)
    .where('kind', '=', kind)
    .where(sql<boolean>`data->>'once' = ${once}`)
    .executeTakeFirst();
  return row !== undefined;
}
