import { type FormEvent, useState } from 'react';
import { SCOPES } from '../../../src/platform/scopes.ts';
import { api, formatInstant, type Mode, type Page } from '../api.ts';
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
  const keys = useLoad(() => api<Page<ApiKey>>('GET', `/${mode}/api-keys?limit=100`), [mode]);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const create = useAction();
  const revoke = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const key = await create.run(() =>
      api<ApiKey & { secret: string }>('POST', `/${mode}/api-keys`, {
        scopes,
        ...(name ? { name } : {}),
        ...(expires ? { expires_in_days: Number(expires) } : {}),
      }),
    );
    if (key) {
      setSecret(key.secret);
      setName('');
      setScopes([]);
      setExpires('');
      keys.reload();
    }
  };
  const toggle = (scope: string) =>
    setScopes((current) =>
      current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope],
    );

  return (
    <>
      <form onSubmit={submit} aria-label="Create an API key" className="card">
        <h2>Create a {mode} key</h2>
        <Field label="Name" name="name" error={create.error}>
          <input value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
        </Field>
        <fieldset aria-describedby="scopes-error">
          <legend>Scopes</legend>
          <GroupError id="scopes-error" name="scopes" label="Scopes" error={create.error} />
          <div className="checks">
            {SCOPES.map((scope) => (
              <label key={scope}>
                <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />{' '}
                {scope}
              </label>
            ))}
          </div>
        </fieldset>
        <Field
          label="Expires in (days)"
          hint="Empty: the company's default expiration applies."
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
          Create key
        </button>
      </form>
      {secret && <SecretOnce label="Your new API key" secret={secret} onDone={() => setSecret(null)} />}

      <h2>Keys</h2>
      <ErrorMessage error={keys.error ?? revoke.error} />
      <Loading loading={keys.loading} />
      <Table
        columns={['Name', 'Key', 'Mode', 'Scopes', 'Status', 'Created', 'Expires', 'Last used', 'Last IP']}
        actions
        empty="No keys yet."
        rows={keys.data?.data.map((key) => (
          <tr key={key.id}>
            <td>{key.name ?? '—'}</td>
            <td>
              <code>{key.prefix}…</code>
            </td>
            <td>{key.mode}</td>
            <td className="scopes">{key.scopes.join(', ')}</td>
            <td>
              {key.status}
              {key.revoked_reason ? ` (${key.revoked_reason})` : ''}
            </td>
            <td>{formatInstant(key.created_at)}</td>
            <td>{formatInstant(key.expires_at)}</td>
            <td>{formatInstant(key.last_used_at)}</td>
            <td>{key.last_used_ip ?? '—'}</td>
            <td>
              {key.status === 'active' && (
                <ConfirmButton
                  label={`Revoke ${key.name ?? key.prefix}`}
                  title="Revoke this key?"
                  confirmLabel="Revoke"
                  onConfirm={() =>
                    void revoke.run(async () => {
                      await api('DELETE', `/${mode}/api-keys/${key.id}`);
                      keys.reload();
                    })
                  }
                >
                  <p>
                    Calls with <code>{key.prefix}…</code> will be refused from now on. This cannot be undone.
                  </p>
                </ConfirmButton>
              )}
            </td>
          </tr>
        ))}
      />
    </>
  );
}
