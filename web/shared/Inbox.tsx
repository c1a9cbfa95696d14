import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { inbox } from '../../src/modules/notifications/notifications.service.ts';

/**
 * The notifications bell of the dashboard and the portal (issue 39): a button with the count of unread ones, and
 * a panel listing them, newest first, each leading to its screen (opening one marks it read). The surface's API
 * client (`request`, relative to its /api) and its words are given by the app.
 */
type Request = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** What the inbox operations answer: the service's own types (type-only: erased from the bundle). */
type Inbox = Awaited<ReturnType<typeof inbox>>;

export type InboxWords = {
  button: (unread: number) => string;
  title: string;
  empty: string;
  markAll: string;
  close: string;
  unreadMark: string;
};

/** How often the count is asked again while the page is open. */
const REFRESH_MS = 60_000;

export function NotificationsBell({
  request,
  language,
  words,
  timeZone,
}: {
  request: Request;
  language: 'es' | 'en';
  words: InboxWords;
  timeZone: string;
}) {
  const [inbox, setInbox] = useState<Inbox | null>(null);
  const [open, setOpen] = useState(false);
  const panel = useId();
  const button = useRef<HTMLButtonElement>(null);
  const load = useCallback(async () => {
    try {
      setInbox(await request<Inbox>('GET', `/notifications?lang=${language}&limit=20`));
    } catch {
      // The count stays as it was; the next refresh tries again.
    }
  }, [request, language]);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  // A click or a tap outside the bell and its panel closes the panel.
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const unread = inbox?.unread ?? 0;
  const markRead = async (ids: string[] | 'all') => {
    const answer = await request<{ unread: number }>(
      'POST',
      '/notifications/read',
      ids === 'all' ? { all: true } : { ids },
    ).catch(() => null);
    if (answer) await load();
  };
  const when = (instant: string) =>
    new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
      new Date(instant),
    );
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <div className="inbox" ref={root}>
      <button
        ref={button}
        type="button"
        className="secondary bell"
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => {
          setOpen(!open);
          if (!open) void load();
        }}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
          />
        </svg>
        <span className="visually-hidden">{words.button(unread)}</span>
        {unread > 0 && (
          <span className="bell-count" aria-hidden="true">
            {unread}
          </span>
        )}
      </button>
      {open && (
        <section
          id={panel}
          className="inbox-panel"
          aria-label={words.title}
          onKeyDown={(event) => {
            if (event.key === 'Escape') close();
          }}
        >
          <div className="inbox-head">
            <h2>{words.title}</h2>
            {unread > 0 && (
              <button type="button" className="link" onClick={() => void markRead('all')}>
                {words.markAll}
              </button>
            )}
            <button type="button" className="link" onClick={close}>
              {words.close}
            </button>
          </div>
          {inbox && inbox.data.length === 0 && <p className="muted">{words.empty}</p>}
          <ul>
            {inbox?.data.map((entry) => (
              <li key={entry.id} className={entry.read ? 'read' : 'unread'}>
                <a
                  href={entry.link}
                  onClick={() => {
                    if (!entry.read) void markRead([entry.id]);
                    setOpen(false);
                  }}
                >
                  {!entry.read && <span className="visually-hidden">{words.unreadMark} </span>}
                  <strong>{entry.title}</strong>
                </a>
                <p>{entry.body}</p>
                <time dateTime={entry.created_at}>{when(entry.created_at)}</time>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
