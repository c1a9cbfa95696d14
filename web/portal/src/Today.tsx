import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiProblem } from '../../shared/api.ts';
import type { QueuedPunch } from '../../shared/offline.ts';
import { todayIn } from '../../shared/zoned.ts';
import { Problems } from './App.tsx';
import { type CheckIn, type CheckInType, type Me, type Page, portalApi, type WorkMode } from './api.ts';
import { dateTimeOf, longDate, timeOf } from './format.ts';
import { currentPosition, markNoticeRead, noticeRead, type PunchPosition } from './location.ts';
import { askCorrection } from './navigation.ts';
import { keepPunch, pendingPunches, type SentQueue } from './offline.ts';

/**
 * Where the worker's day stands, from their latest check-in and open shift. A shift open 16 hours or more is a
 * probable missed clock-out (issue 38): the day starts afresh with "Clock in", and the old shift is settled by a
 * correction, never by a "Clock out" now.
 */
function stateOf(last: CheckIn | null, open: Me['open_shift']): 'out' | 'working' | 'onBreak' {
  if (open?.missed_clock_out) return 'out';
  if (!last || last.type === 'out') return 'out';
  return last.type === 'break_start' ? 'onBreak' : 'working';
}

const ACTIONS: Record<'out' | 'working' | 'onBreak', Array<{ type: CheckInType; label: string }>> = {
  out: [{ type: 'in', label: 'today.clockIn' }],
  working: [
    { type: 'break_start', label: 'today.breakStart' },
    { type: 'out', label: 'today.clockOut' },
  ],
  onBreak: [{ type: 'break_end', label: 'today.breakEnd' }],
};

