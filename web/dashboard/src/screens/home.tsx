import { useEffect } from 'react';
import { api, hhmm, type Mode } from '../../../shared/api.ts';
import { formatDate, formatMonth, formatNumber, formatTime, msg, useT } from '../../../shared/i18n.ts';
import { dayIn } from '../../../shared/zoned.ts';
import { can } from '../can.ts';
import { BarChart, chartHours } from '../charts.tsx';
import type { Charts, Today } from '../types.ts';
import { ErrorMessage, Loading, Table, useAction, useLoad } from '../ui.tsx';

type Person = Today['people'][number];

const GROUPS: Array<{ state: Person['state']; title: string; empty: string }> = [
  { state: 'in', title: msg('In now'), empty: msg('Nobody is clocked in.') },
  { state: 'break', title: msg('On a break'), empty: msg('Nobody is on a break.') },
  {
    state: 'missed_clock_out',
    title: msg('Probable missed clock-out'),
    empty: msg('No shift is left open.'),
  },
  {
    state: 'missing',
    title: msg('Expected, not clocked in yet'),
    empty: msg('Everyone expected has clocked in.'),
  },
  { state: 'absent', title: msg('Absent'), empty: msg('Nobody is absent today.') },
  { state: 'out', title: msg('Clocked out'), empty: msg('Nobody has clocked out yet today.') },
];

/**
 * The home page: today at a glance, in the company's time zone (named on the page). Reloads every minute, so
 * an open dashboard keeps up with who comes and goes.
 */
