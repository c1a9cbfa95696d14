import { type FormEvent, useEffect, useState } from 'react';
import { allPages, api, hhmm, type Mode } from '../../../shared/api.ts';
import { formatDate, useT } from '../../../shared/i18n.ts';
import { addDays, todayIn } from '../../../shared/zoned.ts';
import { can } from '../can.ts';
import type { Company, Employee, Location, Shift, ShiftTemplate } from '../types.ts';
import { ErrorMessage, Field, Loading, NamedSelect, ScrollBox, useAction, useLoad } from '../ui.tsx';
import { ImportShifts } from './import.tsx';

type RotaPattern = { id: string; name: string; cycle: Array<string | null> };
type Unit = { id: string; name: string };

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** The Monday of a date's week. */
function mondayOf(date: string): string {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return addDays(date, -((day + 6) % 7));
}

/** A phone shows one day at a time (issue 38). */
function useNarrow(): boolean {
  const query = '(max-width: 700px)';
  const [narrow, setNarrow] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const media = window.matchMedia(query);
    const update = () => setNarrow(media.matches);
    media.addEventListener('change', update);
    return () => media.removeEventListener('change', update);
  }, []);
  return narrow;
}

const fullName = (employee: Employee) => `${employee.first_name} ${employee.last_name}`;

/**
 * The planner (issue 38): employees by the days of a week, filtered by work centre and by unit. Choose a template
 * and place it on a cell; copy last week; apply a rota pattern from this Monday; publish the week, which shows the
 * drafts to the workers. Each row adds up its planned hours against the contract's, and the foot those of the
 * employees shown (a centre's or a unit's hours). On a phone, one day at a time.
 */
