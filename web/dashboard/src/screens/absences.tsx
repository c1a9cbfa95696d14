import { type FormEvent, useEffect, useState } from 'react';
import { allPages, api, type Mode, type Page, query } from '../../../shared/api.ts';
import { formatDate, formatDateRange, formatMonth, formatNumber, useT } from '../../../shared/i18n.ts';
import { monthDays, todayIn } from '../../../shared/zoned.ts';
import { can } from '../can.ts';
import { statusLabel } from '../labels.ts';
import type { Absence, Company, Location, VacationBalance } from '../types.ts';
import {
  BulkApproval,
  CalendarMonth,
  ConfirmButton,
  DateRange,
  ErrorMessage,
  eachInTurn,
  Field,
  Loading,
  NamedSelect,
  ScrollBox,
  SelectBox,
  useAction,
  useLoad,
  useSelection,
} from '../ui.tsx';
import { type Employee, fullName } from './names.ts';

type Holiday = { date: string; name: string; location_id: string | null; scope: string };
type Unit = { id: string; name: string };
type AbsenceType = { key: string; label: string };

const weekday = (date: string) => formatDate(date, { weekday: 'narrow' });

const overlaps = (absence: Absence, from: string, to: string) =>
  absence.start_date <= to && absence.end_date >= from;

/**
 * The team calendar (issue 17): a month of absences and holidays per employee, filtered by work centre and unit,
 * with the requests beside it. Approving asks first and shows the vacation balance after it and who else is
 * off those days; rejecting takes a reason; an approved absence can be cancelled; an absence can be created for
 * an employee.
 */
/** Saturday or Sunday: shaded in the month grid (issue 39). */
const weekend = (date: string) => Temporal.PlainDate.from(date).dayOfWeek >= 6;

