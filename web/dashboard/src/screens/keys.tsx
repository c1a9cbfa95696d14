import { type FormEvent, useState } from 'react';
import { SCOPE_DESCRIPTIONS, SCOPES } from '../../../../src/platform/scopes.ts';
import { api, formatInstant, type Mode, type Page } from '../../../shared/api.ts';
import { formatNumber, useT } from '../../../shared/i18n.ts';
import { statusLabel } from '../labels.ts';
import type { ApiKey } from '../types.ts';
import {
  ConfirmButton,
  ErrorMessage,
  Field,
  GroupError,
  Loading,
  SecretOnce,
  Table,
  useAction,
  useLoad,
} from '../ui.tsx';

export function KeysScreen({ mode }: { mode: Mode }) {
  const t = useT();
  const keys = useLoad(() => api<Page<ApiKey>>('GET', `/${mode}/api-keys?limit=100`), [mode]);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [kind, setKind] = useState<'integration' | 'terminal'>('integration');
  const [secret, setSecret] = useState<string | null>(null);
  const create = useAction();
  const revoke = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const key = await create.run(() =>
      api<ApiKey & { secret: string }>('POST', `/${mode}/api-keys`, {
        scopes,
        kind,
        ...(name ? { name } : {}),
        ...(expires ? { expires_in_days: Number(expires) } : {}),
      }),
    );
    if (key) {
      setSecret(key.secret);
      setName('');
      setScopes([]);
      setExpires('');
      setKind('integration');
      keys.reload();
    }
  };
  const toggle = (scope: string) =>
    setScopes((current) =>
      current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope],
    );

  return (
    <>
      <form onSubmit={submit} aria-label={t('Create an API key')} className="card">
        <h2>{mode === 'live' ? t('Create a live key') : t('Create a test key')}</h2>
        <Field label={t('Name')} name="name" error={create.error}>
          <input value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
        </Field>
        <fieldset aria-describedby="scopes-error">
          <legend>{t('Scopes')}</legend>
          <GroupError id="scopes-error" name="scopes" label={t('Scopes')} error={create.error} />
          <div className="checks scopes-list">
            {SCOPES.map((scope) => (
              <label key={scope}>
                <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />{' '}
                <code>{scope}</code> <span className="muted">{t(SCOPE_DESCRIPTIONS[scope])}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>{t('Kind of key')}</legend>
          <div className="checks">
            <label>
              <input
                type="radio"
                name="kind"
                checked={kind === 'integration'}
                onChange={() => setKind('integration')}
              />{' '}
              {t('Integration')}{' '}
              <span className="muted">
                {t(
                  "Sends records made elsewhere: the worker is asked to accept them (not the worker's own).",
                )}
              </span>
            </label>
            <label>
              <input
                type="radio"
                name="kind"
                checked={kind === 'terminal'}
                onChange={() => setKind('terminal')}
              />{' '}
              {t('Clocking terminal')}{' '}
              <span className="muted">
                {t(
                  "A device that records punches at the moment: its records within 10 minutes are the worker's own.",
                )}
              </span>
            </label>
          </div>
        </fieldset>
        <Field
          label={t('Expires in (days)')}
          hint={t("Empty: the company's default expiration applies.")}
          name="expires_in_days"
          error={create.error}
        >
          <input
            type="number"
            min={1}
            max={3650}
            value={expires}
            onChange={(event) => setExpires(event.target.value)}
          />
        </Field>
        <ErrorMessage error={create.error} />
        <button type="submit" disabled={create.busy}>
          {t('Create key')}
        </button>
      </form>
      {secret && <SecretOnce label={t('Your new API key')} secret={secret} onDone={() => setSecret(null)} />}

      <h2>{t('Keys')}</h2>
      <ErrorMessage error={keys.error ?? revoke.error} />
      <Loading loading={keys.loading} />
      <Table
        columns={[
          t('Name'),
          t('Key'),
          t('Mode'),
          t('Kind of key'),
          t('Scopes'),
          t('Status'),
          t('Created'),
          t('Expires'),
          t('Last used'),
          t('Last IP'),
        ]}
        actions
        empty={t('No keys yet.')}
        rows={keys.data?.data.map((key) => (
          <tr key={key.id}>
            <td>{key.name ?? '—'}</td>
            <td>
              <code>{key.prefix}…</code>
            </td>
            <td>{key.mode === 'live' ? t('Live') : t('Test')}</td>
            <td>{key.kind === 'terminal' ? t('Clocking terminal') : t('Integration')}</td>
            <td className="scopes">{key.scopes.join(', ')}</td>
            <td>
              {t(statusLabel(key.status))}
              {key.revoked_reason ? ` (${key.revoked_reason})` : ''}
            </td>
            <td>{formatInstant(key.created_at)}</td>
            <td>{formatInstant(key.expires_at)}</td>
            <td>{formatInstant(key.last_used_at)}</td>
            <td>{key.last_used_ip ?? '—'}</td>
            <td>
              {key.status === 'active' && (
                <ConfirmButton
                  label={t('Revoke {{name}}', { name: key.name ?? key.prefix })}
                  title={t('Revoke this key?')}
                  confirmLabel={t('Revoke')}
                  onConfirm={() =>
                    void revoke.run(async () => {
                      await api('DELETE', `/${mode}/api-keys/${key.id}`);
                      keys.reload();
                    })
                  }
                >
                  <p>
                    {t('Calls with {{prefix}}… will be refused from now on. This cannot be undone.', {
                      prefix: key.prefix,
                    })}
                  </p>
                </ConfirmButton>
              )}
            </td>
          </tr>
        ))}
      />
      {mode === 'test' && <RequestLog />}
    </>
  );
}

type LoggedRequest = {
  at: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  request_id: string;
};

/** The sandbox's last 100 requests of its test keys: what an integration under development sent. */
function RequestLog() {
  const t = useT();
  const log = useLoad(() => api<{ data: LoggedRequest[] }>('GET', '/test/request-log'), []);
  return (
    <section aria-labelledby="request-log-title">
      <div className="row">
        <h2 id="request-log-title">{t('Recent requests of the test keys')}</h2>
        <button type="button" className="secondary" onClick={log.reload}>
          {t('Refresh')}
        </button>
      </div>
      <p className="muted">{t('The last 100, newest first. Live keys’ requests are never logged here.')}</p>
      <ErrorMessage error={log.error} />
      <Loading loading={log.loading && !log.data} />
      <Table
        label={t('Logged requests')}
        columns={[t('When'), t('Request'), t('Status'), t('Duration'), t('Request id')]}
        empty={t('No request yet.')}
        rows={log.data?.data.map((row) => (
          <tr key={row.request_id + row.at}>
            <td>{formatInstant(row.at)}</td>
            <td>
              <code>
                {row.method} {row.path}
              </code>
            </td>
            <td className={row.status >= 400 ? 'status-failed' : undefined}>{row.status}</td>
            <td>{t('{{ms}} ms', { ms: formatNumber(row.duration_ms) })}</td>
            <td>
              <code>{row.request_id}</code>
            </td>
          </tr>
        ))}
      />
    </section>
  );
}
