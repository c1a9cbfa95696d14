import { type FormEvent, useState } from 'react';
import { api, formatInstant } from '../../../shared/api.ts';
import { useT } from '../../../shared/i18n.ts';
import { addPasskey, type Passkey, passkeysSupported } from '../../../shared/webauthn.ts';
import { ConfirmButton, ErrorMessage, Field, Table, useAction, useLoad } from '../ui.tsx';

/**
 * The administrator's own passkeys (docs/security.md, Passkeys): sign in without a password, and while wrong
 * passwords have locked the email out. List, create one on this device, remove one.
 */
export function AdminPasskeys() {
  const t = useT();
  const list = useLoad(() => api<{ data: Passkey[] }>('GET', '/passkeys'), []);
  const add = useAction();
  const remove = useAction();
  const [name, setName] = useState('');
  const [added, setAdded] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAdded('');
    const created = await add.run(() => addPasskey(api, name.trim()));
    if (created) {
      setAdded(created.name);
      setName('');
      list.reload();
    }
  };
  return (
    <section className="card" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t('Your passkeys')}</h2>
      <p>
        {t(
          'A passkey signs you in with this device’s fingerprint, face or PIN instead of your password, also while wrong passwords have locked your email out.',
        )}
      </p>
      <ErrorMessage error={list.error ?? remove.error} />
      <Table
        label={t('Your passkeys')}
        columns={[t('Name'), t('Created'), t('Last used')]}
        actions
        empty={t('No passkey yet.')}
        rows={list.data?.data.map((key) => (
          <tr key={key.id}>
            <td>{key.name}</td>
            <td>{formatInstant(key.created_at)}</td>
            <td>{key.last_used_at ? formatInstant(key.last_used_at) : t('never')}</td>
            <td>
              <ConfirmButton
                label={t('Remove {{name}}', { name: key.name })}
                title={t('Remove the passkey {{name}}?', { name: key.name })}
                confirmLabel={t('Remove')}
                disabled={remove.busy}
                onConfirm={() =>
                  void remove.run(async () => {
                    await api('DELETE', `/passkeys/${key.id}`);
                    list.reload();
                  })
                }
              >
                <p>{t('It no longer signs you in. Your password and your other passkeys still do.')}</p>
              </ConfirmButton>
            </td>
          </tr>
        ))}
      />
      {passkeysSupported() ? (
        <form onSubmit={submit} aria-label={t('Create a passkey')}>
          <Field label={t('Name of the passkey')} name="name" error={add.error}>
            <input maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
          </Field>
          <ErrorMessage error={add.error} />
          <div className="row">
            <button type="submit" disabled={add.busy}>
              {t('Create a passkey on this device')}
            </button>
            {added && <span role="status">{t('Passkey {{name}} created.', { name: added })}</span>}
          </div>
        </form>
      ) : (
        <p>{t('This browser does not support passkeys.')}</p>
      )}
    </section>
  );
}
