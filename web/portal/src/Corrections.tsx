import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signApproval } from '../../shared/webauthn.ts';
import { dayIn, instantAt, todayIn } from '../../shared/zoned.ts';
import { Problems } from './App.tsx';
import { type CheckIn, type CheckInType, type Correction, type Me, portalApi, type WorkMode } from './api.ts';
import { longDate, timeOf } from './format.ts';
import { CORRECTION_DAY_KEY } from './navigation.ts';
import { allPages } from './Record.tsx';

const TYPES: CheckInType[] = ['in', 'break_start', 'break_end', 'out'];

export function CorrectionsScreen({ me }: { me: Me }) {
  const { t } = useTranslation();
  const zone = me.employee.timezone;
  const [corrections, setCorrections] = useState<Correction[]>([]);
  const [known, setKnown] = useState(new Map<string, CheckIn>());
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(async () => {
    const today = todayIn(zone);
    const since = dayIn(new Date(Date.now() - 90 * 86_400_000).toISOString(), zone);
    const [rows, records] = await Promise.all([
      allPages<Correction>('/corrections?limit=100'),
      allPages<CheckIn>(`/check-ins?from=${since}&to=${today}&limit=100`),
    ]);
    setCorrections([...rows].reverse());
    setKnown(new Map(records.map((record) => [record.id, record])));
  }, [zone]);
  useEffect(() => {
    load().catch(setError);
  }, [load]);

  const describeVoid = (id: string) => {
    const record = known.get(id);
    return record
      ? `${t(`type.${record.type}`)} ${longDate(dayIn(record.timestamp, zone))} ${timeOf(record.timestamp, zone)}`
      : id;
  };

  return (
    <section aria-labelledby="corrections-title">
      <h1 id="corrections-title">{t('corrections.title')}</h1>
      <p className="muted">{t('corrections.intro')}</p>
      <Problems error={error} />
      {corrections.length === 0 && <p className="muted">{t('corrections.none')}</p>}
      {corrections.map((correction) => (
        <CorrectionCard
          key={correction.id}
          correction={correction}
          zone={zone}
          describeVoid={describeVoid}
          onDecided={load}
        />
      ))}
      <RequestForm me={me} onSent={load} />
    </section>
  );
}

