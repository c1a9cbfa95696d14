import { StrictMode, useCallback, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import '../../shared/base.css';
import './kiosk.css';
import { registerServiceWorker } from '../../shared/offline.ts';
import { currentPosition, type PunchPosition } from '../../shared/position.ts';
import {
  call,
  enroll,
  flushQueue,
  KioskError,
  loadDevice,
  queued,
  queuePunch,
  workerOfCode,
} from './device.ts';
import { Scanner } from './Scanner.tsx';

/**
 * The kiosk (/kiosk, issue 40): a tablet at a work centre's door. Enrolled once with the dashboard's code; then
 * the workers there tap their name, type their PIN and choose what to record, in large targets, Spanish by
 * default. Without a connection a punch is kept on the tablet (the PIN sealed to the service) and sent when the
 * connection returns. Every screen goes back to the list after a few seconds untouched.
 */
type Lang = 'es' | 'en';
type Worker = { id: string; first_name: string; last_name: string };
type Info = {
  name: string;
  location: { name: string };
  company: { name: string };
  location_capture: 'off' | 'at_punch';
};
type Action = 'in' | 'out' | 'break_start' | 'break_end';
type Identified = {
  worker: Worker;
  status: 'out' | 'working' | 'on_break';
  since: string | null;
  actions: Action[];
  ticket: string;
};
type Screen =
  | { name: 'loading' }
  | { name: 'enroll'; error: string }
  | { name: 'idle' }
  | { name: 'pin'; worker: Worker; pin: string; error: string }
  | { name: 'scan'; error: string }
  | {
      name: 'actions';
      worker: Worker;
      /** How the worker identified: what a punch kept offline carries. */
      proof: { pin: string } | { qr: string };
      identified: Identified | null;
    }
  | { name: 'done'; text: string; detail: string };

const TEXT = {
  es: {
    title: 'Fichaje',
    enrollTitle: 'Activar este dispositivo',
    enrollHelp: 'Escribe el código que muestra el panel de la empresa (Dispositivos de fichaje).',
    code: 'Código de activación',
    activate: 'Activar',
    badCode: 'El código no es válido, ya se usó o ha caducado.',
    who: 'Toca tu nombre',
    none: 'No hay personas asignadas a este centro.',
    pinFor: 'PIN de',
    ok: 'Aceptar',
    erase: 'Borrar',
    cancel: 'Cancelar',
    wrongPin: 'PIN incorrecto.',
    throttled: 'Demasiados intentos: espera unos minutos.',
    out: 'Fuera',
    working: 'Trabajando desde',
    onBreak: 'En pausa desde',
    offlineState: 'Sin conexión: elige qué registrar.',
    in: 'Entrada',
    outAction: 'Salida',
    break_start: 'Empezar pausa',
    break_end: 'Terminar pausa',
    recorded: 'registrada',
    kept: 'Guardado sin conexión: se enviará al volver la conexión.',
    pending: (n: number) => `${n} ${n === 1 ? 'fichaje pendiente' : 'fichajes pendientes'} de enviar`,
    offline: 'Sin conexión',
    refused: (n: number) => `${n} ${n === 1 ? 'fichaje rechazado' : 'fichajes rechazados'} al enviarse`,
    digit: 'Cifra',
    pinEntered: (n: number) => `${n} de 6 cifras`,
    language: 'English',
    scan: 'Escanear mi código QR',
    scanTitle: 'Muestra tu código QR a la cámara',
    camera: 'Cámara del kiosko',
    badQr: 'El código no es válido, ya se usó o ha caducado.',
    locationNotice: (company: string, centre: string) =>
      `${company} registra dónde está este kiosko al fichar, solo en ese momento, en ${centre}: la posición aproximada (unos 100 m) y si está dentro del área del centro, para comprobar el lugar de trabajo del registro de jornada (art. 20.3 ET, art. 90 LOPDGDD). Se conserva cuatro años. Puedes no compartirla y fichar igualmente. Derechos de acceso, rectificación, supresión, limitación y oposición ante ${company}; reclamación ante la AEPD.`,
    noLocation: 'Fichar sin ubicación',
  },
  en: {
    title: 'Clock in',
    enrollTitle: 'Activate this device',
    enrollHelp: 'Type the code the company’s dashboard shows (Clock-in devices).',
    code: 'Activation code',
    activate: 'Activate',
    badCode: 'The code is not valid, was used or has expired.',
    who: 'Tap your name',
    none: 'Nobody is assigned to this work centre.',
    pinFor: 'PIN for',
    ok: 'OK',
    erase: 'Erase',
    cancel: 'Cancel',
    wrongPin: 'Wrong PIN.',
    throttled: 'Too many attempts: wait a few minutes.',
    out: 'Out',
    working: 'Working since',
    onBreak: 'On a break since',
    offlineState: 'No connection: choose what to record.',
    in: 'Clock in',
    outAction: 'Clock out',
    break_start: 'Start break',
    break_end: 'End break',
    recorded: 'recorded',
    kept: 'Kept offline: it will be sent when the connection returns.',
    pending: (n: number) => `${n} ${n === 1 ? 'punch' : 'punches'} waiting to be sent`,
    offline: 'Offline',
    refused: (n: number) => `${n} ${n === 1 ? 'punch' : 'punches'} refused when sent`,
    digit: 'Digit',
    pinEntered: (n: number) => `${n} of 6 digits`,
    language: 'Español',
    scan: 'Scan my QR code',
    scanTitle: 'Show your QR code to the camera',
    camera: 'The kiosk’s camera',
    badQr: 'The code is not valid, was used or has expired.',
    locationNotice: (company: string, centre: string) =>
      `${company} records where this kiosk is when you punch, only at that moment, at ${centre}: the approximate position (about 100 m) and whether it is within the centre’s area, to check the place of work in the time registry (art. 20.3 ET, art. 90 LOPDGDD). It is kept four years. You may decline and still punch. Rights of access, rectification, erasure, restriction and objection before ${company}; complaint to the AEPD.`,
    noLocation: 'Punch without location',
  },
} as const;

const IDLE_SECONDS = 20;
const DONE_SECONDS = 5;
const time = (iso: string, lang: Lang) =>
  new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

function App() {
  const [lang, setLang] = useState<Lang>('es');
  const t = TEXT[lang];
  const [screen, setScreen] = useState<Screen>({ name: 'loading' });
  const [info, setInfo] = useState<Info | null>(null);
  const [workers, setWorkers] = useState<Worker[]>([]);
  const [pending, setPending] = useState(0);
  const [refused, setRefused] = useState(0);
  const [online, setOnline] = useState(navigator.onLine);
  const [now, setNow] = useState(new Date());
  // The worker's choice on the actions screen: punch without the kiosk's position (where the centre asks for it).
  const [declineLocation, setDeclineLocation] = useState(false);
  const idle = useRef<number | undefined>(undefined);

  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

  const home = useCallback(() => {
    setScreen({ name: 'idle' });
    setDeclineLocation(false);
  }, []);
  const touch = useCallback(
    (seconds = IDLE_SECONDS) => {
      window.clearTimeout(idle.current);
      idle.current = window.setTimeout(home, seconds * 1000);
    },
    [home],
  );

  const sync = useCallback(async () => {
    try {
      const sent = await flushQueue();
      if (sent)
        setRefused((count) => count + sent.answer.results.filter((r) => r.status === 'refused').length);
      setOnline(true);
    } catch (error) {
      if (error instanceof KioskError && error.code === 'offline') setOnline(false);
    }
    setPending((await queued()).length);
  }, []);

  const load = useCallback(async () => {
    if (!(await loadDevice())) return setScreen({ name: 'enroll', error: '' });
    try {
      setInfo(await call<Info>('GET', '/kiosk/api/device'));
      setWorkers((await call<{ data: Worker[] }>('GET', '/kiosk/api/workers')).data);
      setOnline(true);
    } catch (error) {
      if (!(error instanceof KioskError) || error.code !== 'offline') {
        return setScreen({ name: 'enroll', error: '' });
      }
      setOnline(false);
    }
    setScreen({ name: 'idle' });
    await sync();
  }, [sync]);

  useEffect(() => {
    void load();
    const tick = window.setInterval(() => setNow(new Date()), 15_000);
    const retry = window.setInterval(() => void sync(), 30_000);
    const back = () => void sync();
    const gone = () => setOnline(false);
    window.addEventListener('online', back);
    window.addEventListener('offline', gone);
    return () => {
      window.clearInterval(tick);
      window.clearInterval(retry);
      window.removeEventListener('online', back);
      window.removeEventListener('offline', gone);
    };
  }, [load, sync]);

  // The workers' list is kept from the last time it was read, so it works offline.
  useEffect(() => {
    if (workers.length > 0) localStorage.setItem('jornada-kiosk-workers', JSON.stringify(workers));
    else {
      const kept = localStorage.getItem('jornada-kiosk-workers');
      if (kept) setWorkers(JSON.parse(kept));
    }
  }, [workers]);

  // The scanner's callback, stable so that the camera is not reopened at every render.
  const latestIdentifyQr = useRef<(code: string) => void>(() => undefined);
  const onCode = useCallback((code: string) => latestIdentifyQr.current(code), []);

  const finish = (text: string, detail: string) => {
    setScreen({ name: 'done', text, detail });
    touch(DONE_SECONDS);
  };

  const identify = async (worker: Worker, pin: string) => {
    touch();
    try {
      const identified = await call<Identified>('POST', '/kiosk/api/identify', {
        employee_id: worker.id,
        pin,
      });
      setOnline(true);
      setScreen({ name: 'actions', worker, proof: { pin }, identified });
    } catch (error) {
      if (error instanceof KioskError && error.code === 'offline') {
        setOnline(false);
        return setScreen({ name: 'actions', worker, proof: { pin }, identified: null });
      }
      const message = error instanceof KioskError && error.status === 429 ? t.throttled : t.wrongPin;
      setScreen({ name: 'pin', worker, pin: '', error: message });
    }
  };

  const identifyQr = async (qr: string) => {
    touch();
    try {
      const identified = await call<Identified>('POST', '/kiosk/api/identify', { qr });
      setOnline(true);
      setScreen({ name: 'actions', worker: identified.worker, proof: { qr }, identified });
    } catch (error) {
      if (error instanceof KioskError && error.code === 'offline') {
        // Offline, the code is kept with the punch and checked on receipt; its worker is named from the list.
        setOnline(false);
        const id = workerOfCode(qr);
        const worker = workers.find((candidate) => candidate.id === id);
        if (worker) return setScreen({ name: 'actions', worker, proof: { qr }, identified: null });
      }
      setScreen({ name: 'scan', error: t.badQr });
    }
  };

  latestIdentifyQr.current = (code: string) => void identifyQr(code);

  const record = async (
    worker: Worker,
    proof: { pin: string } | { qr: string },
    identified: Identified | null,
    type: Action,
  ) => {
    const label = type === 'out' ? t.outAction : t[type];
    // The kiosk's position, asked now and only where the centre asks for it, after the notice on this screen.
    const location: PunchPosition | undefined =
      info?.location_capture !== 'at_punch'
        ? undefined
        : declineLocation
          ? 'declined'
          : await currentPosition();
    if (identified) {
      try {
        const punched = await call<{ timestamp: string }>('POST', '/kiosk/api/check-ins', {
          ticket: identified.ticket,
          type,
          ...(location === undefined ? {} : { location }),
        });
        return finish(
          `${label} ${t.recorded} · ${time(punched.timestamp, lang)}`,
          `${worker.first_name} ${worker.last_name}`,
        );
      } catch (error) {
        if (!(error instanceof KioskError) || error.code !== 'offline') {
          return finish(error instanceof Error ? error.message : String(error), '');
        }
      }
    }
    const kept = await queuePunch(
      { id: worker.id, name: `${worker.first_name} ${worker.last_name}` },
      proof,
      type,
      location,
    );
    setPending((await queued()).length);
    setOnline(false);
    finish(`${label} · ${time(kept.at, lang)}`, t.kept);
  };

  const header = (
    <header className="kiosk-bar">
      <div>
        <strong>{info ? info.company.name : 'Jornada'}</strong>
        {info ? <span> · {info.location.name}</span> : null}
      </div>
      <div className="kiosk-bar-right">
        {!online ? <span className="kiosk-offline">{t.offline}</span> : null}
        <span className="kiosk-clock">{time(now.toISOString(), lang)}</span>
        <button
          type="button"
          className="kiosk-lang"
          lang={lang === 'es' ? 'en' : 'es'}
          onClick={() => setLang(lang === 'es' ? 'en' : 'es')}
        >
          {t.language}
        </button>
      </div>
    </header>
  );

  const cancel = (
    <button type="button" className="kiosk-cancel" onClick={home}>
      {t.cancel}
    </button>
  );

  if (screen.name === 'loading') return null;

  if (screen.name === 'enroll') {
    return (
      <>
        {header}
        <main className="kiosk-main">
          <h1>{t.enrollTitle}</h1>
          <p>{t.enrollHelp}</p>
          <form
            className="kiosk-enroll"
            onSubmit={async (event) => {
              event.preventDefault();
              const code = String(new FormData(event.currentTarget).get('code') ?? '');
              try {
                await enroll(code);
                await load();
              } catch {
                setScreen({ name: 'enroll', error: t.badCode });
              }
            }}
          >
            <label htmlFor="code">{t.code}</label>
            <input
              id="code"
              name="code"
              autoComplete="off"
              autoCapitalize="characters"
              placeholder="XXXX-XXXX"
              required
            />
            <button type="submit" className="kiosk-primary">
              {t.activate}
            </button>
            <Alert text={screen.error} />
          </form>
        </main>
      </>
    );
  }

  return (
    <>
      {header}
      <main className="kiosk-main" onPointerDown={() => screen.name !== 'idle' && touch()}>
        {screen.name === 'idle' ? (
          <>
            <h1>{t.who}</h1>
            {pending > 0 ? (
              <p className="kiosk-pending" role="status">
                {t.pending(pending)}
              </p>
            ) : null}
            {refused > 0 ? (
              <p className="kiosk-error" role="status">
                {t.refused(refused)}
              </p>
            ) : null}
            {workers.length === 0 ? <p>{t.none}</p> : null}
            <button
              type="button"
              className="kiosk-primary kiosk-scan"
              onClick={() => {
                touch();
                setScreen({ name: 'scan', error: '' });
              }}
            >
              {t.scan}
            </button>
            <ul className="kiosk-workers">
              {workers.map((worker) => (
                <li key={worker.id}>
                  <button
                    type="button"
                    onClick={() => {
                      touch();
                      setScreen({ name: 'pin', worker, pin: '', error: '' });
                    }}
                  >
                    {worker.first_name} {worker.last_name}
                  </button>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {screen.name === 'pin' ? (
          <section className="kiosk-pin" aria-labelledby="pin-title">
            <h1 id="pin-title">
              {t.pinFor} {screen.worker.first_name} {screen.worker.last_name}
            </h1>
            <output className="kiosk-dots" aria-label={t.pinEntered(screen.pin.length)}>
              {'●'.repeat(screen.pin.length)}
              {'○'.repeat(6 - screen.pin.length)}
            </output>
            <Alert text={screen.error} />
            <div className="kiosk-keypad">
              {['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((digit) => (
                <button
                  key={digit}
                  type="button"
                  aria-label={`${t.digit} ${digit}`}
                  onClick={() => {
                    if (screen.pin.length >= 6) return;
                    const pin = screen.pin + digit;
                    setScreen({ ...screen, pin, error: '' });
                  }}
                >
                  {digit}
                </button>
              ))}
              <button type="button" onClick={() => setScreen({ ...screen, pin: screen.pin.slice(0, -1) })}>
                {t.erase}
              </button>
              <button
                type="button"
                aria-label={`${t.digit} 0`}
                onClick={() =>
                  screen.pin.length < 6 && setScreen({ ...screen, pin: `${screen.pin}0`, error: '' })
                }
              >
                0
              </button>
              <button
                type="button"
                className="kiosk-primary"
                disabled={screen.pin.length !== 6}
                onClick={() => void identify(screen.worker, screen.pin)}
              >
                {t.ok}
              </button>
            </div>
            {cancel}
          </section>
        ) : null}
        {screen.name === 'scan' ? (
          <section className="kiosk-pin" aria-labelledby="scan-title">
            <h1 id="scan-title">{t.scanTitle}</h1>
            <Alert text={screen.error} />
            <Scanner label={t.camera} onCode={onCode} />
            {cancel}
          </section>
        ) : null}
        {screen.name === 'actions' ? (
          <section aria-labelledby="actions-title">
            <h1 id="actions-title">
              {screen.worker.first_name} {screen.worker.last_name}
            </h1>
            <p className="kiosk-state">
              {screen.identified === null
                ? t.offlineState
                : screen.identified.status === 'out'
                  ? t.out
                  : `${screen.identified.status === 'working' ? t.working : t.onBreak} ${screen.identified.since ? time(screen.identified.since, lang) : ''}`}
            </p>
            {info?.location_capture === 'at_punch' ? (
              <div className="kiosk-location">
                <p>{t.locationNotice(info.company.name, info.location.name)}</p>
                <label>
                  <input
                    type="checkbox"
                    checked={declineLocation}
                    onChange={(event) => setDeclineLocation(event.target.checked)}
                  />{' '}
                  {t.noLocation}
                </label>
              </div>
            ) : null}
            <div className="kiosk-actions">
              {(screen.identified?.actions ?? (['in', 'break_start', 'break_end', 'out'] as Action[])).map(
                (type) => (
                  <button
                    key={type}
                    type="button"
                    className={`kiosk-action kiosk-${type}`}
                    onClick={() => void record(screen.worker, screen.proof, screen.identified, type)}
                  >
                    {type === 'out' ? t.outAction : t[type]}
                  </button>
                ),
              )}
            </div>
            {cancel}
          </section>
        ) : null}
        {screen.name === 'done' ? (
          <section className="kiosk-done" role="status">
            <h1>{screen.text}</h1>
            <p>{screen.detail}</p>
          </section>
        ) : null}
      </main>
    </>
  );
}

registerServiceWorker('kiosk');

/** A refusal the worker must read (a wrong PIN, a used code), announced at once; nothing when there is none. */
function Alert({ text }: { text: string }) {
  return text ? (
    <p role="alert" className="kiosk-error">
      {text}
    </p>
  ) : null;
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
