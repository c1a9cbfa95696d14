import { type FormEvent, useEffect, useState } from 'react';
import type { Static } from 'typebox';
import type { SessionView } from '../../../src/modules/admins/admins.schemas.ts';
import { api, type Mode, setCsrfToken, whenSessionLost } from '../../shared/api.ts';
import { NotificationsBell } from '../../shared/Inbox.tsx';
import { applyLanguage, i18n, type Language, msg, setDisplayZone, useT } from '../../shared/i18n.ts';
import { passkeysSupported, signInWithPasskey } from '../../shared/webauthn.ts';
import { can, setAllowed } from './can.ts';
import { AbsencesScreen } from './screens/absences.tsx';
import { CheckInsScreen } from './screens/check-ins.tsx';
import { EmployeesScreen } from './screens/employees.tsx';
import { HomeScreen } from './screens/home.tsx';
import { KeysScreen } from './screens/keys.tsx';
import { KiosksScreen } from './screens/kiosks.tsx';
import { PlannerScreen } from './screens/planner.tsx';
import { RegistryScreen } from './screens/registry.tsx';
import { ReportsScreen } from './screens/reports.tsx';
import { SettingsScreen } from './screens/settings.tsx';
import { WebhooksScreen } from './screens/webhooks.tsx';
import { ErrorMessage, Field, useAction } from './ui.tsx';

/** The dashboard's session, as the service's SessionView types it. */
type Session = Static<typeof SessionView>;

/**
 * The screens, in the menu's order: the HR administrator's daily work first, then the integrators' (API keys,
 * webhooks) under "Developers" (issue 39: they were the second and third items of an HR menu).
 */
const SCREENS = [
  { path: 'home', label: msg('Today'), group: 'work', needs: 'dashboardToday' },
  { path: 'absences', label: msg('Team calendar'), group: 'work', needs: 'listAbsences' },
  { path: 'planner', label: msg('Shifts'), group: 'work', needs: 'listShifts' },
  { path: 'employees', label: msg('Employees'), group: 'work', needs: 'listEmployees' },
  { path: 'check-ins', label: msg('Time records'), group: 'work', needs: 'listCheckIns' },
  { path: 'reports', label: msg('Reports'), group: 'work', needs: 'dashboardListReports' },
  { path: 'registry', label: msg('Registry'), group: 'work', needs: 'listClosedRegistryMonths' },
  { path: 'kiosks', label: msg('Clock-in devices'), group: 'work', needs: 'dashboardListKioskDevices' },
  { path: 'settings', label: msg('Settings'), group: 'work', needs: 'dashboardSettings' },
  { path: 'keys', label: msg('API keys'), group: 'developers', needs: 'listApiKeys' },
  { path: 'webhooks', label: msg('Webhooks'), group: 'developers', needs: 'listWebhookEndpoints' },
] as const;
type ScreenPath = (typeof SCREENS)[number]['path'];

