import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Problems } from './App.tsx';
import { portalApi, type Shift } from './api.ts';
import { hoursOf, longDate } from './format.ts';

type Answer = { from: string; to: string; data: Shift[]; unseen: number };

/** The portal's unseen shift changes: the badge on "Mis turnos". */
export async function unseenShifts(): Promise<number> {
  return (await portalApi<Answer>('GET', '/shifts')).unseen;
}

/**
 * "Mis turnos" (issue 38): the worker's published shifts this week and next, by day. Opening it clears the
 * badge of changes not yet seen; the ones that were new are marked as such until the next visit.
 */
export function ShiftsScreen({ onSeen }: { onSeen: () => void }) {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [seenBefore, setSeenBefore] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    void (async () => {
      try {
        const shifts = await portalApi<Answer>('GET', '/shifts');
        setAnswer(shifts);
        setSeenBefore(shifts.unseen);
        if (shifts.unseen > 0) {
          await portalApi('POST', '/shifts/seen', {});
          onSeen();
        }
      } catch (problem) {
        setError(problem);
      }
    })();
  }, [onSeen]);
  return (
    <section aria-labelledby="shifts-title">
      <h1 id="shifts-title">{t('shifts.title')}</h1>
      <Problems error={error} />
      {seenBefore !== null && seenBefore > 0 && (
        <p className="notice" role="status">
          {t('shifts.changed', { count: seenBefore })}
        </p>
      )}
      {answer && answer.data.length === 0 && <p className="muted">{t('shifts.none')}</p>}
      {answer && answer.data.length > 0 && (
        <ul className="records shifts">
          {answer.data.map((shift) => (
            <li key={shift.id}>
              <strong>{longDate(shift.date)}</strong>
              <div>
                {t('shifts.time', { start: shift.start, end: shift.end })}
                {shift.end <= shift.start && ` ${t('shifts.nextDay')}`}
              </div>
              <div className="muted">
                {[
                  shift.kind === 'on_call'
                    ? t('shifts.onCall')
                    : t('shifts.planned', { hours: hoursOf(shift.planned_minutes) }),
                  ...(shift.break_minutes > 0 ? [t('shifts.break', { minutes: shift.break_minutes })] : []),
                ].join(' · ')}
              </div>
              {shift.note && <div className="muted">{shift.note}</div>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