export function HomeScreen({ mode }: { mode: Mode }) {
  const t = useT();
  const today = useLoad(() => api<Today>('GET', `/${mode}/today`), [mode]);
  useEffect(() => {
    const timer = setInterval(today.reload, 60_000);
    return () => clearInterval(timer);
  }, [today.reload]);
  const data = today.data;
  if (!data) {
    return (
      <>
        <ErrorMessage error={today.error} />
        <Loading loading={today.loading} />
      </>
    );
  }
  const time = (instant: string) => formatTime(instant, data.time_zone);
  const day = (date: string) => formatDate(date, { weekday: 'short', day: 'numeric', month: 'short' });
  const balance = data.month.worked_minutes - data.month.expected_minutes;
  return (
    <>
      <ErrorMessage error={today.error} />
      <p className="muted">
        {formatDate(data.date, { dateStyle: 'full' })}, {time(data.now)} ({data.time_zone})
      </p>
      <section aria-label={t('Counts')} className="tiles">
        {GROUPS.map((group) => (
          <div key={group.state} className="tile">
            <strong>{data.counts[group.state] ?? 0}</strong> <span>{t(group.title)}</span>
          </div>
        ))}
      </section>
      <div className="columns">
        {GROUPS.map((group) => {
          const people = data.people.filter((person) => person.state === group.state);
          return (
            <section key={group.state} className="card" aria-labelledby={`group-${group.state}`}>
              <h2 id={`group-${group.state}`}>
                {t(group.title)} <span className="badge">{people.length}</span>
              </h2>
              {people.length === 0 ? (
                <p className="muted">{t(group.empty)}</p>
              ) : (
                <ul className="list">
                  {people.map((person) => (
                    <li key={person.employee_id}>
                      {person.name}
                      {person.since && (
                        <span className="muted">
                          {' '}
                          ·{' '}
                          {group.state === 'missed_clock_out'
                            ? t('open since {{day}} {{time}}', {
                                day: day(dayIn(person.since, data.time_zone)),
                                time: time(person.since),
                              })
                            : t('since {{time}}', { time: time(person.since) })}
                        </span>
                      )}
                      {person.absence_type && <span className="muted"> · {person.absence_type}</span>}
                      {group.state === 'missing' && (
                        <span className="muted">
                          {' '}
                          · {t('expected {{hours}}', { hours: hhmm(person.expected_minutes) })}
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })}
        <section className="card pending" aria-labelledby="pending-title">
          <h2 id="pending-title">{t('Waiting for you')}</h2>
          <ul className="list">
            <li>
              <a href="#/absences">
                {t('{{count}} absence requests to decide', { count: data.pending.absences })}
              </a>
            </li>
            <li>
              <a href="#/check-ins">
                {t('{{count}} corrections waiting for the company’s approval', {
                  count: data.pending.corrections,
                })}
              </a>
            </li>
          </ul>
        </section>
        <section className="card" aria-labelledby="month-title">
          <h2 id="month-title">
            {t('The month so far ({{month}})', { month: formatMonth(data.month.month) })}
          </h2>
          <dl className="figures">
            <dt>{t('Worked')}</dt>
            <dd>{hhmm(data.month.worked_minutes)}</dd>
            <dt>{t('Expected')}</dt>
            <dd>{hhmm(data.month.expected_minutes)}</dd>
            <dt>{t('Balance')}</dt>
            <dd>{hhmm(balance)}</dd>
            <dt>{t('Overtime')}</dt>
            <dd>{hhmm(data.month.overtime_minutes)}</dd>
            <dt>{t('Night')}</dt>
            <dd>{hhmm(data.month.night_minutes)}</dd>
          </dl>
          <p className="muted">{t('Closed workdays only: today counts once it is over.')}</p>
        </section>
      </div>
      <AlertsSection mode={mode} alerts={data.alerts} onChange={today.reload} />
      {/* The company's charts are company-wide: not a team lead's (their home is their people's). */}
      {can('dashboardCharts') && <ChartsSection mode={mode} />}
      <section aria-labelledby="problems-title">
        <h2 id="problems-title">{t('Problem days, last 14 days')}</h2>
        <Table
          label={t('Problem days')}
          columns={[t('Day'), t('Employee'), t('Incomplete shifts'), t('Ignored events'), t('Late records')]}
          empty={t('No problem day in the last 14 days.')}
          rows={data.problems.map((row) => (
            <tr key={`${row.employee_id}-${row.date}`}>
              <td>{day(row.date)}</td>
              <td>{row.name}</td>
              <td>{row.incomplete_shifts || ''}</td>
              <td>{row.anomalies || ''}</td>
              <td>{row.late_records || ''}</td>
            </tr>
          ))}
        />
      </section>
    </>
  );
}

/** Where people would rather look than read: the weeks, the overtime, the absences. */
function ChartsSection({ mode }: { mode: Mode }) {
  const t = useT();
  const charts = useLoad(() => api<Charts>('GET', `/${mode}/charts`), [mode]);
  const data = charts.data;
  if (!data) return <ErrorMessage error={charts.error} />;
  const worked = data.weeks.map((week) => chartHours(week.worked_minutes));
  const expected = data.weeks.map((week) => chartHours(week.expected_minutes));
  const latest = data.weeks.at(-1);
  return (
    <section aria-labelledby="charts-title">
      <h2 id="charts-title">{t('At a glance')}</h2>
      <div className="charts">
        <BarChart
          title={t('Worked and expected, last 8 weeks')}
          summary={
            latest
              ? t('This week so far: {{worked}} hours worked of {{expected}} expected.', {
                  worked: formatNumber(chartHours(latest.worked_minutes)),
                  expected: formatNumber(chartHours(latest.expected_minutes)),
                })
              : ''
          }
          labels={data.weeks.map((week) =>
            t('w/c {{day}}', { day: formatDate(week.week_start, { day: 'numeric', month: 'short' }) }),
          )}
          series={[
            { label: t('Worked'), values: worked, color: '#1a5fb4' },
            { label: t('Expected'), values: expected, color: '#9aa4b2' },
          ]}
          unit={t('hours')}
        />
        <BarChart
          title={t('Overtime this month, by employee')}
          summary={
            data.overtime.length === 0
              ? t('Nobody has overtime this month.')
              : t('{{count}} employees with overtime; most: {{name}}, {{hours}} hours.', {
                  count: data.overtime.length,
                  name: data.overtime[0]?.name,
                  hours: formatNumber(chartHours(data.overtime[0]?.overtime_minutes ?? 0)),
                })
          }
          labels={data.overtime.map((row) => row.name)}
          series={[
            {
              label: t('Overtime'),
              values: data.overtime.map((row) => chartHours(row.overtime_minutes)),
              color: '#b35900',
            },
          ]}
          unit={t('hours')}
          horizontal
        />
        <BarChart
          title={t('Absence days this year, by type')}
          summary={
            data.absences
              .map((row) => `${row.label}: ${t('{{count}} days', { count: row.days })}`)
              .join('; ') || t('No absence this year.')
          }
          labels={data.absences.map((row) => row.label)}
          series={[{ label: t('Days'), values: data.absences.map((row) => row.days), color: '#2f7d32' }]}
          unit={t('days')}
          horizontal
        />
      </div>
    </section>
  );
}

/** The open legal-limit alerts of the last two weeks (issue 38), each acknowledged once dealt with. */
function AlertsSection({
  mode,
  alerts,
  onChange,
}: {
  mode: Mode;
  alerts: Today['alerts'];
  onChange: () => void;
}) {
  const t = useT();
  const action = useAction();
  const rules: Record<string, string> = {
    daily_hours: t('More than 9 hours of work in the day'),
    rest_between_workdays: t('Less than 12 hours of rest since the last workday'),
    continuous_work_without_break: t('More than 6 hours without a break'),
    weekly_rest: t('No day and a half of rest in the week'),
    night_work_average: t('Night work over 8 hours a day on average'),
    outside_schedule: t('Remote work outside the planned shift'),
    complementary_limit: t("Complementary hours over the month's agreed limit"),
    overtime_yearly_warning: t('70 hours of overtime this year'),
    overtime_yearly_cap: t('Over 80 hours of overtime this year'),
  };
  return (
    <section aria-labelledby="alerts-title">
      <h2 id="alerts-title">{t('Legal limits, last 14 days')}</h2>
      <ErrorMessage error={action.error} />
      <Table
        label={t('Legal-limit alerts')}
        columns={[t('Day'), t('Employee'), t('Limit'), t('Measured'), t('Law')]}
        actions
        empty={t('No open alert.')}
        rows={alerts.map((alert) => (
          <tr key={alert.id}>
            <td>{formatDate(alert.date, { weekday: 'short', day: 'numeric', month: 'short' })}</td>
            <td>{alert.name}</td>
            <td>{rules[alert.rule] ?? alert.rule}</td>
            <td>
              {hhmm(alert.detail.minutes)} / {hhmm(alert.detail.limit_minutes)}
            </td>
            <td>{alert.law}</td>
            <td>
              <button
                type="button"
                className="secondary"
                hidden={!can('dashboardAcknowledgeComplianceAlert')}
                disabled={action.busy}
                onClick={() =>
                  void action
                    .run(() => api('POST', `/${mode}/compliance-alerts/${alert.id}/acknowledge`, {}))
                    .then(onChange)
                }
              >
                {t('Acknowledge')}
                <span className="visually-hidden"> {alert.name}</span>
              </button>
            </td>
          </tr>
        ))}
      />
    </section>
  );
}