function screenOfHash(): ScreenPath {
  const path = window.location.hash.replace(/^#\/?/, '');
  return SCREENS.find((screen) => screen.path === path)?.path ?? 'home';
}

/** The screen lives in the URL's fragment (#/keys), so every screen has an address and the back button works. */
function useScreen(): ScreenPath {
  const [screen, setScreen] = useState<ScreenPath>(screenOfHash);
  useEffect(() => {
    const update = () => setScreen(screenOfHash());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return screen;
}

/** The other language, offered by its own name (so a reader of either can find it). */
function LanguageSwitch({ onSwitch }: { onSwitch: (language: Language) => void }) {
  const t = useT();
  const other: Language = i18n.language === 'es' ? 'en' : 'es';
  return (
    <button
      type="button"
      className="secondary"
      lang={other}
      aria-label={other === 'en' ? 'Switch to English' : 'Cambiar a español'}
      title={t('Language of the dashboard')}
      onClick={() => onSwitch(other)}
    >
      {other === 'en' ? 'English' : 'Español'}
    </button>
  );
}

function Login({ onLogin }: { onLogin: (session: Session) => void }) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const session = await action.run(() => api<Session>('POST', '/login', { email, password }));
    if (session) onLogin(session);
  };
  // A passkey signs in without email or password, also while wrong passwords have locked the email out.
  const withPasskey = async () => {
    const session = await action.run(() => signInWithPasskey<Session>(api));
    if (session) onLogin(session);
  };
  return (
    <main className="login">
      <h1>Jornada</h1>
      <form onSubmit={submit} aria-label={t('Log in')}>
        <h2>{t('Company administrator login')}</h2>
        <Field label={t('Email')}>
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </Field>
        <Field label={t('Password')}>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <ErrorMessage error={action.error} />
        <div className="row">
          <button type="submit" disabled={action.busy}>
            {t('Log in')}
          </button>
          {passkeysSupported() && (
            <button type="button" className="secondary" disabled={action.busy} onClick={withPasskey}>
              {t('Log in with a passkey')}
            </button>
          )}
        </div>
      </form>
      <LanguageSwitch onSwitch={applyLanguage} />
    </main>
  );
}

/** A button that folds and unfolds a part of the page at phone width (styles.css shows it there only). */
function FoldToggle({
  className,
  controls,
  open,
  onToggle,
  label,
}: {
  className: string;
  controls: string;
  open: boolean;
  onToggle: (open: boolean) => void;
  label: string;
}) {
  return (
    <button
      type="button"
      className={`secondary ${className}`}
      aria-expanded={open}
      aria-controls={controls}
      onClick={() => onToggle(!open)}
    >
      {label} <span aria-hidden="true">{open ? '▴' : '▾'}</span>
    </button>
  );
}

export function App() {
  const t = useT();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [mode, setMode] = useState<Mode>(() =>
    sessionStorage.getItem('jornada.mode') === 'test' ? 'test' : 'live',
  );
  const screen = useScreen();

  const accept = (next: Session) => {
    setCsrfToken(next.csrf_token);
    setAllowed(next.can, next.admin.role);
    // The test data is the developers': a team lead and payroll work in the live data only.
    if (!next.can.includes('listApiKeys')) setMode('live');
    setDisplayZone(next.company.timezone);
    applyLanguage(next.language);
    setSession(next);
  };
  const chooseLanguage = async (language: Language) => {
    applyLanguage(language);
    const next = await api<Session>('PATCH', '/me', { language }).catch(() => null);
    if (next) accept(next);
  };
  const refresh = () => api<Session>('GET', '/session').then(accept, () => setSession(null));
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on load
  useEffect(() => {
    whenSessionLost(() => setSession(null));
    void refresh();
  }, []);
  useEffect(() => sessionStorage.setItem('jornada.mode', mode), [mode]);
  // The phone menu closes once a screen is chosen.
  const [menuOpen, setMenuOpen] = useState(false);
  const [accountOpen, setAccountOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new screen is what closes the menu
  useEffect(() => setMenuOpen(false), [screen]);
  // Another login starts with the account's controls folded.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new administrator is what folds them
  useEffect(() => setAccountOpen(false), [session?.admin.id]);

  if (session === undefined) return <p role="status">{t('Loading…')}</p>;
  if (session === null) return <Login onLogin={accept} />;

  const logout = async () => {
    await api('POST', '/logout').catch(() => {});
    setSession(null);
  };
  // A screen the role does not have (an old bookmark) shows the first one it has.
  const shown = SCREENS.find((item) => item.path === screen && can(item.needs))
    ? screen
    : (SCREENS.find((item) => can(item.needs))?.path ?? 'settings');
  const title = t(SCREENS.find((item) => item.path === shown)?.label ?? '');
  const screenLink = (item: (typeof SCREENS)[number]) => (
    <li key={item.path}>
      <a
        href={`#/${item.path}`}
        aria-current={item.path === shown ? 'page' : undefined}
        // The current screen's link changes no address: it folds the menu itself.
        onClick={() => setMenuOpen(false)}
      >
        {t(item.label)}
      </a>
    </li>
  );
  return (
    <div className={`shell mode-${mode}`}>
      <header>
        <div className="brand">
          <strong>Jornada</strong> <span>{session.company.name}</span>
        </div>
        <NotificationsBell
          request={api}
          language={session.language}
          timeZone={session.company.timezone}
          words={{
            button: (count) => t('Notifications ({{count}} unread)', { count }),
            title: t('Notifications'),
            empty: t('Nothing to tell you yet.'),
            markAll: t('Mark all read'),
            close: t('Close'),
            unreadMark: t('Unread:'),
          }}
        />
        {/* At phone width the account's controls fold behind this button, so the header keeps one line. */}
        <FoldToggle
          className="account-toggle"
          controls="account"
          open={accountOpen}
          onToggle={setAccountOpen}
          label={t('Account')}
        />
        <div id="account" className={accountOpen ? 'account open' : 'account'}>
          {can('listApiKeys') && (
            <fieldset className="switch">
              <legend>{t('Data')}</legend>
              {(['live', 'test'] as const).map((value) => (
                <label key={value}>
                  <input
                    type="radio"
                    name="mode"
                    value={value}
                    checked={mode === value}
                    onChange={() => setMode(value)}
                  />
                  {value === 'live' ? t('Live') : t('Test (sandbox)')}
                </label>
              ))}
            </fieldset>
          )}
          <div className="who">
            <a href="/docs">{t('API reference')}</a>
            <span>{session.admin.email}</span>
            <LanguageSwitch onSwitch={(language) => void chooseLanguage(language)} />
            <button type="button" className="secondary" onClick={logout}>
              {t('Log out')}
            </button>
          </div>
        </div>
      </header>
      {mode === 'test' && (
        <p className="test-banner" role="note">
          {t('Test mode: you are working on the sandbox. Nothing here touches live data.')}
        </p>
      )}
      <nav
        aria-label={t('Screens')}
        className={menuOpen ? 'open' : undefined}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && menuOpen) {
            setMenuOpen(false);
            event.currentTarget.querySelector<HTMLButtonElement>('.menu-toggle')?.focus();
          }
        }}
      >
        {/* At phone width the screens fold into a menu behind this button (styles.css). */}
        <FoldToggle
          className="menu-toggle"
          controls="screens"
          open={menuOpen}
          onToggle={setMenuOpen}
          label={t('Menu')}
        />
        <ul id="screens">
          {SCREENS.filter((item) => item.group === 'work' && can(item.needs)).map(screenLink)}
          {can('listApiKeys') && (
            <li className="menu-group">
              <span className="menu-label" id="developers-menu">
                {t('Developers')}
              </span>
              <ul aria-labelledby="developers-menu">
                {SCREENS.filter((item) => item.group === 'developers' && can(item.needs)).map(screenLink)}
              </ul>
            </li>
          )}
        </ul>
      </nav>
      <main>
        <h1>{title}</h1>
        {shown === 'home' && <HomeScreen key={mode} mode={mode} />}
        {shown === 'keys' && <KeysScreen key={mode} mode={mode} />}
        {shown === 'webhooks' && <WebhooksScreen key={mode} mode={mode} />}
        {shown === 'absences' && <AbsencesScreen key={mode} mode={mode} company={session.company} />}
        {shown === 'planner' && <PlannerScreen key={mode} mode={mode} company={session.company} />}
        {shown === 'employees' && <EmployeesScreen key={mode} mode={mode} company={session.company} />}
        {shown === 'check-ins' && <CheckInsScreen key={mode} mode={mode} company={session.company} />}
        {shown === 'reports' && <ReportsScreen key={mode} mode={mode} company={session.company} />}
        {shown === 'registry' && <RegistryScreen key={mode} mode={mode} company={session.company} />}
        {shown === 'kiosks' && <KiosksScreen />}
        {shown === 'settings' && (
          <SettingsScreen adminId={session.admin.id} onChange={() => void refresh()} />
        )}
      </main>
    </div>
  );
}