export function AbsencesScreen({ mode, company }: { mode: Mode; company: Company }) {
  const t = useT();
  const [month, setMonth] = useState(() => todayIn(company.timezone).slice(0, 7));
  const [location, setLocation] = useState('');
  const [unit, setUnit] = useState('');
  const [done, setDone] = useState('');
  const days = monthDays(month);
  const from = days[0] as string;
  const to = days.at(-1) as string;
  const data = useLoad(async () => {
    const [employees, absences, holidays, locations, units, types, requests] = await Promise.all([
      allPages<Employee>(`/${mode}/employees/search`, { status: 'active' }),
      allPages<Absence>(`/${mode}/absences`, { from, to }),
      api<{ data: Holiday[] }>('GET', `/${mode}/holidays/range${query({ from, to })}`),
      allPages<Location>(`/${mode}/locations`, {}),
      allPages<Unit>(`/${mode}/units`, {}),
      allPages<AbsenceType>(`/${mode}/absence-types`, {}),
      allPages<Absence>(`/${mode}/absences`, { status: 'requested' }),
    ]);
    return { employees, absences, holidays: holidays.data, locations, units, types, requests };
  }, [mode, month]);
  const action = useAction();
  const selection = useSelection();
  const [left, setLeft] = useState<string[]>([]);
  const reload = (message: string) => {
    setDone(message);
    setLeft([]);
    data.reload();
  };
  const loaded = data.data;
  const names = new Map(loaded?.employees.map((employee) => [employee.id, fullName(employee)]) ?? []);
  const shown =
    loaded?.employees.filter(
      (employee) => (!location || employee.location_id === location) && (!unit || employee.unit_id === unit),
    ) ?? [];
  // The header marks the company's holidays; each row, the company's and the employee's work centre's (a
  // regional holiday without a centre is the calendar of the employees without one).
  const everyone = (holiday: Holiday) => holiday.location_id === null && holiday.scope !== 'regional';
  const holidays = new Map(loaded?.holidays.filter(everyone).map((h) => [h.date, h.name]) ?? []);
  // The others by centre and date, read once per cell of the grid.
  const localHolidays = new Map(
    loaded?.holidays
      .filter((holiday) => !everyone(holiday))
      .map((holiday) => [`${holiday.location_id}|${holiday.date}`, holiday.name]) ?? [],
  );
  const holidayOf = (employee: Employee, date: string) =>
    holidays.get(date) ?? localHolidays.get(`${employee.location_id}|${date}`);
  const live =
    loaded?.absences.filter((absence) => absence.status === 'approved' || absence.status === 'requested') ??
    [];

  // Many requests at once (issue 39): each approved through its own call; vacation beyond the balance is left
  // for a decision on its own, where the figure is shown and "approve anyway" is explicit.
  const approveSelected = () =>
    void action.run(async () => {
      const chosen = (loaded?.requests ?? []).filter((absence) => selection.has(absence.id));
      const result = await eachInTurn(
        chosen,
        async (absence) => {
          if (absence.type.key === 'vacation') {
            const year = Number(absence.start_date.slice(0, 4));
            const balance = await api<Page<VacationBalance>>(
              'GET',
              `/${mode}/vacation-balances${query({ year, employee_id: absence.employee_id })}`,
            );
            const remaining = balance.data[0]?.remaining_days ?? 0;
            if (remaining < 0) {
              return t('it would leave {{days}} vacation days; approve it on its own', {
                days: formatNumber(remaining),
              });
            }
          }
          await api('POST', `/${mode}/absences/${absence.id}/approve`, {});
          return null;
        },
        (absence) => names.get(absence.employee_id) ?? absence.employee_id,
      );
      selection.keep();
      setDone(t('Approved {{count}} requests.', { count: result.done }));
      setLeft(result.left);
      data.reload();
    });

  const decide = (absence: Absence, decision: 'approve' | 'reject' | 'cancel', reason?: string) =>
    void action.run(async () => {
      await api('POST', `/${mode}/absences/${absence.id}/${decision}`, reason ? { reason } : {});
      const who = names.get(absence.employee_id) ?? absence.employee_id;
      const verb = { approve: t('Approved'), reject: t('Rejected'), cancel: t('Cancelled') }[decision];
      reload(
        `${verb}: ${who}, ${absence.type.label}, ${formatDateRange(absence.start_date, absence.end_date)}.`,
      );
    });

  return (
    <>
      {done && <p role="status">{done}</p>}
      <ErrorMessage error={data.error ?? action.error} />
      <div className="row">
        <CalendarMonth label={t('Month')} month={month} onMonth={setMonth} />
        <Field label={t('Work centre')}>
          <NamedSelect value={location} onChange={setLocation} items={loaded?.locations} none={t('All')} />
        </Field>
        <Field label={t('Unit')}>
          <NamedSelect value={unit} onChange={setUnit} items={loaded?.units} none={t('All')} />
        </Field>
      </div>
      <Loading loading={data.loading && !loaded} />
      {loaded && (
        <div className="calendar-layout">
          <section aria-labelledby="calendar-title">
            <h2 id="calendar-title">
              {t('Absences and holidays, {{month}}', { month: formatMonth(month) })}
            </h2>
            <p className="muted legend">
              <span className="cell-approved">V</span> {t('approved')} ·{' '}
              <span className="cell-requested">V</span> {t('requested')} ·{' '}
              <span className="cell-holiday">·</span> {t('holiday')} · <span className="weekend">·</span>{' '}
              {t('weekend')}
            </p>
            <ScrollBox label={t('Team calendar, {{month}}', { month: formatMonth(month) })}>
              <table className="calendar">
                <thead>
                  <tr>
                    <th scope="col">{t('Employee')}</th>
                    {days.map((date) => (
                      <th
                        scope="col"
                        key={date}
                        className={
                          holidays.has(date) ? 'cell-holiday' : weekend(date) ? 'weekend' : undefined
                        }
                        title={holidays.get(date)}
                      >
                        <span aria-hidden="true">
                          {weekday(date)}
                          <br />
                        </span>
                        {Number(date.slice(8))}
                        {holidays.has(date) && (
                          <span className="visually-hidden"> ({holidays.get(date)})</span>
                        )}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {shown.map((employee) => (
                    <tr key={employee.id}>
                      <th scope="row">{fullName(employee)}</th>
                      {days.map((date) => {
                        const absence = live.find(
                          (item) => item.employee_id === employee.id && overlaps(item, date, date),
                        );
                        const holiday = holidayOf(employee, date);
                        return (
                          <td
                            key={date}
                            className={
                              absence
                                ? `cell-${absence.status}`
                                : holiday
                                  ? 'cell-holiday'
                                  : weekend(date)
                                    ? 'weekend'
                                    : undefined
                            }
                            title={
                              absence ? `${absence.type.label} (${t(statusLabel(absence.status))})` : holiday
                            }
                          >
                            {absence && (
                              <>
                                <span aria-hidden="true">{absence.type.label.charAt(0)}</span>
                                <span className="visually-hidden">
                                  {absence.type.label}, {t(statusLabel(absence.status))}
                                </span>
                              </>
                            )}
                            {/* A local holiday is in no column header: the cell names it. */}
                            {!absence && holiday && !holidays.has(date) && (
                              <span className="visually-hidden">{holiday}</span>
                            )}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollBox>
            {shown.length === 0 && <p className="muted">{t('No employee matches.')}</p>}
          </section>

          <section className="card" aria-labelledby="requests-title">
            <h2 id="requests-title">{t('Requests ({{number}})', { number: loaded.requests.length })}</h2>
            {loaded.requests.length === 0 && <p className="muted">{t('Nothing to decide.')}</p>}
            {can('approveAbsence') && (loaded.requests.length > 1 || left.length > 0) && (
              <BulkApproval
                count={selection.size}
                title={t('Approve {{count}} requests?', { count: selection.size })}
                explanation={t(
                  'Each is checked on its own; one beyond the balance is left for you to decide alone.',
                )}
                busy={action.busy}
                left={left}
                onApprove={approveSelected}
              />
            )}
            <ul className="requests">
              {loaded.requests.map((absence) => {
                const who = names.get(absence.employee_id) ?? absence.employee_id;
                return (
                  <li key={absence.id}>
                    {can('approveAbsence') && loaded.requests.length > 1 && (
                      <SelectBox
                        selection={selection}
                        id={absence.id}
                        label={t('Select {{who}}’s request', { who })}
                      />
                    )}
                    <strong>{who}</strong>: {absence.type.label},{' '}
                    {formatDateRange(absence.start_date, absence.end_date)} (
                    {t('{{count}} days', { count: absence.days_count })})
                    {absence.note && <span className="muted"> · “{absence.note}”</span>}
                    <div className="row" hidden={!can('approveAbsence')}>
                      <ApproveButton
                        mode={mode}
                        absence={absence}
                        who={who}
                        names={names}
                        disabled={action.busy}
                        onApprove={() => decide(absence, 'approve')}
                      />
                      <RejectButton
                        who={who}
                        disabled={action.busy}
                        onReject={(reason) => decide(absence, 'reject', reason)}
                      />
                    </div>
                  </li>
                );
              })}
            </ul>
            <h2>{t('Approved in {{month}}', { month: formatMonth(month) })}</h2>
            {!live.some((absence) => absence.status === 'approved') && (
              <p className="muted">{t('No approved absence this month.')}</p>
            )}
            <ul className="requests">
              {live
                .filter((absence) => absence.status === 'approved')
                .map((absence) => {
                  const who = names.get(absence.employee_id) ?? absence.employee_id;
                  return (
                    <li key={absence.id}>
                      <strong>{who}</strong>: {absence.type.label},{' '}
                      {formatDateRange(absence.start_date, absence.end_date)}
                      <div className="row">
                        <ConfirmButton
                          label={t('Cancel {{who}}’s {{type}} from {{date}}', {
                            who,
                            type: absence.type.label.toLowerCase(),
                            date: formatDate(absence.start_date),
                          })}
                          title={t('Cancel {{who}}’s {{type}}?', {
                            who,
                            type: absence.type.label.toLowerCase(),
                          })}
                          confirmLabel={t('Cancel the absence')}
                          disabled={action.busy}
                          onConfirm={() => decide(absence, 'cancel')}
                        >
                          <p>
                            {formatDateRange(absence.start_date, absence.end_date)}:{' '}
                            {t(
                              'those days count as working days again, and the vacation days come back to the balance.',
                            )}
                          </p>
                        </ConfirmButton>
                      </div>
                    </li>
                  );
                })}
            </ul>
          </section>
        </div>
      )}
      {loaded && can('createAbsence') && (
        <CreateAbsence
          mode={mode}
          employees={loaded.employees}
          types={loaded.types}
          onCreated={(message) => reload(message)}
        />
      )}
    </>
  );
}

/**
 * Approving asks first, with what it changes; approving vacation beyond the balance needs its own button that
 * says the figure ("Approve anyway: −8 days left"), after a warning (issue 39: "−2 días" was shown as if normal).
 */
function ApproveButton({
  mode,
  absence,
  who,
  names,
  disabled,
  onApprove,
}: {
  mode: Mode;
  absence: Absence;
  who: string;
  names: Map<string, string>;
  disabled: boolean;
  onApprove: () => void;
}) {
  const t = useT();
  const [left, setLeft] = useState<number | null>(null);
  const over = left !== null && left < 0;
  return (
    <ConfirmButton
      label={t('Approve {{who}}', { who })}
      title={t('Approve {{who}}’s {{type}}?', { who, type: absence.type.label.toLowerCase() })}
      confirmLabel={
        over ? t('Approve anyway: {{days}} days left', { days: formatNumber(left ?? 0) }) : t('Approve')
      }
      danger={over}
      disabled={disabled}
      onConfirm={onApprove}
    >
      {(open) => open && <ApprovalPreview mode={mode} absence={absence} names={names} onBalance={setLeft} />}
    </ConfirmButton>
  );
}

/** What approving changes: the vacation balance after it, and who else is off those days. */
function ApprovalPreview({
  mode,
  absence,
  names,
  onBalance,
}: {
  mode: Mode;
  absence: Absence;
  names: Map<string, string>;
  /** Told the vacation days left after approving (null: not vacation). */
  onBalance: (left: number | null) => void;
}) {
  const t = useT();
  const year = Number(absence.start_date.slice(0, 4));
  const preview = useLoad(async () => {
    const [balances, others] = await Promise.all([
      absence.type.key === 'vacation'
        ? api<Page<VacationBalance>>(
            'GET',
            `/${mode}/vacation-balances${query({ year, employee_id: absence.employee_id })}`,
          )
        : Promise.resolve(null),
      allPages<Absence>(`/${mode}/absences`, { from: absence.start_date, to: absence.end_date }),
    ]);
    return {
      balance: balances?.data[0] ?? null,
      others: others.filter(
        (other) =>
          other.employee_id !== absence.employee_id &&
          (other.status === 'approved' || other.status === 'requested'),
      ),
    };
  }, [mode, absence.id]);
  const left = preview.data?.balance ? preview.data.balance.remaining_days : null;
  useEffect(() => onBalance(left), [left, onBalance]);
  if (!preview.data) return <Loading loading={preview.loading} />;
  const { balance, others } = preview.data;
  return (
    <>
      <p>
        {formatDateRange(absence.start_date, absence.end_date)}:{' '}
        {t('{{count}} working days.', { count: absence.days_count })}
      </p>
      {balance && (
        <dl className="figures">
          <dt>{t('Vacation {{year}}', { year })}</dt>
          <dd>
            {t('{{count}} days', { count: balance.entitled_days + balance.carry_over_days })} (
            {t('{{count}} entitled', { count: balance.entitled_days })}
            {balance.carry_over_days > 0
              ? ` + ${t('{{count}} carried over', { count: balance.carry_over_days })}`
              : ''}
            )
          </dd>
          <dt>{t('Taken after approval')}</dt>
          <dd>{t('{{count}} days', { count: balance.used_days + absence.days_count })}</dd>
          <dt>{t('Left after approval')}</dt>
          <dd>
            <strong>{t('{{count}} days', { count: balance.remaining_days })}</strong>
            {balance.pending_days > absence.days_count &&
              ` (${t('counting {{count}} more requested', { count: balance.pending_days - absence.days_count })})`}
          </dd>
        </dl>
      )}
      {balance && balance.remaining_days < 0 && (
        <p className="field-error" role="alert">
          {t('This leaves {{days}} vacation days: more than the balance allows.', {
            days: formatNumber(balance.remaining_days),
          })}
        </p>
      )}
      <h4>{t('Also off those days')}</h4>
      {others.length === 0 ? (
        <p className="muted">{t('Nobody else.')}</p>
      ) : (
        <ul className="list">
          {others.map((other) => (
            <li key={other.id}>
              {names.get(other.employee_id) ?? other.employee_id}: {other.type.label},{' '}
              {formatDateRange(other.start_date, other.end_date)}
              {other.status === 'requested' ? ` (${t('requested')})` : ''}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function RejectButton({
  who,
  disabled,
  onReject,
}: {
  who: string;
  disabled: boolean;
  onReject: (reason: string) => void;
}) {
  const t = useT();
  const [reason, setReason] = useState('');
  return (
    <ConfirmButton
      label={t('Reject {{who}}', { who })}
      title={t('Reject {{who}}’s request?', { who })}
      confirmLabel={t('Reject')}
      disabled={disabled}
      onConfirm={() => onReject(reason.trim())}
    >
      <Field label={t('Reason (shown to the employee)')}>
        <input maxLength={1000} value={reason} onChange={(event) => setReason(event.target.value)} />
      </Field>
    </ConfirmButton>
  );
}

function CreateAbsence({
  mode,
  employees,
  types,
  onCreated,
}: {
  mode: Mode;
  employees: Employee[];
  types: AbsenceType[];
  onCreated: (message: string) => void;
}) {
  const t = useT();
  const [employee, setEmployee] = useState('');
  const [type, setType] = useState('vacation');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [approve, setApprove] = useState(true);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const created = await action.run(async () => {
      const absence = await api<Absence>('POST', `/${mode}/absences`, {
        employee_id: employee,
        type,
        start_date: from,
        end_date: to,
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      return approve ? await api<Absence>('POST', `/${mode}/absences/${absence.id}/approve`, {}) : absence;
    });
    if (created) {
      const who = employees.find((item) => item.id === employee);
      onCreated(
        `${created.status === 'approved' ? t('Created and approved') : t('Requested')}: ${who ? fullName(who) : ''}, ${created.type.label}, ${formatDateRange(created.start_date, created.end_date)}.`,
      );
      setNote('');
    }
  };
  return (
    <form onSubmit={submit} className="card" aria-label={t('Create an absence')}>
      <h2>{t('Create an absence')}</h2>
      <div className="grid">
        <Field label={t('Employee')} name="employee_id" error={action.error}>
          <select required value={employee} onChange={(event) => setEmployee(event.target.value)}>
            <option value="">{t('Choose…')}</option>
            {employees.map((item) => (
              <option key={item.id} value={item.id}>
                {fullName(item)}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('Type')} name="type" error={action.error}>
          <select value={type} onChange={(event) => setType(event.target.value)}>
            {types.map((item) => (
              <option key={item.key} value={item.key}>
                {item.label}
              </option>
            ))}
          </select>
        </Field>
        <DateRange
          from={from}
          to={to}
          onFrom={setFrom}
          onTo={setTo}
          error={action.error}
          names={['start_date', 'end_date']}
        />
        <Field label={t('Note')} name="note" error={action.error}>
          <input maxLength={1000} value={note} onChange={(event) => setNote(event.target.value)} />
        </Field>
        <div className="field">
          <label>
            <input type="checkbox" checked={approve} onChange={(event) => setApprove(event.target.checked)} />{' '}
            {t('Approve at once')}
          </label>
        </div>
      </div>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {t('Create absence')}
      </button>
    </form>
  );
}
