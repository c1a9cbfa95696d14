import { useState } from 'react';
import { api, hhmm, type Mode, type Page, query } from '../api.ts';
import { BarChart, chartHours } from '../charts.tsx';
import type { Absence, Correction, Employee, WorkSummary } from '../types.ts';
import { ErrorMessage, Field, Loading, ScrollBox, Table, useLoad } from '../ui.tsx';
import { lastDayOf, todayIn } from '../zoned.ts';

/**
 * An employee's own page (issue 17): their month as a calendar with each day's figures, the banked balance at
 * the end of each of the last 12 months as a chart, and this year's absences and corrections.
 */
export function EmployeePage({
  mode,
  employee,
  timeZone,
}: {
  mode: Mode;
  employee: Employee;
  timeZone: string;
}) {
  const today = todayIn(employee.timezone ?? timeZone);
  const [month, setMonth] = useState(today.slice(0, 7));
  return (
    <>
      <section aria-labelledby={`month-${employee.id}`}>
        <h3 id={`month-${employee.id}`}>Month</h3>
        <Field label="Month of the calendar">
          <input
            type="month"
            required
            value={month}
            onChange={(event) => event.target.value && setMonth(event.target.value)}
          />
        </Field>
        <MonthCalendar mode={mode} employee={employee} month={month} />
      </section>
      <BankedChart mode={mode} employee={employee} today={today} />
      <YearRecords mode={mode} employee={employee} year={today.slice(0, 4)} />
    </>
  );
}

function MonthCalendar({ mode, employee, month }: { mode: Mode; employee: Employee; month: string }) {
  const days = useLoad(
    () =>
      api<Page<WorkSummary>>(
        'GET',
        `/${mode}/work-summaries${query({ period: 'day', from: `${month}-01`, to: lastDayOf(month), employee_id: employee.id, limit: 31 })}`,
      ),
    [mode, employee.id, month],
  );
  if (!days.data) return <Loading loading={days.loading} />;
  const byDate = new Map(days.data.data.map((row) => [row.period_start, row]));
  const first = new Date(`${month}-01T12:00:00Z`);
  const blanks = (first.getUTCDay() + 6) % 7; // Monday first
  const count = Number(lastDayOf(month).slice(8));
  const cells = [
    ...Array.from({ length: blanks }, () => null),
    ...Array.from({ length: count }, (_, index) => `${month}-${String(index + 1).padStart(2, '0')}`),
  ];
  const weeks: Array<Array<string | null>> = [];
  for (let index = 0; index < cells.length; index += 7) weeks.push(cells.slice(index, index + 7));
  return (
    <>
      <ErrorMessage error={days.error} />
      <ScrollBox label={`Days of ${month}`}>
        <table className="month-calendar">
          <thead>
            <tr>
              {['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((name) => (
                <th scope="col" key={name}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week.find(Boolean) ?? 'blank'}>
                {Array.from({ length: 7 }, (_, index) => {
                  const date = week[index] ?? null;
                  const row = date ? byDate.get(date) : undefined;
                  return (
                    <td key={date ?? `blank-${index}`}>
                      {date && (
                        <>
                          <strong>{Number(date.slice(8))}</strong>
                          {row && (row.worked_minutes > 0 || row.expected_minutes > 0) && (
                            <span className="day-figures">
                              {hhmm(row.worked_minutes)} / {hhmm(row.expected_minutes)}
                              {row.incomplete_days > 0 && <span className="status-failed"> incomplete</span>}
                            </span>
                          )}
                        </>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <p className="muted">Each day: worked / expected (closed days).</p>
    </>
  );
}

function BankedChart({ mode, employee, today }: { mode: Mode; employee: Employee; today: string }) {
  const [year, number] = today.slice(0, 7).split('-').map(Number) as [number, number];
  const from = new Date(Date.UTC(year, number - 12, 1)).toISOString().slice(0, 10);
  const months = useLoad(
    () =>
      api<Page<WorkSummary>>(
        'GET',
        `/${mode}/work-summaries${query({ period: 'month', from, to: today, employee_id: employee.id, limit: 13 })}`,
      ),
    [mode, employee.id, from, today],
  );
  if (!months.data) return <ErrorMessage error={months.error} />;
  const rows = months.data.data;
  const last = rows.at(-1);
  return (
    <BarChart
      title="Banked hours at the end of each month"
      summary={last ? `Now: ${hhmm(last.banked_hours_balance_minutes)}.` : 'No month yet.'}
      labels={rows.map((row) => row.period_start.slice(0, 7))}
      series={[
        {
          label: 'Banked balance',
          values: rows.map((row) => chartHours(row.banked_hours_balance_minutes)),
          color: '#1a5fb4',
        },
      ]}
      unit="hours"
    />
  );
}

function YearRecords({ mode, employee, year }: { mode: Mode; employee: Employee; year: string }) {
  const records = useLoad(async () => {
    const [absences, corrections] = await Promise.all([
      api<Page<Absence>>(
        'GET',
        `/${mode}/absences${query({ employee_id: employee.id, from: `${year}-01-01`, to: `${year}-12-31`, limit: 100 })}`,
      ),
      api<Page<Correction>>(
        'GET',
        `/${mode}/check-in-corrections${query({ employee_id: employee.id, limit: 100 })}`,
      ),
    ]);
    return { absences: absences.data, corrections: corrections.data };
  }, [mode, employee.id, year]);
  return (
    <>
      <ErrorMessage error={records.error} />
      <h3>Absences {year}</h3>
      <Table
        label={`Absences of ${year}`}
        columns={['Type', 'From', 'To', 'Days', 'Status']}
        empty="No absence this year."
        rows={records.data?.absences.map((absence) => (
          <tr key={absence.id}>
            <td>{absence.type.label}</td>
            <td>{absence.start_date}</td>
            <td>{absence.end_date}</td>
            <td>{absence.days_count}</td>
            <td>{absence.status}</td>
          </tr>
        ))}
      />
      <h3>Corrections</h3>
      <Table
        label="Corrections of the employee"
        columns={['Requested', 'Reason', 'Status']}
        empty="No correction."
        rows={records.data?.corrections.map((correction) => (
          <tr key={correction.id}>
            <td>{correction.requested_at.slice(0, 10)}</td>
            <td>{correction.reason}</td>
            <td>{correction.status}</td>
          </tr>
        ))}
      />
    </>
  );
}
