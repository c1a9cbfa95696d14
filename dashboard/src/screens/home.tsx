import { useEffect } from 'react';
import { api, hhmm, type Mode } from '../api.ts';
import { BarChart, chartHours } from '../charts.tsx';
import type { Charts, Today } from '../types.ts';
import { ErrorMessage, Loading, Table, useLoad } from '../ui.tsx';

type Person = Today['people'][number];

const GROUPS: Array<{ state: Person['state']; title: string; empty: string }> = [
  { state: 'in', title: 'In now', empty: 'Nobody is clocked in.' },
  { state: 'break', title: 'On a break', empty: 'Nobody is on a break.' },
  { state: 'missing', title: 'Expected, not clocked in yet', empty: 'Everyone expected has clocked in.' },
  { state: 'absent', title: 'Absent', empty: 'Nobody is absent today.' },
  { state: 'out', title: 'Clocked out', empty: 'Nobody has clocked out yet today.' },
];

/**
 * The home page: today at a glance, in the company's time zone (named on the page). Reloads every minute, so
 * an open dashboard keeps up with who comes and goes.
 */
export function HomeScreen({ mode }: { mode: Mode }) {
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
  const time = (instant: string) =>
    new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: data.time_zone }).format(
      new Date(instant),
    );
  const day = (date: string) =>
    new Intl.DateTimeFormat('en-GB', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    }).format(new Date(`${date}T12:00:00Z`));
  const balance = data.month.worked_minutes - data.month.expected_minutes;
  return (
    <>
      <ErrorMessage error={today.error} />
      <p className="muted">
        {new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(
          new Date(`${data.date}T12:00:00Z`),
        )}
        , {time(data.now)} ({data.time_zone})
      </p>
      <section aria-label="Counts" className="tiles">
        {GROUPS.map((group) => (
          <div key={group.state} className="tile">
            <strong>{data.counts[group.state] ?? 0}</strong> <span>{group.title}</span>
          </div>
        ))}
      </section>
      <div className="columns">
        {GROUPS.map((group) => {
          const people = data.people.filter((person) => person.state === group.state);
          return (
            <section key={group.state} className="card" aria-labelledby={`group-${group.state}`}>
              <h2 id={`group-${group.state}`}>
                {group.title} <span className="badge">{people.length}</span>
              </h2>
              {people.length === 0 ? (
                <p className="muted">{group.empty}</p>
              ) : (
                <ul className="list">
                  {people.map((person) => (
                    <li key={person.employee_id}>
                      {person.name}
                      {person.since && <span className="muted"> · since {time(person.since)}</span>}
                      {person.absence_type && <span className="muted"> · {person.absence_type}</span>}
                      {group.state === 'missing' && (
                        <span className="muted"> · expected {hhmm(person.expected_minutes)}</span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          );
        })}
        <section className="card" aria-labelledby="pending-title">
          <h2 id="pending-title">Waiting for you</h2>
          <ul className="list">
            <li>
              <a href="#/absences">
                {data.pending.absences} absence request{data.pending.absences === 1 ? '' : 's'} to decide
              </a>
            </li>
            <li>
              {data.pending.corrections} correction{data.pending.corrections === 1 ? '' : 's'} waiting for the
              company’s approval
            </li>
          </ul>
        </section>
        <section className="card" aria-labelledby="month-title">
          <h2 id="month-title">The month so far ({data.month.month})</h2>
          <dl className="figures">
            <dt>Worked</dt>
            <dd>{hhmm(data.month.worked_minutes)}</dd>
            <dt>Expected</dt>
            <dd>{hhmm(data.month.expected_minutes)}</dd>
            <dt>Balance</dt>
            <dd>{hhmm(balance)}</dd>
            <dt>Overtime</dt>
            <dd>{hhmm(data.month.overtime_minutes)}</dd>
            <dt>Night</dt>
            <dd>{hhmm(data.month.night_minutes)}</dd>
          </dl>
          <p className="muted">Closed workdays only: today counts once it is over.</p>
        </section>
      </div>
      <ChartsSection mode={mode} />
      <section aria-labelledby="problems-title">
        <h2 id="problems-title">Problem days, last 14 days</h2>
        <Table
          label="Problem days"
          columns={['Day', 'Employee', 'Incomplete shifts', 'Ignored events', 'Late records']}
          empty="No problem day in the last 14 days."
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

const shortDay = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );

/** Where people would rather look than read: the weeks, the overtime, the absences. */
function ChartsSection({ mode }: { mode: Mode }) {
  const charts = useLoad(() => api<Charts>('GET', `/${mode}/charts`), [mode]);
  const data = charts.data;
  if (!data) return <ErrorMessage error={charts.error} />;
  const worked = data.weeks.map((week) => chartHours(week.worked_minutes));
  const expected = data.weeks.map((week) => chartHours(week.expected_minutes));
  const latest = data.weeks.at(-1);
  return (
    <section aria-labelledby="charts-title">
      <h2 id="charts-title">At a glance</h2>
      <div className="charts">
        <BarChart
          title="Worked and expected, last 8 weeks"
          summary={
            latest
              ? `This week so far: ${chartHours(latest.worked_minutes)} hours worked of ${chartHours(latest.expected_minutes)} expected.`
              : ''
          }
          labels={data.weeks.map((week) => `w/c ${shortDay(week.week_start)}`)}
          series={[
            { label: 'Worked', values: worked, color: '#1a5fb4' },
            { label: 'Expected', values: expected, color: '#9aa4b2' },
          ]}
          unit="hours"
        />
        <BarChart
          title="Overtime this month, by employee"
          summary={
            data.overtime.length === 0
              ? 'Nobody has overtime this month.'
              : `${data.overtime.length} employees with overtime; most: ${data.overtime[0]?.name}, ${chartHours(data.overtime[0]?.overtime_minutes ?? 0)} hours.`
          }
          labels={data.overtime.map((row) => row.name)}
          series={[
            {
              label: 'Overtime',
              values: data.overtime.map((row) => chartHours(row.overtime_minutes)),
              color: '#b35900',
            },
          ]}
          unit="hours"
          horizontal
        />
        <BarChart
          title="Absence days this year, by type"
          summary={
            data.absences.map((row) => `${row.label}: ${row.days} days`).join('; ') || 'No absence this year.'
          }
          labels={data.absences.map((row) => row.label)}
          series={[{ label: 'Days', values: data.absences.map((row) => row.days), color: '#2f7d32' }]}
          unit="days"
          horizontal
        />
      </div>
    </section>
  );
}
