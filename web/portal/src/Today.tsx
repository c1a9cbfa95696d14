import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { todayIn } from '../../shared/zoned.ts';
import { Problems } from './App.tsx';
import { type CheckIn, type CheckInType, type Me, type Page, portalApi, type WorkMode } from './api.ts';
import { dateTimeOf, longDate, timeOf } from './format.ts';
import { askCorrection } from './navigation.ts';

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

export function TodayScreen({ me, onChange }: { me: Me; onChange: () => Promise<void> }) {
  const { t } = useTranslation();
  const zone = me.employee.timezone;
  const [mode, setMode] = useState<WorkMode>('on_site');
  const [records, setRecords] = useState<CheckIn[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState('');
  const today = todayIn(zone);

  const load = useCallback(async () => {
    const page = await portalApi<Page<CheckIn>>('GET', `/check-ins?from=${today}&to=${today}`);
    setRecords(page.data);
  }, [today]);
  useEffect(() => {
    load().catch(setError);
  }, [load]);

  const open = me.open_shift;
  const state = stateOf(me.last_check_in, open);
  // Working since the shift's `in`, not since the return from a break.
  const since = state === 'working' && open ? open.since : me.last_check_in?.timestamp;
  const clock = async (type: CheckInType) => {
    setBusy(true);
    setError(null);
    try {
      const recorded = await portalApi<CheckIn>('POST', '/check-ins', {
        type,
        ...(type === 'in' ? { work_mode: mode } : {}),
      });
      setDone(t('today.recorded', { what: t(`type.${type}`), time: timeOf(recorded.timestamp, zone) }));
      await Promise.all([onChange(), load()]);
    } catch (failure) {
      setError(failure);
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
        {done && <p className="done">{done}</p>}
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
