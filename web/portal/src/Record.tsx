import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signApproval } from '../../shared/webauthn.ts';
import { dayIn, lastDayOf, todayIn } from '../../shared/zoned.ts';
import { Problems } from './App.tsx';
import { type CheckIn, type Day, type Me, type Page, portalApi } from './api.ts';
import { hoursOf, longDate, monthName } from './format.ts';
import { askCorrection } from './navigation.ts';
import { OthersRecords } from './Others.tsx';
import { RecordLine } from './Today.tsx';

/** Every page of a listing of the portal API. */
export async function allPages<T>(path: string): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: Page<T> = await portalApi<Page<T>>(
      'GET',
      `${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    rows.push(...page.data);
    cursor = page.meta.next_cursor;
  } while (cursor);
  return rows;
}

/** A closed month as the portal reads it: its current version and the acknowledgement of it, if given. */
type ClosedMonth = {
  acknowledged_at: string | null;
  version: number;
  acknowledged_version: number | null;
  seal?: string | null;
};

export function RecordScreen({ me }: { me: Me }) {
  const { t, i18n } = useTranslation();
  const zone = me.employee.timezone;
  const today = todayIn(zone);
  const [month, setMonth] = useState(today.slice(0, 7));
  const [days, setDays] = useState<Day[]>([]);
  const [records, setRecords] = useState<CheckIn[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [closed, setClosed] = useState<ClosedMonth | null>(null);

  useEffect(() => {
    setClosed(null);
    // A closed month has the worker's copy (404 while the company has not closed it).
    portalApi<ClosedMonth>('GET', `/registry/${month}`)
      .then(setClosed)
      .catch(() => setClosed(null));
  }, [month]);

  const acknowledge = async () => {
    try {
      // The acknowledgement is signed with the worker's passkey when they have one.
      const signature = await signApproval(portalApi, `/registry/${month}/approval`);
      const answer = await portalApi<{ acknowledged_at: string; version: number }>(
        'POST',
        `/registry/${month}/acknowledge`,
        signature,
      );
      setClosed({
        acknowledged_at: answer.acknowledged_at,
        version: answer.version,
        acknowledged_version: answer.version,
      });
    } catch (failure) {
      setError(failure);
    }
  };

  // The month's days and records; again after the worker answers a record someone else made.
  const loadMonth = useCallback(() => {
    const from = `${month}-01`;
    const last = lastDayOf(month);
    const to = last < today ? last : today;
    if (to < from) {
      setDays([]);
      setRecords([]);
      return;
    }
    setError(null);
    Promise.all([
      allPages<Day>(`/days?from=${from}&to=${to}&limit=100`),
      allPages<CheckIn>(`/check-ins?from=${from}&to=${to}&limit=100`),
    ])
      .then(([dayRows, checkIns]) => {
        setDays(dayRows);
        setRecords(checkIns);
      })
      .catch(setError);
  }, [month, today]);
  useEffect(loadMonth, [loadMonth]);

  const byDay = new Map<string, CheckIn[]>();
  for (const record of records) {
    const date = dayIn(record.timestamp, zone);
    byDay.set(date, [...(byDay.get(date) ?? []), record]);
  }
  const dates = [...new Set([...days.map((day) => day.period_start), ...byDay.keys()])].sort().reverse();
  const figures = new Map(days.map((day) => [day.period_start, day]));
  const total = days.reduce(
    (sum, day) => ({
      worked: sum.worked + day.worked_minutes,
      expected: sum.expected + day.expected_minutes,
    }),
    { worked: 0, expected: 0 },
  );
  const banked = days.at(-1)?.banked_hours_balance_minutes;

  return (
    <section aria-labelledby="record-title">
      <h1 id="record-title">{t('nav.record')}</h1>
      <label className="inline">
        {t('record.month')}
        <input
          type="month"
          value={month}
          max={today.slice(0, 7)}
          onChange={(e) => setMonth(e.target.value)}
        />
      </label>
      <Problems error={error} />
      <OthersRecords zone={zone} onAnswered={loadMonth} />
      {closed && (
        <section className="card closed" aria-labelledby="closed-title">
          <h2 id="closed-title">{t('record.closed')}</h2>
          <p>{t('record.closedIntro')}</p>
          {closed.seal && (
            <p className="seal">
              {t('record.seal')} <code>{closed.seal}</code>
            </p>
          )}
          {closed.acknowledged_at === null && closed.acknowledged_version !== null && (
            <p className="notice">{t('record.newVersion', { version: closed.version })}</p>
          )}
          <p>
            <a
              href={`/portal/api/registry/${month}.pdf?locale=${i18n.language === 'en' ? 'en' : 'es'}`}
              download
            >
              {t('record.download')}
            </a>
          </p>
          {closed.acknowledged_at ? (
            <p className="done" role="status">
              {t('record.acknowledged', { date: longDate(dayIn(closed.acknowledged_at, zone)) })}
            </p>
          ) : (
            <button type="button" className="primary" onClick={acknowledge}>
              {t('record.acknowledge')}
            </button>
          )}
        </section>
      )}
      <div className="card totals">
        <h2>
          {t('record.total')} · {monthName(month)}
        </h2>
        <dl>
          <dt>{t('record.worked')}</dt>
          <dd>{hoursOf(total.worked)}</dd>
          <dt>{t('record.expected')}</dt>
          <dd>{hoursOf(total.expected)}</dd>
          <dt>{t('record.balance')}</dt>
          <dd>{hoursOf(total.worked - total.expected)}</dd>
          {banked !== undefined && (
            <>
              <dt>{t('record.banked')}</dt>
              <dd>{hoursOf(banked)}</dd>
            </>
          )}
        </dl>
      </div>
      {dates.length === 0 && <p className="muted">{t('record.noDays')}</p>}
      {dates.map((date) => {
        const day = figures.get(date);
        return (
          <article key={date} className="card day" aria-labelledby={`day-${date}`}>
            <h2 id={`day-${date}`}>
              {longDate(date)}
              {day && day.incomplete_days > 0 && <span className="tag warn">{t('record.incomplete')}</span>}
              {day && day.conflict_days > 0 && <span className="tag warn">{t('record.conflict')}</span>}
            </h2>
            {day && (
              <p className="figures">
                {t('record.worked')}: {hoursOf(day.worked_minutes)} · {t('record.expected')}:{' '}
                {hoursOf(day.expected_minutes)} · {t('record.breaks')}: {hoursOf(day.break_minutes)}
              </p>
            )}
            <ul className="records">
              {(byDay.get(date) ?? []).map((record) => (
                <RecordLine key={record.id} record={record} zone={zone} />
              ))}
            </ul>
            <button type="button" className="link" onClick={() => askCorrection(date)}>
              {t('record.ask')}
            </button>
          </article>
        );
      })}
    </section>
  );
}
