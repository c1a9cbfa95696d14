import { useState } from 'react';
import { api, companyToday, formatMinutes, type Mode, type Page, query } from '../api.ts';
import type { CheckIn, Company, WorkSummary } from '../types.ts';
import { ErrorMessage, Field, Loading, Table, useLoad } from '../ui.tsx';
import { type Employee, fullName } from './names.ts';

const addDays = (date: string, days: number) => {
  const value = new Date(`${date}T00:00:00Z`);
  value.setUTCDate(value.getUTCDate() + days);
  return value.toISOString().slice(0, 10);
};

/** The check-ins of one employee on one local date, and that workday's figures from the time engine. */
function Day({ mode, employee, date, zone }: { mode: Mode; employee: Employee; date: string; zone: string }) {
  const day = useLoad(async () => {
    // The local day lies within the UTC days around it; keep the events whose local date is the day.
    const page = await api<Page<CheckIn>>(
      'GET',
      `/${mode}/check-ins${query({
        employee_id: employee.id,
        from: `${addDays(date, -1)}T00:00:00Z`,
        to: `${addDays(date, 2)}T00:00:00Z`,
        limit: 100,
      })}`,
    );
    const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: zone });
    const events = page.data
      .filter((checkIn) => localDate.format(new Date(checkIn.timestamp)) === date)
      .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
    const summaries = await api<Page<WorkSummary>>(
      'GET',
      `/${mode}/work-summaries${query({ period: 'day', from: date, to: date, employee_id: employee.id })}`,
    );
    return { events, summary: summaries.data[0] ?? null };
  }, [mode, employee.id, date, zone]);
  const time = new Intl.DateTimeFormat(undefined, { timeZone: zone, timeStyle: 'short' });
  const summary = day.data?.summary;
  return (
    <section aria-label={`Check-ins of ${fullName(employee)} on ${date}`}>
      <h2>
        {fullName(employee)}, {date} <small className="muted">({zone})</small>
      </h2>
      <ErrorMessage error={day.error} />
      <Loading loading={day.loading} />
      <Table
        columns={['Time', 'Type', 'Source']}
        empty="No check-ins on this day."
        rows={day.data?.events.map((checkIn) => (
          <tr key={checkIn.id}>
            <td>{time.format(new Date(checkIn.timestamp))}</td>
            <td>{checkIn.type}</td>
            <td>{checkIn.source}</td>
          </tr>
        ))}
      />
      <h3>Workday figures</h3>
      {summary ? (
        <dl className="figures">
          <dt>Worked</dt>
          <dd>{formatMinutes(summary.worked_minutes)}</dd>
          <dt>Expected</dt>
          <dd>{formatMinutes(summary.expected_minutes)}</dd>
          <dt>Balance</dt>
          <dd>{formatMinutes(summary.balance_minutes)}</dd>
          <dt>Breaks</dt>
          <dd>{formatMinutes(summary.break_minutes)}</dd>
          <dt>Night</dt>
          <dd>{formatMinutes(summary.night_minutes)}</dd>
          <dt>Overtime</dt>
          <dd>{formatMinutes(summary.overtime_minutes)}</dd>
          <dt>Absences</dt>
          <dd>{formatMinutes(summary.absences_minutes)}</dd>
          <dt>Banked hours (to date)</dt>
          <dd>{formatMinutes(summary.banked_hours_balance_minutes)}</dd>
          <dt>Closed / incomplete</dt>
          <dd>
            {summary.source_days === 1 ? 'closed' : 'not closed yet'}
            {summary.incomplete_days > 0 ? ', incomplete shift' : ''}
            {summary.anomalies > 0 ? `, ${summary.anomalies} ignored events` : ''}
          </dd>
        </dl>
      ) : (
        <p className="muted">No figures for this day.</p>
      )}
    </section>
  );
}

export function CheckInsScreen({ mode, company }: { mode: Mode; company: Company }) {
  const [search, setSearch] = useState('');
  const [date, setDate] = useState(() => companyToday(company.timezone));
  const [employee, setEmployee] = useState<Employee | null>(null);
  const matches = useLoad(
    () => api<Page<Employee>>('GET', `/${mode}/employees/search${query({ q: search, limit: 10 })}`),
    [mode, search],
  );
  return (
    <>
      <div className="row">
        <Field label="Find an employee">
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </Field>
        <Field label="Day">
          <input
            type="date"
            required
            value={date}
            onChange={(event) => setDate(event.target.value || companyToday(company.timezone))}
          />
        </Field>
      </div>
      <ErrorMessage error={matches.error} />
      <ul className="list" aria-label="Employees">
        {matches.data?.data.map((item) => (
          <li key={item.id}>
            <button
              type="button"
              className="link"
              aria-pressed={item.id === employee?.id}
              onClick={() => setEmployee(item)}
            >
              {fullName(item)}
            </button>{' '}
            <span className="muted">{item.email}</span>
          </li>
        ))}
      </ul>
      {employee ? (
        <Day mode={mode} employee={employee} date={date} zone={employee.timezone ?? company.timezone} />
      ) : (
        <p className="muted">Choose an employee to see the day.</p>
      )}
    </>
  );
}