function CorrectionCard({
  correction,
  zone,
  describeVoid,
  onDecided,
}: {
  correction: Correction;
  zone: string;
  describeVoid: (id: string) => string;
  onDecided: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [rejecting, setRejecting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const byWorker = correction.requested_by.type === 'employee';
  const waitsForWorker = correction.status === 'pending' && correction.employee_approval === null;
  const decide = async (path: string, body: unknown) => {
    setError(null);
    try {
      // Accepting is the worker's approval: signed with their passkey when they have one.
      const signature =
        path === 'accept' ? await signApproval(portalApi, `/corrections/${correction.id}/approval`) : {};
      await portalApi('POST', `/corrections/${correction.id}/${path}`, { ...(body as object), ...signature });
      setRejecting(false);
      await onDecided();
    } catch (failure) {
      setError(failure);
    }
  };
  const reject = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void decide('reject', { reason: String(new FormData(event.currentTarget).get('reason')) });
  };
  return (
    <article className="card correction" aria-label={correction.reason}>
      <p>
        <span className={`tag status-${correction.status}`}>
          {t(`corrections.status.${correction.status}`)}
        </span>{' '}
        <span className="muted">{byWorker ? t('corrections.byYou') : t('corrections.byCompany')}</span>
      </p>
      <p className="reason">“{correction.reason}”</p>
      <ul className="changes">
        {correction.void.map((id) => (
          <li key={id}>{t('corrections.voids', { what: describeVoid(id) })}</li>
        ))}
        {correction.add.map((item) => (
          <li key={`${item.type}${item.timestamp}`}>
            {t('corrections.adds', {
              what: `${t(`type.${item.type}`)} ${longDate(dayIn(item.timestamp, zone))} ${timeOf(item.timestamp, zone)}`,
            })}
          </li>
        ))}
      </ul>
      {correction.rejection && (
        <p className="muted">{t('corrections.rejected', { reason: correction.rejection.reason })}</p>
      )}
      {correction.status === 'pending' && !waitsForWorker && (
        <p className="muted">{t('corrections.waitingCompany')}</p>
      )}
      <Problems error={error} />
      {waitsForWorker && !rejecting && (
        <div className="row">
          <p className="muted">{t('corrections.waitingYou')}</p>
          <button type="button" className="primary" onClick={() => decide('accept', {})}>
            {t('corrections.accept')}
          </button>
          <button type="button" className="secondary" onClick={() => setRejecting(true)}>
            {t('corrections.reject')}
          </button>
        </div>
      )}
      {waitsForWorker && rejecting && (
        <form className="form" onSubmit={reject}>
          <label>
            {t('corrections.rejectReason')}
            <textarea name="reason" required maxLength={500} rows={2} />
          </label>
          <div className="row">
            <button type="submit" className="primary">
              {t('corrections.confirmReject')}
            </button>
            <button type="button" className="secondary" onClick={() => setRejecting(false)}>
              {t('corrections.cancel')}
            </button>
          </div>
        </form>
      )}
    </article>
  );
}

function RequestForm({ me, onSent }: { me: Me; onSent: () => Promise<void> }) {
  const { t } = useTranslation();
  const zone = me.employee.timezone;
  const [day, setDay] = useState(() => sessionStorage.getItem(CORRECTION_DAY_KEY) ?? todayIn(zone));
  const [records, setRecords] = useState<CheckIn[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState('');

  useEffect(() => {
    sessionStorage.removeItem(CORRECTION_DAY_KEY);
    allPages<CheckIn>(`/check-ins?from=${day}&to=${day}&limit=100`)
      .then((rows) => setRecords(rows.filter((row) => row.status === 'active')))
      .catch(setError);
  }, [day]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const time = String(form.get('time') ?? '');
    const mode = String(form.get('add_mode') ?? '');
    const body = {
      reason: String(form.get('reason')),
      void: form.getAll('void').map(String),
      add: time
        ? [
            {
              type: String(form.get('type')) as CheckInType,
              timestamp: instantAt(day, time, zone),
              ...(mode ? { work_mode: mode as WorkMode } : {}),
            },
          ]
        : [],
    };
    setError(null);
    setSent('');
    try {
      // The request carries the worker's approval: signed with their passkey when they have one.
      const signature = await signApproval(portalApi, '/corrections/approval', body);
      await portalApi('POST', '/corrections', { ...body, ...signature });
      setSent(t('corrections.sent'));
      event.currentTarget?.reset();
      await onSent();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <form className="card form" onSubmit={submit} aria-labelledby="request-title">
      <h2 id="request-title">{t('corrections.request')}</h2>
      <label>
        {t('corrections.day')}
        <input
          type="date"
          value={day}
          max={todayIn(zone)}
          onChange={(e) => setDay(e.target.value)}
          required
        />
      </label>
      {records.length > 0 && (
        <fieldset>
          <legend>{t('corrections.toVoid')}</legend>
          <ul className="records">
            {records.map((record) => (
              <li key={record.id}>
                <label className="choice">
                  <input type="checkbox" name="void" value={record.id} />
                  <time dateTime={record.timestamp}>{timeOf(record.timestamp, zone)}</time>{' '}
                  {t(`type.${record.type}`)}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      )}
      <fieldset>
        <legend>{t('corrections.toAdd')}</legend>
        <div className="row">
          <label>
            {t('corrections.addType')}
            <select name="type" defaultValue="out">
              {TYPES.map((type) => (
                <option key={type} value={type}>
                  {t(`type.${type}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('corrections.addTime')}
            <input type="time" name="time" />
          </label>
          <label>
            {t('today.mode')}
            <select name="add_mode" defaultValue="">
              <option value="">—</option>
              <option value="on_site">{t('mode.on_site')}</option>
              <option value="remote">{t('mode.remote')}</option>
            </select>
          </label>
        </div>
      </fieldset>
      <label>
        {t('corrections.reason')}
        <textarea name="reason" required maxLength={500} rows={2} />
      </label>
      <Problems error={error} />
      {sent && (
        <p className="done" role="status">
          {sent}
        </p>
      )}
      <button type="submit" className="primary">
        {t('corrections.send')}
      </button>
    </form>
  );
}
