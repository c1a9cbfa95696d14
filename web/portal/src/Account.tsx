import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addPasskey, type Passkey, passkeysSupported } from '../../shared/webauthn.ts';
import { Problems } from './App.tsx';
import { type Me, portalApi } from './api.ts';
import { dateTimeOf } from './format.ts';
import { KioskCard } from './Kiosk.tsx';

/**
 * The worker's passkeys (docs/security.md, Passkeys): list, create one on this device, remove one. Once the
 * worker has a passkey, adding or removing another needs a session opened with one (the service says so).
 */
export function AccountScreen({ me }: { me: Me }) {
  const { t } = useTranslation();
  const [keys, setKeys] = useState<Passkey[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<'' | 'account.added' | 'account.removed'>('');
  const [busy, setBusy] = useState(false);
  const zone = me.employee.timezone;

  const load = useCallback(async () => {
    try {
      setKeys((await portalApi<{ data: Passkey[] }>('GET', '/passkeys')).data);
    } catch (failure) {
      setError(failure);
    }
  }, []);
  useEffect(() => void load(), [load]);

  // The key of what was done, so that it follows a change of language.
  const run = async (work: () => Promise<unknown>, message: 'account.added' | 'account.removed') => {
    setError(null);
    setDone('');
    setBusy(true);
    try {
      await work();
      setDone(message);
      await load();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get('name') ?? '').trim();
    void run(async () => {
      await addPasskey(portalApi, name);
      form.reset();
    }, 'account.added');
  };

  return (
    <>
      <section className="card" aria-labelledby="passkeys-title">
        <h1 id="passkeys-title">{t('account.title')}</h1>
        <p className="muted">{t('account.intro')}</p>
        <Problems error={error} />
        {done && (
          <p className="notice" role="status">
            {t(done)}
          </p>
        )}
        {keys && keys.length === 0 && <p>{t('account.none')}</p>}
        {keys && keys.length > 0 && (
          <ul className="passkeys">
            {keys.map((key) => (
              <li key={key.id}>
                <div>
                  <strong>{key.name}</strong>
                  <div className="muted">
                    {t('account.created', { date: dateTimeOf(key.created_at, zone) })}
                    {key.last_used_at && (
                      <>
                        {' · '}
                        {t('account.lastUsed', { date: dateTimeOf(key.last_used_at, zone) })}
                      </>
                    )}
                  </div>
                </div>
                <button
                  type="button"
                  className="secondary"
                  disabled={busy}
                  aria-label={t('account.removeLabel', { name: key.name })}
                  onClick={() =>
                    void run(() => portalApi('DELETE', `/passkeys/${key.id}`), 'account.removed')
                  }
                >
                  {t('account.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
        {keys && keys.length > 0 && <p className="muted">{t('account.passkeyOnly')}</p>}
        {passkeysSupported() ? (
          <form className="form" onSubmit={add}>
            <label>
              {t('account.name')}
              <input name="name" maxLength={100} placeholder={t('account.namePlaceholder')} />
            </label>
            <button type="submit" className="primary" disabled={busy}>
              {t('account.add')}
            </button>
          </form>
        ) : (
          <p>{t('account.unsupported')}</p>
        )}
      </section>
      <KioskCard />
    </>
  );
}