export function TodayScreen({
  me,
  onChange,
  refused = [],
}: {
  me: Me;
  onChange: () => Promise<void>;
  refused?: SentQueue['refused'];
}) {
  const { t } = useTranslation();
  const zone = me.employee.timezone;
  const [mode, setMode] = useState<WorkMode>('on_site');
  const [records, setRecords] = useState<CheckIn[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // What was just done; `kept` for a punch kept offline, whose message goes once the queue is sent.
  const [done, setDone] = useState<{ text: string; kept: boolean } | null>(null);
  const today = todayIn(zone);

  const [pending, setPending] = useState<QueuedPunch[]>([]);

  const load = useCallback(async () => {
    const kept = await pendingPunches(me.employee.id).catch(() => []);
    setPending(kept);
    // "Kept offline" no longer holds once the queue was sent.
    if (kept.length === 0) setDone((last) => (last?.kept ? null : last));
    const page = await portalApi<Page<CheckIn>>('GET', `/check-ins?from=${today}&to=${today}`);
    setRecords(page.data);
    // Read again whenever the worker's state is (after a queue was sent, `me` is new).
  }, [today, me]);
  useEffect(() => {
    // Offline, the day shows what this device kept; the service's records come back with the connection.
    load().catch((failure) => {
      if (!(failure instanceof ApiProblem && failure.status === 0)) setError(failure);
    });
  }, [load]);

  const open = me.open_shift;
  // A punch kept offline is the latest thing the worker did.
  const lastKept = pending.at(-1);
  const state = lastKept
    ? stateOf({ type: lastKept.type, timestamp: lastKept.at } as CheckIn, null)
    : stateOf(me.last_check_in, open);
  // Working since the shift's `in`, not since the return from a break.
  const since = lastKept
    ? lastKept.at
    : state === 'working' && open
      ? open.since
      : me.last_check_in?.timestamp;
  // The notice before the first position: its answer (share or not), awaited by the punch.
  const [asking, setAsking] = useState<((share: boolean) => void) | null>(null);
  /** The position for this punch, where the work centre asks for it; none on a day of remote work. */
  const positionFor = async (type: CheckInType): Promise<PunchPosition | undefined> => {
    if (me.location_capture !== 'at_punch') return undefined;
    const remote = type === 'in' ? mode === 'remote' : me.last_check_in?.work_mode === 'remote';
    if (remote) return undefined;
    if (!noticeRead(me.employee.id)) {
      const share = await new Promise<boolean>((resolve) => setAsking(() => resolve));
      setAsking(null);
      if (!share) return 'declined';
      markNoticeRead(me.employee.id);
    }
    return await currentPosition();
  };

  const clock = async (type: CheckInType) => {
    setBusy(true);
    setError(null);
    const location = await positionFor(type);
    try {
      const recorded = await portalApi<CheckIn>('POST', '/check-ins', {
        type,
        ...(type === 'in' ? { work_mode: mode } : {}),
        ...(location === undefined ? {} : { location }),
      });
      setDone({
        text: t('today.recorded', { what: t(`type.${type}`), time: timeOf(recorded.timestamp, zone) }),
        kept: false,
      });
      await Promise.all([onChange(), load()]);
    } catch (failure) {
      if (failure instanceof ApiProblem && failure.status === 0) {
        // No connection: kept on this device, signed, and sent when the connection returns.
        const kept = await keepPunch(me.employee.id, type, type === 'in' ? mode : undefined, location);
        setDone({
          text: t('today.kept', { what: t(`type.${type}`), time: timeOf(kept.at, zone) }),
          kept: true,
        });
        setPending(await pendingPunches(me.employee.id));
      } else {
        setError(failure);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="today-title">
      <h1 id="today-title">{t('today.hello', { name: me.employee.first_name })}</h1>
      <p className="muted">{longDate(today)}</p>
      <div className="card status" aria-live="polite">
        <p className={`state state-${state}`}>
          {state === 'out' ? t('today.out') : t(`today.${state}`, { time: since ? timeOf(since, zone) : '' })}
        </p>
        {done && <p className="done">{done.text}</p>}
      </div>
      {open?.missed_clock_out && (
        <div className="card notice missed" role="note">
          <p>
            <strong>{t('today.missed', { day: longDate(open.date), time: timeOf(open.since, zone) })}</strong>
          </p>
          <p>{t('today.missedHint')}</p>
          <button type="button" className="secondary" onClick={() => askCorrection(open.date)}>
            {t('today.addOut')}
          </button>
        </div>
      )}
      {asking && (
        <section className="card notice" role="dialog" aria-modal="false" aria-labelledby="location-title">
          <h2 id="location-title">{t('location.title')}</h2>
          <p>
            {t('location.notice', {
              company: me.company.name,
              centre: me.work_centre ?? t('location.yourCentre'),
            })}
          </p>
          <div className="row">
            <button type="button" className="primary" onClick={() => asking(true)}>
              {t('location.share')}
            </button>
            <button type="button" className="secondary" onClick={() => asking(false)}>
              {t('location.decline')}
            </button>
          </div>
        </section>
      )}
      <Problems error={error} />
      {me.access_resets.length > 0 && (
        <p className="card notice" role="note">
          {t('today.reset', {
            dates: me.access_resets.map((reset) => dateTimeOf(reset.at, zone)).join('; '),
          })}
        </p>
      )}
      {me.employee.can_clock ? (
        <div className="actions">
          {state === 'out' && (
            <fieldset className="modes">
              <legend>{t('today.mode')}</legend>
              {(['on_site', 'remote'] as const).map((value) => (
                <label key={value} className="choice">
                  <input
                    type="radio"
                    name="mode"
                    value={value}
                    checked={mode === value}
                    onChange={() => setMode(value)}
                  />
                  {t(`mode.${value}`)}
                </label>
              ))}
            </fieldset>
          )}
          {ACTIONS[state].map((action) => (
            <button
              key={action.type}
              type="button"
              className={action.type === 'out' ? 'big secondary' : 'big primary'}
              disabled={busy}
              onClick={() => clock(action.type)}
            >
              {t(action.label)}
            </button>
          ))}
        </div>
      ) : (
        <p className="card notice">{t('today.ended', { date: me.employee.termination_date })}</p>
      )}
      {refused.length > 0 && (
        <section className="card notice missed" aria-labelledby="refused-title">
          <h2 id="refused-title">{t('today.refusedTitle')}</h2>
          <ul>
            {refused.map((punch) => (
              <li key={`${punch.at}-${punch.type}-${punch.detail}`}>
                {t(`type.${punch.type}`)} · {timeOf(punch.at, zone)}:{' '}
                {t(`today.refusal.${punch.code}`, { defaultValue: punch.detail })}
              </li>
            ))}
          </ul>
          <p>{t('today.refusedHint')}</p>
        </section>
      )}
      {pending.length > 0 && (
        <section className="card notice" aria-labelledby="pending-title">
          <h2 id="pending-title">{t('today.pendingTitle')}</h2>
          <ul className="records">
            {pending.map((punch) => (
              <li key={`${punch.at}-${punch.type}`}>
                <time dateTime={punch.at}>{timeOf(punch.at, zone)}</time>
                <span>{t(`type.${punch.type}`)}</span>
                <span className="tag">{t('today.pending')}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      <h2>{t('today.records')}</h2>
      {records.length === 0 ? (
        <p className="muted">{t('today.none')}</p>
      ) : (
        <ul className="records">
          {records.map((record) => (
            <RecordLine key={record.id} record={record} zone={zone} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** One check-in: its time and type, with the registry's marks (voided, late, added by a correction). */
export function RecordLine({ record, zone }: { record: CheckIn; zone: string }) {
  const { t } = useTranslation();
  const voided = record.status === 'voided';
  return (
    <li className={voided ? 'voided' : undefined}>
      <time dateTime={record.timestamp}>{timeOf(record.timestamp, zone)}</time>
      <span>{t(`type.${record.type}`)}</span>
      {record.work_mode && <span className="muted">{t(`mode.${record.work_mode}`)}</span>}
      {voided && <span className="tag">{t('record.voided')}</span>}
      {record.late && <span className="tag">{t('record.late')}</span>}
      {record.recorded_offline && <span className="tag">{t('record.offline')}</span>}
      {record.location === 'declined' && <span className="tag">{t('location.declined')}</span>}
      {record.location && record.location !== 'declined' && (
        <span className="tag">
          {t(record.location.outside_geofence ? 'location.outside' : 'location.captured', {
            position: `${record.location.latitude.toFixed(3)}, ${record.location.longitude.toFixed(3)}`,
            accuracy: record.location.accuracy_m,
          })}
        </span>
      )}
      {record.correction_id && <span className="tag">{t('record.corrected')}</span>}
      {!record.worker_confirmed && !record.worker_response && (
        <span className="tag">{t('record.byOther')}</span>
      )}
      {record.worker_response?.status === 'accepted' && <span className="tag">{t('record.accepted')}</span>}
      {record.worker_response?.status === 'rejected' && (
        <span className="tag warn">{t('record.rejected')}</span>
      )}
    </li>
  );
}
