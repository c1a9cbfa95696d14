import { type FormEvent, useState } from 'react';
import { api, formatInstant, formatMinutes, type Mode, type Page, query } from '../api.ts';
import type { Employee, Location, VacationBalance } from '../types.ts';
import { ErrorMessage, Field, Loading, NamedSelect, Table, useAction, useLoad } from '../ui.tsx';
import { todayIn } from '../zoned.ts';

const WEEKDAYS = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
] as const;
type Weekday = (typeof WEEKDAYS)[number][0];
type Schedule = Record<Weekday, number>;
type ContractPeriod = {
  effective_from: string;
  effective_to: string | null;
  work_schedule: Schedule;
  vacation_days_per_year: number;
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
        <h3 id={`history-${employee.id}`}>Contract history</h3>
        <ErrorMessage error={history.error} />
        <Loading loading={history.loading && !history.data} />
        <Table
          label="Contract periods"
          columns={['From', 'To', 'Week', 'Vacation days', 'Recorded']}
          empty="No contract period."
          rows={history.data?.data.map((period) => (
            <tr key={period.effective_from}>
              <td>{period.effective_from}</td>
              <td>{period.effective_to ?? 'ongoing'}</td>
              <td>
                {WEEKDAYS.map(
                  ([key, name]) => `${name.slice(0, 2)} ${hoursText(period.work_schedule[key])}`,
                ).join(', ')}
              </td>
              <td>{period.vacation_days_per_year}</td>
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
  const [week, setWeek] = useState<Record<Weekday, string>>(
    () =>
      Object.fromEntries(WEEKDAYS.map(([key]) => [key, hours(employee.work_schedule[key])])) as Record<
        Weekday,
        string
      >,
  );
  const [vacation, setVacation] = useState(String(employee.vacation_days_per_year));
  const [from, setFrom] = useState(() => todayIn(employee.timezone ?? companyTimeZone));
  const action = useAction();
  const total = WEEKDAYS.reduce((sum, [key]) => sum + minutesOf(week[key]), 0);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await action.run(() =>
      api<Employee>('PATCH', `/${mode}/employees/${employee.id}`, {
        work_schedule: Object.fromEntries(WEEKDAYS.map(([key]) => [key, minutesOf(week[key])])),
        vacation_days_per_year: Number(vacation),
        effective_from: from,
      }),
    );
    if (saved) onSaved(saved);
  };
  return (
    <form onSubmit={submit} className="card" aria-label="Schedule and vacation">
      <h3>Schedule and vacation</h3>
      <fieldset>
        <legend>Hours per weekday (this week: {formatMinutes(total)})</legend>
        <div className="grid week">
          {WEEKDAYS.map(([key, name]) => (
            <Field key={key} label={name} name={`work_schedule.${key}`} error={action.error}>
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
        <Field label="Vacation days a year" name="vacation_days_per_year" error={action.error}>
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
          label="From"
          hint="The first day the new values apply; earlier days keep theirs."
          name="effective_from"
          error={action.error}
        >
          <input type="date" required value={from} onChange={(event) => setFrom(event.target.value)} />
        </Field>
      </div>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        Save schedule and vacation
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
    <form onSubmit={submit} className="card" aria-label="Assignment and registry">
      <h3>Assignment and registry</h3>
      <div className="grid">
        <Field label="Work centre" name="location_id" error={action.error}>
          <NamedSelect value={location} onChange={setLocation} items={options.data?.locations} none="None" />
        </Field>
        <Field label="Unit" name="unit_id" error={action.error}>
          <NamedSelect value={unit} onChange={setUnit} items={options.data?.units} none="None" />
        </Field>
        <Field
          label="Time zone"
          hint="Empty: the company’s. An IANA name, e.g. Atlantic/Canary."
          name="timezone"
          error={action.error}
        >
          <input value={zone} onChange={(event) => setZone(event.target.value)} />
        </Field>
        <Field
          label="Tracking start"
          hint="Their own first registry day, when later than the company’s."
          name="tracking_start_date"
          error={action.error}
        >
          <input type="date" value={start} onChange={(event) => setStart(event.target.value)} />
        </Field>
        <Field
          label="Opening banked balance (hours)"
          hint="Carried in from before the tracking start; negative when owed."
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
        Save assignment
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
      <h3 id={`vacation-${employee.id}`}>Vacation {year}</h3>
      <ErrorMessage error={balance.error} />
      {row ? (
        <dl className="figures">
          <dt>Entitled</dt>
          <dd>{row.entitled_days} days</dd>
          <dt>Carried over</dt>
          <dd>
            {row.carry_over_days} days
            {row.carry_over_expires_at ? ` (until ${row.carry_over_expires_at})` : ''}
          </dd>
          <dt>Taken</dt>
          <dd>{row.used_days} days</dd>
          <dt>Requested</dt>
          <dd>{row.pending_days} days</dd>
          <dt>Left</dt>
          <dd>
            <strong>{row.remaining_days} days</strong>
          </dd>
        </dl>
      ) : (
        <Loading loading={balance.loading} />
      )}
    </section>
  );
}