export function PlannerScreen({ mode, company }: { mode: Mode; company: Company }) {
  const t = useT();
  const narrow = useNarrow();
  const [monday, setMonday] = useState(() => mondayOf(todayIn(company.timezone)));
  const [day, setDay] = useState(0);
  const [location, setLocation] = useState('');
  const [unit, setUnit] = useState('');
  const [template, setTemplate] = useState('');
  const [pattern, setPattern] = useState('');
  const [done, setDone] = useState('');
  const days = WEEKDAYS.map((_, index) => addDays(monday, index));
  const sunday = days[6] as string;
  const data = useLoad(async () => {
    const [employees, shifts, lastWeek, templates, patterns, locations, units] = await Promise.all([
      allPages<Employee>(`/${mode}/employees/search`, { status: 'active' }),
      allPages<Shift>(`/${mode}/shifts`, { from: monday, to: sunday }),
      allPages<Shift>(`/${mode}/shifts`, { from: addDays(monday, -7), to: addDays(monday, -1) }),
      allPages<ShiftTemplate>(`/${mode}/shift-templates`, {}),
      allPages<RotaPattern>(`/${mode}/rota-patterns`, {}),
      allPages<Location>(`/${mode}/locations`, {}),
      allPages<Unit>(`/${mode}/units`, {}),
    ]);
    return { employees, shifts, lastWeek, templates, patterns, locations, units };
  }, [mode, monday]);
  const action = useAction();
  const loaded = data.data;
  const shown =
    loaded?.employees.filter(
      (employee) => (!location || employee.location_id === location) && (!unit || employee.unit_id === unit),
    ) ?? [];
  const filtered = Boolean(location || unit);
  const shiftsOf = (employeeId: string, date: string) =>
    loaded?.shifts.filter((shift) => shift.employee_id === employeeId && shift.date === date) ?? [];
  const chosen = loaded?.templates.find((item) => item.id === template);
  const run = async (work: () => Promise<string>) => {
    setDone('');
    const message = await action.run(work);
    if (message) {
      setDone(message);
      data.reload();
    }
  };
  const place = (employee: Employee, date: string) =>
    run(async () => {
      if (!chosen) return '';
      await api('POST', `/${mode}/shifts`, {
        employee_id: employee.id,
        date,
        start: chosen.start,
        end: chosen.end,
        break_minutes: chosen.break_minutes,
        kind: chosen.kind,
        template_id: chosen.id,
      });
      return t('{{template}} placed for {{name}} on {{date}}.', {
        template: chosen.name,
        name: fullName(employee),
        date: formatDate(date, { weekday: 'long', day: 'numeric', month: 'long' }),
      });
    });
  const remove = (shift: Shift, employee: Employee) =>
    run(async () => {
      await api('DELETE', `/${mode}/shifts/${shift.id}`);
      return t('Shift of {{name}} on {{date}} removed.', {
        name: fullName(employee),
        date: formatDate(shift.date, { weekday: 'long', day: 'numeric', month: 'long' }),
      });
    });
  const copyLastWeek = () =>
    run(async () => {
      const ids = new Set(shown.map((employee) => employee.id));
      const shifts = (loaded?.lastWeek ?? [])
        .filter((shift) => ids.has(shift.employee_id))
        .map((shift) => ({
          employee_id: shift.employee_id,
          date: addDays(shift.date, 7),
          start: shift.start,
          end: shift.end,
          break_minutes: shift.break_minutes,
          kind: shift.kind,
          location_id: shift.location_id,
          work_mode: shift.work_mode,
          template_id: shift.template_id,
          note: shift.note,
        }));
      if (shifts.length === 0) return t('Last week has no shift to copy.');
      await api('POST', `/${mode}/shifts/bulk`, { shifts });
      return t('{{count}} shifts copied from last week as drafts.', { count: shifts.length });
    });
  const applyPattern = () =>
    run(async () => {
      if (!pattern || shown.length === 0) return '';
      const result = await api<{ created: number; skipped: number }>(
        'POST',
        `/${mode}/rota-patterns/${pattern}/apply`,
        { employee_ids: shown.map((employee) => employee.id), from: monday, to: sunday },
      );
      return t('Rota pattern applied: {{created}} drafts, {{skipped}} days left as they were.', result);
    });
  const publish = () =>
    run(async () => {
      const result = await api<{ published: number }>('POST', `/${mode}/shifts/publish`, {
        from: monday,
        to: sunday,
        ...(filtered ? { employee_ids: shown.map((employee) => employee.id) } : {}),
      });
      return t('{{count}} shifts published: the workers see them.', { count: result.published });
    });
  const heading = (date: string) => formatDate(date, { weekday: 'short', day: 'numeric', month: 'short' });
  // The contract's weekly minutes (a part-timer's declared week), else its schedule's sum.
  const contractMinutes = (employee: Employee) =>
    employee.weekly_minutes ??
    WEEKDAYS.reduce((sum, weekday) => sum + (employee.work_schedule?.[weekday] ?? 0), 0);
  const plannedMinutes = (employee: Employee) =>
    loaded?.shifts
      .filter((shift) => shift.employee_id === employee.id)
      .reduce((sum, shift) => sum + shift.planned_minutes, 0) ?? 0;
  const totalPlanned = shown.reduce((sum, employee) => sum + plannedMinutes(employee), 0);
  const totalContract = shown.reduce((sum, employee) => sum + contractMinutes(employee), 0);
  const drafts = loaded?.shifts.filter((shift) => shift.status === 'draft').length ?? 0;

  // Who may only read the plan (a team lead, payroll) sees the shifts, not the tools that change them.
  const plans = can('createShift');
  const cell = (employee: Employee, date: string) => (
    <div className="shift-cell">
      {!plans &&
        shiftsOf(employee.id, date).map((shift) => (
          <span key={shift.id} className={`shift shift-${shift.status}`}>
            {shift.start}–{shift.end}
          </span>
        ))}
      {plans &&
        shiftsOf(employee.id, date).map((shift) => (
          <button
            key={shift.id}
            type="button"
            className={`shift shift-${shift.status}`}
            disabled={action.busy}
            onClick={() => void remove(shift, employee)}
          >
            {shift.start}–{shift.end}
            {shift.status === 'draft' && <span className="muted"> · {t('draft')}</span>}
            <span className="visually-hidden">
              {' '}
              {t('(remove the shift of {{name}} on {{date}})', {
                name: fullName(employee),
                date: heading(date),
              })}
            </span>
          </button>
        ))}
      {chosen && plans && (
        <button
          type="button"
          className="secondary add-shift"
          aria-label={t('Place {{template}} for {{name}} on {{date}}', {
            template: chosen.name,
            name: fullName(employee),
            date: heading(date),
          })}
          disabled={action.busy}
          onClick={() => void place(employee, date)}
        >
          +
        </button>
      )}
    </div>
  );

  return (
    <>
      <div className="row">
        <button type="button" className="secondary" onClick={() => setMonday(addDays(monday, -7))}>
          {t('Previous week')}
        </button>
        <strong>
          {t('Week of {{date}}', {
            date: formatDate(monday, { day: 'numeric', month: 'long', year: 'numeric' }),
          })}
        </strong>
        <button type="button" className="secondary" onClick={() => setMonday(addDays(monday, 7))}>
          {t('Next week')}
        </button>
      </div>
      <div className="grid">
        <Field label={t('Work centre')}>
          <NamedSelect value={location} onChange={setLocation} items={loaded?.locations} none={t('All')} />
        </Field>
        <Field label={t('Unit')}>
          <NamedSelect value={unit} onChange={setUnit} items={loaded?.units} none={t('All')} />
        </Field>
        {plans && (
          <>
            <Field label={t('Template to place')} hint={t('Then choose + on a day of an employee.')}>
              <NamedSelect
                value={template}
                onChange={setTemplate}
                items={loaded?.templates}
                none={t('None')}
              />
            </Field>
            <Field label={t('Rota pattern')}>
              <NamedSelect value={pattern} onChange={setPattern} items={loaded?.patterns} none={t('None')} />
            </Field>
          </>
        )}
      </div>
      <div className="row" hidden={!plans}>
        <button
          type="button"
          className="secondary"
          disabled={action.busy || !loaded}
          onClick={() => void copyLastWeek()}
        >
          {t('Copy last week')}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={action.busy || !pattern}
          onClick={() => void applyPattern()}
        >
          {t('Apply the rota pattern to this week')}
        </button>
        <button type="button" disabled={action.busy || drafts === 0} onClick={() => void publish()}>
          {t('Publish the week ({{count}} drafts)', { count: drafts })}
        </button>
      </div>
      <ErrorMessage error={action.error ?? data.error} />
      {done && <p role="status">{done}</p>}
      <Loading loading={data.loading && !loaded} />
      {loaded && narrow && (
        <section aria-labelledby="planner-day">
          <div className="row">
            <button
              type="button"
              className="secondary"
              disabled={day === 0}
              onClick={() => setDay(day - 1)}
              aria-label={t('Previous day')}
            >
              ‹
            </button>
            <h2 id="planner-day">
              {formatDate(days[day] as string, { weekday: 'long', day: 'numeric', month: 'long' })}
            </h2>
            <button
              type="button"
              className="secondary"
              disabled={day === 6}
              onClick={() => setDay(day + 1)}
              aria-label={t('Next day')}
            >
              ›
            </button>
          </div>
          <ul className="list planner-day">
            {shown.map((employee) => (
              <li key={employee.id}>
                <strong>{fullName(employee)}</strong>
                {cell(employee, days[day] as string)}
              </li>
            ))}
          </ul>
          <p className="muted">
            {t('Total of the employees shown')}: {hhmm(totalPlanned)} / {hhmm(totalContract)} ({t('week')})
          </p>
        </section>
      )}
      {loaded && !narrow && (
        <ScrollBox label={t('Planner, week of {{date}}', { date: heading(monday) })}>
          <table className="planner">
            <thead>
              <tr>
                <th scope="col">{t('Employee')}</th>
                {days.map((date) => (
                  <th scope="col" key={date}>
                    {heading(date)}
                  </th>
                ))}
                <th scope="col">{t('Planned / contract')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((employee) => {
                const planned = plannedMinutes(employee);
                const contract = contractMinutes(employee);
                return (
                  <tr key={employee.id}>
                    <th scope="row">{fullName(employee)}</th>
                    {days.map((date) => (
                      <td key={date}>{cell(employee, date)}</td>
                    ))}
                    <td className={planned > contract ? 'over' : undefined}>
                      {hhmm(planned)} / {hhmm(contract)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t('Total of the employees shown')}</th>
                <td colSpan={days.length} />
                <td className={totalPlanned > totalContract ? 'over' : undefined}>
                  {hhmm(totalPlanned)} / {hhmm(totalContract)}
                </td>
              </tr>
            </tfoot>
          </table>
        </ScrollBox>
      )}
      {loaded && shown.length === 0 && <p className="muted">{t('No employee matches.')}</p>}
      {plans && mode === 'live' && can('dashboardImportShifts') && (
        <details className="card">
          <summary>{t('Import a week plan')}</summary>
          <ImportShifts
            onImported={(count) => {
              setDone(t('Placed {{count}} draft shifts.', { count }));
              data.reload();
            }}
          />
        </details>
      )}
      <div className="planner-forms" hidden={!plans}>
        <TemplateForm mode={mode} onSaved={data.reload} />
        <PatternForm mode={mode} templates={loaded?.templates ?? []} onSaved={data.reload} />
      </div>
    </>
  );
}

/**
 * What the planner's two forms share: a name, the request that creates the thing, and the sentence said once it
 * is created (the name is cleared and the planner reloads).
 */
function useNamedCreate(onSaved: () => void) {
  const [name, setName] = useState('');
  const [saved, setSaved] = useState('');
  const action = useAction();
  const submit =
    (create: () => Promise<unknown>, said: (name: string) => string) => async (event: FormEvent) => {
      event.preventDefault();
      setSaved('');
      if (await action.run(create)) {
        setSaved(said(name));
        setName('');
        onSaved();
      }
    };
  return { name, setName, saved, action, submit };
}

/** A new shift template: a name, its start and end (an end at or before the start is the next day's), a break. */
function TemplateForm({ mode, onSaved }: { mode: Mode; onSaved: () => void }) {
  const t = useT();
  const { name, setName, saved, action, submit: submitting } = useNamedCreate(onSaved);
  const [start, setStart] = useState('09:00');
  const [end, setEnd] = useState('17:00');
  const [pause, setPause] = useState('30');
  const submit = submitting(
    () => api('POST', `/${mode}/shift-templates`, { name, start, end, break_minutes: Number(pause) || 0 }),
    (created) => t('Template {{name}} created.', { name: created }),
  );
  return (
    <form onSubmit={submit} className="card" aria-labelledby="template-title">
      <h2 id="template-title">{t('New shift template')}</h2>
      <Field label={t('Name')} name="name" error={action.error}>
        <input required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
      </Field>
      <div className="grid">
        <Field label={t('Start')} name="start" error={action.error}>
          <input type="time" required value={start} onChange={(event) => setStart(event.target.value)} />
        </Field>
        <Field
          label={t('End')}
          hint={t('At or before the start: the next day.')}
          name="end"
          error={action.error}
        >
          <input type="time" required value={end} onChange={(event) => setEnd(event.target.value)} />
        </Field>
        <Field label={t('Break (minutes)')} name="break_minutes" error={action.error}>
          <input
            type="number"
            min={0}
            max={1440}
            value={pause}
            onChange={(event) => setPause(event.target.value)}
          />
        </Field>
      </div>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {t('Create template')}
      </button>
      {saved && <p role="status">{saved}</p>}
    </form>
  );
}

/** A new rota pattern: a cycle of days, each a template or rest. */
function PatternForm({
  mode,
  templates,
  onSaved,
}: {
  mode: Mode;
  templates: ShiftTemplate[];
  onSaved: () => void;
}) {
  const t = useT();
  const { name, setName, saved, action, submit: submitting } = useNamedCreate(onSaved);
  // Each day of the cycle: its template (empty: rest), and a key of its own for the list.
  const [cycle, setCycle] = useState(() => Array.from({ length: 7 }, (_, day) => ({ day, template: '' })));
  const submit = submitting(
    () => api('POST', `/${mode}/rota-patterns`, { name, cycle: cycle.map((item) => item.template || null) }),
    (created) => t('Rota pattern {{name}} created.', { name: created }),
  );
  return (
    <form onSubmit={submit} className="card" aria-labelledby="pattern-title">
      <h2 id="pattern-title">{t('New rota pattern')}</h2>
      <Field label={t('Name')} name="name" error={action.error}>
        <input required maxLength={100} value={name} onChange={(event) => setName(event.target.value)} />
      </Field>
      <Field label={t('Days in the cycle')} hint={t('Each day: a template, or rest.')}>
        <input
          type="number"
          min={1}
          max={28}
          value={cycle.length}
          onChange={(event) => {
            const length = Math.min(28, Math.max(1, Number(event.target.value) || 1));
            setCycle(Array.from({ length }, (_, day) => cycle[day] ?? { day, template: '' }));
          }}
        />
      </Field>
      <div className="grid">
        {cycle.map((item) => (
          <Field key={item.day} label={t('Day {{number}}', { number: item.day + 1 })}>
            <NamedSelect
              value={item.template}
              onChange={(value) =>
                setCycle(
                  cycle.map((other) => (other.day === item.day ? { ...other, template: value } : other)),
                )
              }
              items={templates}
              none={t('Rest')}
            />
          </Field>
        ))}
      </div>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy || templates.length === 0}>
        {t('Create rota pattern')}
      </button>
      {saved && <p role="status">{saved}</p>}
    </form>
  );
}
