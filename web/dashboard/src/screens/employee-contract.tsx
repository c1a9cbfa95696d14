import { type FormEvent, useState } from 'react';
import { api, formatInstant, formatMinutes, type Mode, type Page, query } from '../../../shared/api.ts';
import { formatDate, formatNumber, useT } from '../../../shared/i18n.ts';
import { todayIn } from '../../../shared/zoned.ts';
import type { Employee, Location, VacationBalance } from '../types.ts';
import { ErrorMessage, Field, Loading, NamedSelect, Table, useAction, useLoad } from '../ui.tsx';

/** The schedule's weekdays with a date that falls on each (2024-01-01 was a Monday), to name it in the locale. */
const WEEKDAYS = [
  ['mon', '2024-01-01'],
  ['tue', '2024-01-02'],
  ['wed', '2024-01-03'],
  ['thu', '2024-01-04'],
  ['fri', '2024-01-05'],
  ['sat', '2024-01-06'],
  ['sun', '2024-01-07'],
] as const;
const weekdayName = (date: string, weekday: 'long' | 'short') => formatDate(date, { weekday });
type Weekday = (typeof WEEKDAYS)[number][0];
type Schedule = Record<Weekday, number>;
type ContractPeriod = {
  effective_from: string;
  effective_to: string | null;
  work_schedule: Schedule;
  vacation_days_per_year: number;
  contract_type: 'full_time' | 'part_time';
  weekly_minutes: number;
  part_time_percentage: number | null;
  recorded_at: string;
};

/** Minutes as hours for an input ("7.5"), and back (to the minute). */
const hours = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100);
const minutesOf = (text: string) => Math.round(Number(text || '0') * 60);
/** Minutes as hours to read: "8 h", "7:30 h". */
const hoursText = (minutes: number) =>
  minutes % 60 === 0
    ? `${minutes / 60} h`
    : `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')} h`;

/**
 * An employee's contract in the dashboard (issue 17): the weekly schedule and vacation days from a date on
 * (effective-dated: earlier days keep their values), the assignment (work centre, unit, time zone), when their
 * registry starts and the opening banked balance; then the contract's history and this year's vacation.
 */
export function EmployeeContract({
  mode,
  employee,
  companyTimeZone,
  onSaved,
}: {
  mode: Mode;
  employee: Employee;
  companyTimeZone: string;
  onSaved: (employee: Employee) => void;
}) {
  const t = useT();
  // A save reloads the history and the vacation (a contract change need not touch the employee's own row).
  const [version, setVersion] = useState(0);
  const saved = (next: Employee) => {
    setVersion((value) => value + 1);
    onSaved(next);
  };
  const history = useLoad(
    () => api<Page<ContractPeriod>>('GET', `/${mode}/employees/${employee.id}/contract-history`),
    [mode, employee.id, version],
  );
  return (
    <>
      <ScheduleForm mode={mode} employee={employee} companyTimeZone={companyTimeZone} onSaved={saved} />
      <AssignmentForm mode={mode} employee={employee} onSaved={saved} />
      <section aria-labelledby={`history-${employee.id}`}>
        <h3 id={`history-${employee.id}`}>{t('Contract history')}</h3>
        <ErrorMessage error={history.error} />
        <Loading loading={history.loading && !history.data} />
        <Table
          label={t('Contract periods')}
          columns={[t('From'), t('To'), t('Contract'), t('Week'), t('Vacation days'), t('Recorded')]}
          empty={t('No contract period.')}
          rows={history.data?.data.map((period) => (
            <tr key={period.effective_from}>
              <td>{formatDate(period.effective_from)}</td>
              <td>{period.effective_to ? formatDate(period.effective_to) : t('ongoing')}</td>
              <td>
                {period.contract_type === 'part_time'
                  ? t('Part time, {{percentage}} %, {{hours}} a week', {
                      percentage: formatNumber(period.part_time_percentage ?? 0),
                      hours: hoursText(period.weekly_minutes),
                    })
                  : t('Full time, {{hours}} a week', { hours: hoursText(period.weekly_minutes) })}
              </td>
              <td>
                {WEEKDAYS.map(
                  ([key, date]) => `${weekdayName(date, 'short')} ${hoursText(period.work_schedule[key])}`,
                ).join(', ')}
              </td>
              <td>{formatNumber(period.vacation_days_per_year)}</td>
              <td>{formatInstant(period.recorded_at)}</td>
            </tr>
          ))}
        />
      </section>
      <Vacation
        mode={mode}
        employee={employee}
        year={todayIn(companyTimeZone).slice(0, 4)}
        version={version}
      />
    </>
  );
}

