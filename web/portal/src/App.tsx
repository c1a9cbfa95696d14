import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiProblem, describe } from '../../shared/api.ts';
import { NotificationsBell } from '../../shared/Inbox.tsx';
import { passkeysSupported, signInWithPasskey } from '../../shared/webauthn.ts';
import { AccountScreen } from './Account.tsx';
import { type Me, portalApi, setPortalCsrf, whenPortalSessionLost } from './api.ts';
import { CorrectionsScreen } from './Corrections.tsx';
import { switchLanguage } from './i18n.ts';
import {
  ensureDevice,
  forgetMe,
  pendingPunches,
  rememberedMe,
  rememberMe,
  type SentQueue,
  sendPending,
} from './offline.ts';
import { RecordScreen } from './Record.tsx';
import { ShiftsScreen, unseenShifts } from './Shifts.tsx';
import { TimeOffScreen } from './TimeOff.tsx';
import { TodayScreen } from './Today.tsx';

/** How often punches kept offline are offered again while the device believes it is online. */
const RETRY_MS = 10_000;

type Tab = 'today' | 'shifts' | 'absences' | 'record' | 'corrections' | 'account';
const TABS: Tab[] = ['today', 'shifts', 'absences', 'record', 'corrections', 'account'];

const tabOfHash = (): Tab => {
  const name = window.location.hash.replace('#/', '');
  return (TABS as string[]).includes(name) ? (name as Tab) : 'today';
};

