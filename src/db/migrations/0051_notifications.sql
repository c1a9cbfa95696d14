-- jornada: expand-only
-- Notifications (issue 39): one row per recipient (a company administrator or a worker) and event worth telling
-- them (a request waiting for them, their request decided, a correction to accept, a legal-limit alert…). The row
-- is written in the transaction of what caused it, so it exists exactly when its cause does and never delays
-- the request; its inbox entry is the row itself (read_at), and its e-mail a durable job over the same row
-- (email_state, claimed with SKIP LOCKED by the worker role, retried, sent at most once per row).
create table notifications (
  company_id uuid not null references companies (id) on delete cascade,
  id uuid not null,
  recipient_type text not null check (recipient_type in ('admin', 'employee')),
  recipient_id uuid not null,
  kind text not null,
  -- What the message says, fixed when it was made (names, dates, a reason): it reads the same later.
  data jsonb not null,
  -- Where it leads, within the recipient's surface (a path of the dashboard or the portal).
  link text not null,
  created_at timestamptz(3) not null,
  read_at timestamptz(3),
  email_state text not null default 'pending' check (email_state in ('pending', 'sent', 'skipped', 'failed')),
  email_attempts integer not null default 0,
  email_due_at timestamptz(3),
  email_sent_at timestamptz(3),
  primary key (company_id, id)
);
create index notifications_inbox
  on notifications (company_id, recipient_type, recipient_id, created_at desc, id desc);
-- The retention sweep's (a year: docs/privacy.md), company by company.
create index notifications_created on notifications (company_id, created_at);
create index notifications_email_due
  on notifications (company_id, email_due_at) where email_state = 'pending';

-- Each recipient's choices: the language of their e-mails (null: their dashboard language, else Spanish) and the
-- kinds they do not want by e-mail (the inbox keeps every kind).
create table notification_preferences (
  company_id uuid not null references companies (id) on delete cascade,
  recipient_type text not null check (recipient_type in ('admin', 'employee')),
  recipient_id uuid not null,
  language text check (language in ('es', 'en')),
  email_off text[] not null default '{}',
  updated_at timestamptz(3) not null,
  primary key (company_id, recipient_type, recipient_id)
);
