import { useState } from 'react';
import { api, hhmm, type Mode, type Page, query } from '../../../shared/api.ts';
import { formatDate, formatInstant, formatMonth, formatNumber, useT } from '../../../shared/i18n.ts';
import { lastDayOf, monthDays, todayIn } from '../../../shared/zoned.ts';
import { BarChart, chartHours } from '../charts.tsx';
import { statusLabel } from '../labels.ts';
import type { Absence, Correction, Employee, WorkSummary } from '../types.ts';
import { CalendarMonth, ErrorMessage, Loading, ScrollBox, Table, useLoad } from '../ui.tsx';

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
  const t = useT();
  const today = todayIn(employee.timezone ?? timeZone);
  const [month, setMonth] = useState(today.slice(0, 7));
  return (
    <>
      <section aria-labelledby={`month-${employee.id}`}>
        <h3 id={`month-${employee.id}`}>{t('Month')}</h3>
        <CalendarMonth label={t('Month of the calendar')} month={month} onMonth={setMonth} />
        <MonthCalendar mode={mode} employee={employee} month={month} />
      </section>
      <BankedChart mode={mode} employee={employee} today={today} />
      <YearRecords mode={mode} employee={employee} year={today.slice(0, 4)} />
    </>
  );
}

function MonthCalendar({ mode, employee, month }: { mode: Mode; employee: Employee; month: string }) {
  const t = useT();
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
  const cells = [...Array.from({ length: blanks }, () => null), ...monthDays(month)];
  const weeks: Array<Array<string | null>> = [];
  for (let index = 0; index < cells.length; index += 7) weeks.push(cells.slice(index, index + 7));
  return (
    <>
      <ErrorMessage error={days.error} />
      <ScrollBox label={t('Days of {{month}}', { month: formatMonth(month) })}>
        <table className="month-calendar">
          <thead>
            <tr>
              {/* 2024-01-01 was a Monday: the week's names in the interface's language. */}
              {[1, 2, 3, 4, 5, 6, 7].map((day) => (
                <th scope="col" key={day}>
                  {formatDate(`2024-01-0${day}`, { weekday: 'short' })}
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
                              {row.incomplete_days > 0 && (
                                <span className="status-failed"> {t('incomplete')}</span>
                              )}
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
      <p className="muted">{t('Each day: worked / expected (closed days).')}</p>
    </>
  );
}

function BankedChart({ mode, employee, today }: { mode: Mode; employee: Employee; today: string }) {
  const t = useT();
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
      title={t('Banked hours at the end of each month')}
      summary={
        last ? t('Now: {{hours}}.', { hours: hhmm(last.banked_hours_balance_minutes) }) : t('No month yet.')
      }
      labels={rows.map((row) => formatDate(row.period_start, { month: 'short', year: 'numeric' }))}
      series={[
        {
          label: t('Banked balance'),
          values: rows.map((row) => chartHours(row.banked_hours_balance_minutes)),
          color: '#1a5fb4',
        },
      ]}
      unit={t('hours')}
    />
  );
}

function YearRecords({ mode, employee, year }: { mode: Mode; employee: Employee; year: string }) {
  const t = useT();
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
      <h3>{t('Absences {{year}}', { year })}</h3>
      <Table
        label={t('Absences of {{year}}', { year })}
        columns={[t('Type'), t('From'), t('To'), t('Days'), t('Status')]}
        empty={t('No absence this year.')}
        rows={records.data?.absences.map((absence) => (
          <tr key={absence.id}>
            <td>{absence.type.label}</td>
            <td>{formatDate(absence.start_date)}</td>
            <td>{formatDate(absence.end_date)}</td>
            <td>{formatNumber(absence.days_count)}</td>
            <td>{t(statusLabel(absence.status))}</td>
          </tr>
        ))}
      />
      <h3>{t('Corrections')}</h3>
      <Table
        label={t('Corrections of the employee')}
        columns={[t('Requested'), t('Reason'), t('Status')]}
        empty={t('No correction.')}
        rows={records.data?.corrections.map((correction) => (
          <tr key={correction.id}>
            <td>{formatInstant(correction.requested_at)}</td>
            <td>{correction.reason}</td>
            <td>{t(statusLabel(correction.status))}</td>
          </tr>
        ))}
      />
    </>
  );
}