/** Problems as a list a person can act on, announced to screen readers. */
export function Problems({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <div className="problem" role="alert">
      <ul>
        {describe(error).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

export function PortalApp() {
  const { t, i18n } = useTranslation();
  const [me, setMe] = useState<Me | null>(null);
  const [checked, setChecked] = useState(false);
  const [tab, setTab] = useState<Tab>(tabOfHash());
  const [unseen, setUnseen] = useState(0);
  // Punches kept offline that the service refused when they were sent (a replay, a closed month…).
  const [refused, setRefused] = useState<SentQueue['refused']>([]);
  const clearUnseen = useCallback(() => setUnseen(0), []);
  const token = new URLSearchParams(window.location.search).get('token');

  const refresh = useCallback(async () => {
    try {
      const answer = await portalApi<Me>('GET', '/me');
      setPortalCsrf(answer.csrf_token);
      rememberMe(answer);
      // Punches kept while offline go first, then the day is read again with them.
      await ensureDevice(answer.employee.id).catch(() => undefined);
      const sent = await sendPending(answer.employee.id).catch(() => null);
      if (sent) {
        Object.assign(answer, await portalApi<Me>('GET', '/me'));
        if (sent.refused.length > 0) setRefused(sent.refused);
      }
      setMe(answer);
      setUnseen(await unseenShifts().catch(() => 0));
    } catch (failure) {
      // Without a connection the app opens on the worker's last day, to clock offline (decision 0030).
      const remembered = failure instanceof ApiProblem && failure.status === 0 ? rememberedMe() : null;
      setMe(remembered);
    } finally {
      setChecked(true);
    }
  }, []);

  useEffect(() => {
    whenPortalSessionLost(() => {
      forgetMe();
      setMe(null);
    });
    void refresh();
    const back = () => void refresh();
    window.addEventListener('online', back);
    // The connection's return is not always announced (a captive portal, a flaky network that never "went"
    // offline, a send that failed half-way): while punches wait on this device, try again every few seconds.
    const retry = window.setInterval(() => {
      const employeeId = rememberedMe()?.employee.id;
      if (!navigator.onLine || !employeeId) return;
      void pendingPunches(employeeId).then((kept) => {
        if (kept.length > 0) back();
      });
    }, RETRY_MS);
    const onHash = () => setTab(tabOfHash());
    window.addEventListener('hashchange', onHash);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener('online', back);
      window.clearInterval(retry);
    };
  }, [refresh]);

  const other = i18n.language === 'es' ? 'en' : 'es';
  const languageButton = (
    <button
      type="button"
      className="link"
      lang={other}
      aria-label={t('languageLabel')}
      onClick={() => {
        switchLanguage(other);
        // A worker's e-mails follow the language they read the portal in.
        if (me)
          void portalApi('PATCH', '/notification-preferences', { language: other }).catch(() => undefined);
      }}
    >
      {t('language')}
    </button>
  );

  if (!checked) return null;
  if (!me) {
    return (
      <div className="portal">
        <header className="bar">
          <span className="brand">Jornada</span>
          {languageButton}
        </header>
        <main className="content">
          {token ? (
            <InvitationForm
              token={token}
              onDone={async () => {
                window.history.replaceState(null, '', '/portal');
                await refresh();
              }}
            />
          ) : (
            <LoginForm onDone={refresh} />
          )}
        </main>
      </div>
    );
  }

  return (
    <div className="portal">
      <header className="bar">
        <span className="brand">{me.company.name}</span>
        <span className="bar-actions">
          <NotificationsBell
            request={portalApi}
            language={i18n.language === 'en' ? 'en' : 'es'}
            timeZone={me.employee.timezone}
            words={{
              button: (count) => t('inbox.button', { count }),
              title: t('inbox.title'),
              empty: t('inbox.empty'),
              markAll: t('inbox.markAll'),
              close: t('inbox.close'),
              unreadMark: t('inbox.unread'),
            }}
          />
          {languageButton}
          <button
            type="button"
            className="link"
            onClick={async () => {
              await portalApi('POST', '/logout').catch(() => undefined);
              forgetMe();
              setMe(null);
            }}
          >
            {t('logout')}
          </button>
        </span>
      </header>
      <main className="content" id="main">
        {tab === 'today' && <TodayScreen me={me} onChange={refresh} refused={refused} />}
        {tab === 'shifts' && <ShiftsScreen onSeen={clearUnseen} />}
        {tab === 'absences' && <TimeOffScreen />}
        {tab === 'record' && <RecordScreen me={me} />}
        {tab === 'corrections' && <CorrectionsScreen me={me} />}
        {tab === 'account' && <AccountScreen me={me} />}
      </main>
      <nav className="tabs" aria-label={t('app')}>
        {TABS.map((name) => (
          <a key={name} href={`#/${name}`} aria-current={tab === name ? 'page' : undefined}>
            {t(`nav.${name}`)}
            {name === 'shifts' && unseen > 0 && (
              <span className="badge">
                <span aria-hidden="true">{unseen}</span>
                <span className="visually-hidden">{t('shifts.badge', { count: unseen })}</span>
              </span>
            )}
          </a>
        ))}
      </nav>
    </div>
  );
}

/**
 * A form that opens a session: runs `open` with the form's data, keeps the session's CSRF token, then `onDone`;
 * a problem is shown above the fields.
 */
function useSessionForm(
  open: (form: FormData) => Promise<{ csrf_token: string } | null>,
  onDone: () => Promise<void>,
) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      const session = await open(form);
      if (session) {
        setPortalCsrf(session.csrf_token);
        await onDone();
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { error, setError, busy, submit };
}

function LoginForm({ onDone }: { onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const [passkeyError, setPasskeyError] = useState<unknown>(null);
  // A passkey signs in without email or password (and while wrong passwords have locked the email out).
  const withPasskey = async () => {
    setPasskeyError(null);
    try {
      const session = await signInWithPasskey<{ csrf_token: string }>(portalApi);
      setPortalCsrf(session.csrf_token);
      await onDone();
    } catch (failure) {
      setPasskeyError(failure);
    }
  };
  const { error, busy, submit } = useSessionForm(
    (form) =>
      portalApi<{ csrf_token: string }>('POST', '/login', {
        email: String(form.get('email')),
        password: String(form.get('password')),
      }),
    onDone,
  );
  return (
    <form className="card form" onSubmit={submit}>
      <h1>{t('login.title')}</h1>
      <Problems error={error} />
      <label>
        {t('login.email')}
        <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        {t('login.password')}
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <button type="submit" className="primary" disabled={busy}>
        {t('login.submit')}
      </button>
      {passkeysSupported() && (
        <>
          <p className="or">{t('login.or')}</p>
          <Problems error={passkeyError} />
          <button type="button" className="secondary" onClick={() => void withPasskey()}>
            {t('login.passkey')}
          </button>
        </>
      )}
    </form>
  );
}

function InvitationForm({ token, onDone }: { token: string; onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const { error, setError, busy, submit } = useSessionForm(async (form) => {
    const password = String(form.get('password'));
    if (password !== String(form.get('confirm'))) {
      setError(new Error(t('invitation.mismatch')));
      return null;
    }
    return await portalApi<{ csrf_token: string }>('POST', '/invitations/accept', { token, password });
  }, onDone);
  return (
    <form className="card form" onSubmit={submit}>
      <h1>{t('invitation.title')}</h1>
      <p className="muted">{t('invitation.intro')}</p>
      <Problems error={error} />
      <label>
        {t('invitation.password')}
        <input name="password" type="password" autoComplete="new-password" minLength={12} required />
      </label>
      <label>
        {t('invitation.confirm')}
        <input name="confirm" type="password" autoComplete="new-password" minLength={12} required />
      </label>
      <button type="submit" className="primary" disabled={busy}>
        {t('invitation.submit')}
      </button>
    </form>
  );
}
