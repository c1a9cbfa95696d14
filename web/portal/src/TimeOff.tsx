import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addDays, monthDays } from '../../shared/zoned.ts';
import { Problems } from './App.tsx';
import { type Absence, portalApi, type TimeOff } from './api.ts';
import { longDate, monthName } from './format.ts';

type Preview = { days_count: number; remaining_days_after: number | null };
type Draft = { type: string; start_date: string; end_date: string; half_day: boolean; note: string };

const number = (value: number, language: string) => new Intl.NumberFormat(language).format(value);

/**
 * "Mis ausencias" (issue 39): the year's vacation balance, a request form that shows what the request counts and
 * what is left after it before it is sent, a month calendar of the worker's absences and holidays, and every
 * absence with its decision and reason; a request not yet decided can be withdrawn.
 */
export function TimeOffScreen() {
  const { t, i18n } = useTranslation();
  const [answer, setAnswer] = useState<TimeOff | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const load = useCallback(async () => {
    try {
      setAnswer(await portalApi<TimeOff>('GET', '/absences'));
    } catch (problem) {
      setError(problem);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const cancel = async (absence: Absence) => {
    setError(null);
    setDone('');
    try {
      await portalApi('POST', `/absences/${absence.id}/cancel`, {});
      setDone(t('absences.withdrawn'));
      await load();
    } catch (problem) {
      setError(problem);
    }
  };

  const balance = answer?.balance;
  return (
    <section aria-labelledby="absences-title">
      <h1 id="absences-title">{t('absences.title')}</h1>
      <Problems error={error} />
      {done && (
        <p className="done" role="status">
          {done}
        </p>
      )}
      {answer && balance && (
        <section className="card" aria-labelledby="balance-title">
          <h2 id="balance-title">{t('absences.balanceTitle', { year: answer.year })}</h2>
          <p className="balance-left">
            {t('absences.left', { days: number(balance.remaining_days, i18n.language) })}
          </p>
          <ul className="plain">
            <li>{t('absences.entitled', { days: number(balance.entitled_days, i18n.language) })}</li>
            {balance.carry_over_days > 0 && (
              <li>{t('absences.carryOver', { days: number(balance.carry_over_days, i18n.language) })}</li>
            )}
            <li>{t('absences.used', { days: number(balance.used_days, i18n.language) })}</li>
            <li>{t('absences.pending', { days: number(balance.pending_days, i18n.language) })}</li>
          </ul>
          <p className="muted">{t('absences.asOf', { date: longDate(answer.today) })}</p>
        </section>
      )}
      {answer && (
        <RequestForm
          answer={answer}
          onSent={async () => {
            setDone(t('absences.sent'));
            await load();
          }}
        />
      )}
      {answer && <MonthCalendar answer={answer} />}
      {answer && (
        <>
          <h2>{t('absences.listTitle')}</h2>
          {answer.absences.length === 0 && <p className="muted">{t('absences.none')}</p>}
          <ul className="records">
            {answer.absences.map((absence) => (
              <li key={absence.id}>
                <strong>{absence.type.label}</strong>{' '}
                <span className={`status status-${absence.status}`}>
                  {t(`absences.status.${absence.status}`)}
                </span>
                <div>
                  {absence.start_date === absence.end_date
                    ? longDate(absence.start_date)
                    : t('absences.range', {
                        from: longDate(absence.start_date),
                        to: longDate(absence.end_date),
                      })}
                  {' · '}
                  {absence.half_day
                    ? t('absences.halfDay')
                    : t('absences.days', {
                        count: absence.days_count,
                        days: number(absence.days_count, i18n.language),
                      })}
                </div>
                {absence.note && <div className="muted">“{absence.note}”</div>}
                {absence.status === 'denied' && (
                  <p className="reason">
                    {absence.denial_reason
                      ? t('absences.deniedBecause', { reason: absence.denial_reason })
                      : t('absences.deniedNoReason')}
                  </p>
                )}
                {absence.status === 'requested' && (
                  <button type="button" className="secondary" onClick={() => cancel(absence)}>
                    {t('absences.withdraw')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function RequestForm({ answer, onSent }: { answer: TimeOff; onSent: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const first = addDays(answer.today, 1);
  const [draft, setDraft] = useState<Draft>({
    type: answer.types.some((type) => type.key === 'vacation') ? 'vacation' : (answer.types[0]?.key ?? ''),
    start_date: first,
    end_date: first,
    half_day: false,
    note: '',
  });
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<unknown>(null);
  const [error, setError] = useState<unknown>(null);
  const oneDay = draft.start_date === draft.end_date;
  const body = {
    type: draft.type,
    start_date: draft.start_date,
    end_date: draft.end_date,
    ...(oneDay && draft.half_day ? { half_day: true } : {}),
    ...(draft.note ? { note: draft.note } : {}),
  };
  const key = JSON.stringify(body);

  // What the request would count, asked again whenever it changes (nothing is stored).
  useEffect(() => {
    const current = JSON.parse(key) as typeof body;
    if (!current.type || !current.start_date || !current.end_date || current.end_date < current.start_date) {
      setPreview(null);
      return;
    }
    let live = true;
    portalApi<Preview>('POST', '/absences/preview', current)
      .then((result) => {
        if (!live) return;
        setPreview(result);
        setPreviewError(null);
      })
      .catch((problem) => {
        if (!live) return;
        setPreview(null);
        setPreviewError(problem);
      });
    return () => {
      live = false;
    };
  }, [key]);

  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    try {
      await portalApi('POST', '/absences', body);
      set({ note: '', half_day: false });
      await onSent();
    } catch (problem) {
      setError(problem);
    }
  };

  return (
    <form className="card form" onSubmit={submit} aria-labelledby="ask-title">
      <h2 id="ask-title">{t('absences.ask')}</h2>
      <label>
        {t('absences.type')}
        <select value={draft.type} onChange={(event) => set({ type: event.target.value })} required>
          {answer.types.map((type) => (
            <option key={type.key} value={type.key}>
              {type.label}
            </option>
          ))}
        </select>
      </label>
      <div className="row">
        <label>
          {t('absences.from')}
          <input
            type="date"
            value={draft.start_date}
            onChange={(event) =>
              set({
                start_date: event.target.value,
                ...(draft.end_date < event.target.value ? { end_date: event.target.value } : {}),
              })
            }
            required
          />
        </label>
        <label>
          {t('absences.to')}
          <input
            type="date"
            value={draft.end_date}
            min={draft.start_date}
            onChange={(event) => set({ end_date: event.target.value })}
            required
          />
        </label>
      </div>
      {oneDay && (
        <label className="choice">
          <input
            type="checkbox"
            checked={draft.half_day}
            onChange={(event) => set({ half_day: event.target.checked })}
          />
          {t('absences.halfDayChoice')}
        </label>
      )}
      <label>
        {t('absences.note')}
        <textarea
          value={draft.note}
          maxLength={1000}
          rows={2}
          onChange={(event) => set({ note: event.target.value })}
        />
      </label>
      <div aria-live="polite">
        {preview && (
          <p
            className={
              preview.remaining_days_after !== null && preview.remaining_days_after < 0 ? 'warning' : ''
            }
          >
            {t('absences.counts', {
              count: preview.days_count,
              days: number(preview.days_count, i18n.language),
            })}
            {preview.remaining_days_after !== null &&
              ` ${t('absences.leftAfter', { days: number(preview.remaining_days_after, i18n.language) })}`}
          </p>
        )}
        <Problems error={previewError} />
      </div>
      <Problems error={error} />
      <button type="submit" className="primary" disabled={Boolean(previewError)}>
        {t('absences.send')}
      </button>
    </form>
  );
}

/** A month of the worker's calendar: their absences and holidays by day, weekends shaded; month by month. */
function MonthCalendar({ answer }: { answer: TimeOff }) {
  const { t, i18n } = useTranslation();
  const [month, setMonth] = useState(answer.today.slice(0, 7));
  const days = monthDays(month);
  const firstWeekday = (new Date(`${days[0]}T12:00:00Z`).getUTCDay() + 6) % 7;
  // Each cell a date, or a blank before the first or after the last (keyed by where it is).
  const cells: Array<{ key: string; date: string | null }> = [
    ...Array.from({ length: firstWeekday }, (_, place) => ({ key: `before-${place}`, date: null })),
    ...days.map((date) => ({ key: date, date })),
  ];
  while (cells.length % 7 !== 0) cells.push({ key: `after-${cells.length}`, date: null });
  const weeks = Array.from({ length: cells.length / 7 }, (_, index) => cells.slice(index * 7, index * 7 + 7));
  const weekdayNames = Array.from({ length: 7 }, (_, index) =>
    new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2027, 0, 4 + index, 12)),
    ),
  );
  const holidayOn = (date: string) => answer.holidays.find((holiday) => holiday.date === date);
  const absenceOn = (date: string) =>
    answer.absences.find(
      (absence) =>
        absence.start_date <= date &&
        absence.end_date >= date &&
        (absence.status === 'approved' || absence.status === 'requested'),
    );
  const shift = (months: number) => {
    const [year, number] = month.split('-').map(Number) as [number, number];
    const moved = new Date(Date.UTC(year, number - 1 + months, 15));
    setMonth(moved.toISOString().slice(0, 7));
  };
  // From January of the year to December of the next (the requests it lists).
  const shown = (value: string) =>
    value.startsWith(String(answer.year)) || value.startsWith(String(answer.year + 1));
  return (
    <section className="card" aria-labelledby="calendar-title">
      <div className="row">
        <button
          type="button"
          className="secondary"
          onClick={() => shift(-1)}
          disabled={!shown(addDays(`${month}-01`, -1))}
          aria-label={t('absences.previousMonth')}
        >
          ‹
        </button>
        <h2 id="calendar-title">{monthName(month)}</h2>
        <button
          type="button"
          className="secondary"
          onClick={() => shift(1)}
          disabled={!shown(addDays(days[days.length - 1] as string, 1))}
          aria-label={t('absences.nextMonth')}
        >
          ›
        </button>
      </div>
      <table className="month">
        <caption className="visually-hidden">
          {t('absences.calendarCaption', { month: monthName(month) })}
        </caption>
        <thead>
          <tr>
            {weekdayNames.map((name) => (
              <th scope="col" key={name}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]?.key}>
              {week.map(({ key, date }, index) => {
                if (!date) return <td key={key} />;
                const holiday = holidayOn(date);
                const absence = absenceOn(date);
                const label = holiday
                  ? holiday.name
                  : absence
                    ? `${absence.type.label} (${t(`absences.status.${absence.status}`)})`
                    : '';
                const kind = holiday ? 'holiday' : absence ? `absence ${absence.status}` : '';
                return (
                  <td
                    key={date}
                    className={`${index >= 5 ? 'weekend ' : ''}${kind}`}
                    title={label || undefined}
                  >
                    <span>{Number(date.slice(8))}</span>
                    {label && <span className="visually-hidden">{label}</span>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="legend">
        <span className="key holiday" /> {t('absences.legendHoliday')}{' '}
        <span className="key absence approved" /> {t('absences.legendApproved')}{' '}
        <span className="key absence requested" /> {t('absences.legendRequested')}
      </p>
    </section>
  );
}
