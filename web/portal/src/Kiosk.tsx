import QRCode from 'qrcode';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Problems } from './App.tsx';
import { portalApi } from './api.ts';

/**
 * The worker's ways to identify on a shared kiosk (issue 40, decision 0029): their PIN, set and changed here and
 * never shown to the company; or the QR code of the moment, drawn here and read by the kiosk's camera, valid for
 * its 30-second window and used once. The code is drawn again before each window ends.
 */
export function KioskCard() {
  const { t } = useTranslation();
  const [pinSet, setPinSet] = useState<boolean | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [showing, setShowing] = useState(false);
  const [qr, setQr] = useState<{ image: string; expires: string } | null>(null);

  useEffect(() => {
    portalApi<{ pin_set: boolean }>('GET', '/kiosk-pin')
      .then((state) => setPinSet(state.pin_set))
      .catch(setError);
  }, []);

  const draw = useCallback(async () => {
    const code = await portalApi<{ code: string; expires_at: string }>('GET', '/kiosk-code');
    setQr({
      image: await QRCode.toDataURL(code.code, { errorCorrectionLevel: 'M', margin: 2, width: 320 }),
      expires: code.expires_at,
    });
    return Date.parse(code.expires_at) - Date.now();
  }, []);
  useEffect(() => {
    if (!showing) return;
    let timer: number | undefined;
    const next = async () => {
      try {
        const left = await draw();
        timer = window.setTimeout(() => void next(), Math.max(1_000, left + 200));
      } catch (failure) {
        setError(failure);
      }
    };
    void next();
    return () => window.clearTimeout(timer);
  }, [showing, draw]);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setError(null);
    setSaved(false);
    try {
      await portalApi('POST', '/kiosk-pin', { pin: String(new FormData(form).get('pin') ?? '') });
      setPinSet(true);
      setSaved(true);
      form.reset();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <section className="card" aria-labelledby="kiosk-title">
      <h2 id="kiosk-title">{t('kiosk.title')}</h2>
      <p className="muted">{t('kiosk.intro')}</p>
      <Problems error={error} />
      {saved && (
        <p className="notice" role="status">
          {t('kiosk.saved')}
        </p>
      )}
      {pinSet !== null && <p>{pinSet ? t('kiosk.pinSet') : t('kiosk.noPin')}</p>}
      <form className="form" onSubmit={(event) => void save(event)}>
        <label>
          {pinSet ? t('kiosk.newPin') : t('kiosk.pin')}
          <input
            name="pin"
            type="password"
            inputMode="numeric"
            autoComplete="new-password"
            pattern="[0-9]{6}"
            minLength={6}
            maxLength={6}
            required
          />
        </label>
        <p className="muted">{t('kiosk.pinRules')}</p>
        <button type="submit" className="primary">
          {pinSet ? t('kiosk.change') : t('kiosk.set')}
        </button>
      </form>
      <button
        type="button"
        className="secondary"
        onClick={() => setShowing(!showing)}
        aria-expanded={showing}
      >
        {showing ? t('kiosk.hideQr') : t('kiosk.showQr')}
      </button>
      {showing && qr && (
        <figure className="kiosk-qr">
          <img src={qr.image} alt={t('kiosk.qrLabel')} width={280} height={280} />
          <figcaption className="muted">{t('kiosk.qrHint')}</figcaption>
        </figure>
      )}
    </section>
  );
}