function ScheduleForm({
  mode,
  employee,
  companyTimeZone,
  onSaved,
}: {
  mode: Mode;
  employee: Employee;
  companyTimeZone: string;
  onSaved: (employee: Employee) => void;
}) {
  const t = useT();
  const [week, setWeek] = useState<Record<Weekday, string>>(
    () =>
      Object.fromEntries(WEEKDAYS.map(([key]) => [key, hours(employee.work_schedule[key])])) as Record<
        Weekday,
        string
      >,
  );
  const [vacation, setVacation] = useState(String(employee.vacation_days_per_year));
  const [type, setType] = useState(employee.contract_type);
  // Empty while the contracted week is the schedule's total, so that a new schedule carries it along.
  const scheduled = WEEKDAYS.reduce((sum, [key]) => sum + employee.work_schedule[key], 0);
  const [weekly, setWeekly] = useState(
    employee.weekly_minutes === scheduled ? '' : hours(employee.weekly_minutes),
  );
  const [share, setShare] = useState(
    employee.part_time_percentage === null ? '' : String(employee.part_time_percentage),
  );
  const [limit, setLimit] = useState(String(employee.complementary_limit_percentage ?? 30));
  const [compensation, setCompensation] = useState(employee.overtime_compensation ?? '');
  const [from, setFrom] = useState(() => todayIn(employee.timezone ?? companyTimeZone));
  const action = useAction();
  const total = WEEKDAYS.reduce((sum, [key]) => sum + minutesOf(week[key]), 0);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await action.run(() =>
      api<Employee>('PATCH', `/${mode}/employees/${employee.id}`, {
        work_schedule: Object.fromEntries(WEEKDAYS.map(([key]) => [key, minutesOf(week[key])])),
        vacation_days_per_year: Number(vacation),
        contract_type: type,
        overtime_compensation: compensation === '' ? null : compensation,
        weekly_minutes: weekly.trim() === '' ? null : minutesOf(weekly),
        ...(type === 'part_time'
          ? {
              ...(share.trim() === '' ? {} : { part_time_percentage: Number(share) }),
              complementary_limit_percentage: Number(limit),
            }
          : {}),
        effective_from: from,
      }),
    );
    if (saved) onSaved(saved);
  };
  return (
    <form onSubmit={submit} className="card" aria-label={t('Schedule and vacation')}>
      <h3>{t('Schedule and vacation')}</h3>
      <fieldset>
        <legend>{t('Hours per weekday (this week: {{total}})', { total: formatMinutes(total) })}</legend>
        <div className="grid week">
          {WEEKDAYS.map(([key, date]) => (
            <Field
              key={key}
              label={weekdayName(date, 'long')}
              name={`work_schedule.${key}`}
              error={action.error}
            >
              <input
                type="number"
                min={0}
                max={24}
                step={0.25}
                required
                value={week[key]}
                onChange={(event) => setWeek({ ...week, [key]: event.target.value })}
              />
            </Field>
          ))}
        </div>
      </fieldset>
      <div className="grid">
        <Field
          label={t('Contract')}
          hint={t('Part time (ET art. 12): hours beyond the day’s are complementary, never overtime.')}
          name="contract_type"
          error={action.error}
        >
          <select value={type} onChange={(event) => setType(event.target.value as typeof type)}>
            <option value="full_time">{t('Full time')}</option>
            <option value="part_time">{t('Part time')}</option>
          </select>
        </Field>
        <Field
          label={t('Contracted hours a week')}
          hint={t('Empty: the schedule’s total.')}
          name="weekly_minutes"
          error={action.error}
        >
          <input
            type="number"
            min={0}
            max={168}
            step={0.25}
            value={weekly}
            onChange={(event) => setWeekly(event.target.value)}
          />
        </Field>
        {type === 'part_time' ? (
          <>
            <Field
              label={t('Part-time percentage')}
              hint={t('Of a full-timer’s hours. Empty: the week over 40 hours.')}
              name="part_time_percentage"
              error={action.error}
            >
              <input
                type="number"
                min={0.01}
                max={99.99}
                step={0.01}
                value={share}
                onChange={(event) => setShare(event.target.value)}
              />
            </Field>
            <Field
              label={t('Complementary hours limit (%)')}
              hint={t('Agreed, of the contracted hours (ET art. 12.5: 30 unless agreed).')}
              name="complementary_limit_percentage"
              error={action.error}
            >
              <input
                type="number"
                min={0}
                max={90}
                step={1}
                required
                value={limit}
                onChange={(event) => setLimit(event.target.value)}
              />
            </Field>
          </>
        ) : null}
        <Field label={t('Overtime')} name="overtime_compensation" error={action.error}>
          <select
            value={compensation}
            onChange={(event) => setCompensation(event.target.value as typeof compensation)}
          >
            <option value="">{t('As the company says')}</option>
            <option value="time_off">{t('Compensated with time off')}</option>
            <option value="paid">{t('Paid')}</option>
          </select>
        </Field>
        <Field label={t('Vacation days a year')} name="vacation_days_per_year" error={action.error}>
          <input
            type="number"
            min={0}
            max={366}
            step={0.5}
            required
            value={vacation}
            onChange={(event) => setVacation(event.target.value)}
          />
        </Field>
        <Field
          label={t('From')}
          hint={t('The first day the new values apply; earlier days keep theirs.')}
          name="effective_from"
          error={action.error}
        >
          <input type="date" required value={from} onChange={(event) => setFrom(event.target.value)} />
        </Field>
      </div>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {t('Save schedule and vacation')}
      </button>
    </form>
  );
}

