import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signApproval } from '../../shared/webauthn.ts';
import { dayIn } from '../../shared/zoned.ts';
import { Problems } from './App.tsx';
import { type CheckIn, portalApi } from './api.ts';
import { longDate, timeOf } from './format.ts';

/**
 * The records someone else made for the worker that the worker has not answered yet (docs/registry.md, "Records
 * the worker did not make"): who made each and when, with accept, or reject with a reason. Shown at the top of
 * "Mi registro"; nothing when there are none.
 */
export function OthersRecords({ zone, onAnswered }: { zone: string; onAnswered: () => void }) {
  const { t } = useTranslation();
  const [records, setRecords] = useState<CheckIn[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);

  const load = useCallback(() => {
    portalApi<{ data: CheckIn[] }>('GET', '/check-ins/unanswered')
      .then((answer) => setRecords(answer.data))
      .catch(setError);
  }, []);
  useEffect(load, [load]);

  const answer = async (record: CheckIn, path: 'accept' | 'reject', body: object) => {
    try {
      setError(null);
      // The answer is the worker's word on the record: signed with their passkey when they have one.
      const signature = await signApproval(portalApi, `/check-ins/${record.id}/approval`, {
        response: path === 'accept' ? 'accepted' : 'rejected',
        ...body,
      });
      await portalApi('POST', `/check-ins/${record.id}/${path}`, { ...body, ...signature });
      setSaved(true);
      load();
      onAnswered();
    } catch (failure) {
      setError(failure);
    }
  };

  if (records.length === 0 && !saved && !error) return null;
  return (
    <section className="card others" aria-labelledby="others-title">
      <h2 id="others-title">{t('others.title')}</h2>
      <p>{t('others.intro')}</p>
      <Problems error={error} />
      {saved && (
        <p className="done" role="status">
          {t('others.done')}
        </p>
      )}
      <ul className="others-list">
        {records.map((record) => (
          <OtherRecord key={record.id} record={record} zone={zone} onAnswer={answer} />
        ))}
      </ul>
    </section>
  );
}

function OtherRecord({
  record,
  zone,
  onAnswer,
}: {
  record: CheckIn;
  zone: string;
  onAnswer: (record: CheckIn, path: 'accept' | 'reject', body: object) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const who = t(`others.by.${record.recorded_by.type === 'employee' ? 'system' : record.recorded_by.type}`);
  const reasonId = `reason-${record.id}`;
  return (
    <li>
      <p className="what">
        <strong>{t(`type.${record.type}`)}</strong> · {longDate(dayIn(record.timestamp, zone))}{' '}
        <time dateTime={record.timestamp}>{timeOf(record.timestamp, zone)}</time>
      </p>
      <p className="muted">
        {t('others.recordedBy', {
          who,
          date: longDate(dayIn(record.recorded_at, zone)),
          time: timeOf(record.recorded_at, zone),
        })}
      </p>
      {rejecting ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void onAnswer(record, 'reject', { reason });
          }}
        >
          <label htmlFor={reasonId}>{t('others.reason')}</label>
          <textarea
            id={reasonId}
            required
            value={reason}
            onChange={(event) => setReason(event.target.value)}
          />
          <div className="actions">
            <button type="submit" className="primary">
              {t('others.confirmReject')}
            </button>
            <button type="button" className="secondary" onClick={() => setRejecting(false)}>
              {t('others.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <div className="actions">
          <button type="button" className="primary" onClick={() => void onAnswer(record, 'accept', {})}>
            {t('others.accept')}
          </button>
          <button type="button" className="secondary" onClick={() => setRejecting(true)}>
            {t('others.reject')}
          </button>
        </div>
      )}
    </li>
  );
}