function AssignmentForm({
  mode,
  employee,
  onSaved,
}: {
  mode: Mode;
  employee: Employee;
  onSaved: (employee: Employee) => void;
}) {
  const t = useT();
  const options = useLoad(async () => {
    const [locations, units] = await Promise.all([
      api<Page<Location>>('GET', `/${mode}/locations${query({ limit: 100 })}`),
      api<Page<{ id: string; name: string }>>('GET', `/${mode}/units${query({ limit: 100 })}`),
    ]);
    return { locations: locations.data, units: units.data };
  }, [mode]);
  const [location, setLocation] = useState(employee.location_id ?? '');
  const [unit, setUnit] = useState(employee.unit_id ?? '');
  const [zone, setZone] = useState(employee.timezone ?? '');
  const [start, setStart] = useState(employee.tracking_start_date ?? '');
  const [opening, setOpening] = useState(hours(employee.opening_banked_minutes));
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await action.run(() =>
      api<Employee>('PATCH', `/${mode}/employees/${employee.id}`, {
        location_id: location || null,
        unit_id: unit || null,
        timezone: zone.trim() || null,
        ...(start ? { tracking_start_date: start } : {}),
        opening_banked_minutes: minutesOf(opening),
      }),
    );
    if (saved) onSaved(saved);
  };
  return (
    <form onSubmit={submit} className="card" aria-label={t('Assignment and registry')}>
      <h3>{t('Assignment and registry')}</h3>
      <div className="grid">
        <Field label={t('Work centre')} name="location_id" error={action.error}>
          <NamedSelect
            value={location}
            onChange={setLocation}
            items={options.data?.locations}
            none={t('None')}
          />
        </Field>
        <Field label={t('Unit')} name="unit_id" error={action.error}>
          <NamedSelect value={unit} onChange={setUnit} items={options.data?.units} none={t('None')} />
        </Field>
        <Field
          label={t('Time zone')}
          hint={t('Empty: the company’s. An IANA name, e.g. Atlantic/Canary.')}
          name="timezone"
          error={action.error}
        >
          <input value={zone} onChange={(event) => setZone(event.target.value)} />
        </Field>
        <Field
          label={t('Tracking start')}
          hint={t('Their own first registry day, when later than the company’s.')}
          name="tracking_start_date"
          error={action.error}
        >
          <input type="date" value={start} onChange={(event) => setStart(event.target.value)} />
        </Field>
        <Field
          label={t('Opening banked balance (hours)')}
          hint={t('Carried in from before the tracking start; negative when owed.')}
          name="opening_banked_minutes"
          error={action.error}
        >
          <input
            type="number"
            step={0.25}
            value={opening}
            onChange={(event) => setOpening(event.target.value)}
          />
        </Field>
      </div>
      <ErrorMessage error={action.error ?? options.error} />
      <button type="submit" disabled={action.busy}>
        {t('Save assignment')}
      </button>
    </form>
  );
}

function Vacation({
  mode,
  employee,
  year,
  version,
}: {
  mode: Mode;
  employee: Employee;
  year: string;
  version: number;
}) {
  const t = useT();
  const balance = useLoad(
    () =>
      api<Page<VacationBalance>>(
        'GET',
        `/${mode}/vacation-balances${query({ year, employee_id: employee.id })}`,
      ),
    [mode, employee.id, year, version],
  );
  const row = balance.data?.data[0];
  return (
    <section aria-labelledby={`vacation-${employee.id}`}>
      <h3 id={`vacation-${employee.id}`}>{t('Vacation {{year}}', { year })}</h3>
      <ErrorMessage error={balance.error} />
      {row ? (
        <dl className="figures">
          <dt>{t('Entitled')}</dt>
          <dd>{t('{{count}} days', { count: row.entitled_days })}</dd>
          <dt>{t('Carried over')}</dt>
          <dd>
            {t('{{count}} days', { count: row.carry_over_days })}
            {row.carry_over_expires_at
              ? ` (${t('until {{date}}', { date: formatDate(row.carry_over_expires_at.slice(0, 10)) })})`
              : ''}
          </dd>
          <dt>{t('Taken')}</dt>
          <dd>{t('{{count}} days', { count: row.used_days })}</dd>
          <dt>{t('Requested')}</dt>
          <dd>{t('{{count}} days', { count: row.pending_days })}</dd>
          <dt>{t('Left')}</dt>
          <dd>
            <strong>{t('{{count}} days', { count: row.remaining_days })}</strong>
          </dd>
        </dl>
      ) : (
        <Loading loading={balance.loading} />
      )}
    </section>
  );
}
