import { type FormEvent, useState } from 'react';
import { api, formatMinutes, type Mode, type Page, query } from '../../../shared/api.ts';
import { formatDate, formatInstant, formatTime, msg, useT } from '../../../shared/i18n.ts';
import { addDays, instantAt, todayIn } from '../../../shared/zoned.ts';
import { can } from '../can.ts';
import { checkInTypeLabel, sourceLabel } from '../labels.ts';
import { shiftEvents } from '../shifts.ts';
import type { CheckIn, Company, Correction, WorkSummary } from '../types.ts';
import {
  BulkApproval,
  ConfirmButton,
  ErrorMessage,
  eachInTurn,
  Field,
  Loading,
  SelectBox,
  Table,
  useAction,
  useLoad,
  useSelection,
} from '../ui.tsx';
import { type Employee, employeesById, fullName } from './names.ts';

/** The check-ins of one employee on one local date, and that workday's figures from the time engine. */
function Day({
  mode,
  employee,
  date,
  zone,
  onCorrection,
}: {
  mode: Mode;
  employee: Employee;
  date: string;
  zone: string;
  onCorrection: () => void;
}) {
  const t = useT();
  const day = useLoad(async () => {
    // The local day lies within the UTC days around it; keep the events whose local date is the day.
    const page = await api<Page<CheckIn>>(
      'GET',
      `/${mode}/check-ins${query({
        employee_id: employee.id,
        from: `${addDays(date, -1)}T00:00:00Z`,
        to: `${addDays(date, 2)}T00:00:00Z`,
        status: 'all',
        limit: 100,
      })}`,
    );
    const events = shiftEvents(page.data, date, zone);
    const summaries = await api<Page<WorkSummary>>(
      'GET',
      `/${mode}/work-summaries${query({ period: 'day', from: date, to: date, employee_id: employee.id })}`,
    );
    return { events, summary: summaries.data[0] ?? null };
  }, [mode, employee.id, date, zone]);
  const time = (instant: string) => formatTime(instant, zone);
  const summary = day.data?.summary;
  return (
    <section aria-label={t('Check-ins of {{name}} on {{date}}', { name: fullName(employee), date })}>
      <h2>
        {fullName(employee)}, {formatDate(date, { dateStyle: 'full' })}{' '}
        <small className="muted">({zone})</small>
      </h2>
      <ErrorMessage error={day.error} />
      <Loading loading={day.loading} />
      <Table
        columns={[t('Time'), t('Type'), t('Source'), t('Marks')]}
        actions
        empty={t('No check-ins on this day.')}
        rows={day.data?.events.map((checkIn) => (
          <tr key={checkIn.id} className={checkIn.status === 'voided' ? 'voided' : undefined}>
            <td>
              {time(checkIn.timestamp)}
              {checkIn.dayOffset > 0 && <span title={t('the next day')}> (+{checkIn.dayOffset})</span>}
            </td>
            <td>{t(checkInTypeLabel(checkIn.type))}</td>
            <td>{t(sourceLabel(checkIn.source))}</td>
            <td>
              {[
                checkIn.dayOffset < 0 ? t('ends the shift of the day before') : null,
                checkIn.status === 'voided' ? t('voided by a correction') : null,
                checkIn.late ? t('recorded late') : null,
                checkIn.source === 'correction' ? t('added by a correction') : null,
                checkIn.recorded_offline ? t('made offline') : null,
                checkIn.location === 'declined' ? t('location not shared') : null,
                checkIn.location && checkIn.location !== 'declined' && checkIn.location.outside_geofence
                  ? t('outside the area')
                  : null,
              ]
                .filter(Boolean)
                .join('; ')}
            </td>
            <td>
              {checkIn.status === 'active' && can('createCheckInCorrection') && (
                <VoidButton
                  mode={mode}
                  employee={employee}
                  checkIn={checkIn}
                  label={t('{{type}} at {{time}}', {
                    type: t(checkInTypeLabel(checkIn.type)).toLowerCase(),
                    time: time(checkIn.timestamp),
                  })}
                  onDone={onCorrection}
                />
              )}
            </td>
          </tr>
        ))}
      />
      {can('createCheckInCorrection') && (
        <AddCheckIn mode={mode} employee={employee} date={date} zone={zone} onDone={onCorrection} />
      )}
      <h3>{t('Workday figures')}</h3>
      {summary ? (
        <dl className="figures">
          <dt>{t('Worked')}</dt>
          <dd>{formatMinutes(summary.worked_minutes)}</dd>
          <dt>{t('Expected')}</dt>
          <dd>{formatMinutes(summary.expected_minutes)}</dd>
          <dt>{t('Balance')}</dt>
          <dd>{formatMinutes(summary.balance_minutes)}</dd>
          <dt>{t('Breaks')}</dt>
          <dd>{formatMinutes(summary.break_minutes)}</dd>
          <dt>{t('Night')}</dt>
          <dd>{formatMinutes(summary.night_minutes)}</dd>
          <dt>{t('Overtime')}</dt>
          <dd>{formatMinutes(summary.overtime_minutes)}</dd>
          <dt>{t('Absences')}</dt>
          <dd>{formatMinutes(summary.absences_minutes)}</dd>
          <dt>{t('Banked hours (to date)')}</dt>
          <dd>{formatMinutes(summary.banked_hours_balance_minutes)}</dd>
          <dt>{t('Closed / incomplete')}</dt>
          <dd>
            {summary.source_days === 1 ? t('closed') : t('not closed yet')}
            {summary.incomplete_days > 0 ? `, ${t('incomplete shift')}` : ''}
            {summary.anomalies > 0 ? `, ${t('{{count}} ignored events', { count: summary.anomalies })}` : ''}
          </dd>
        </dl>
      ) : (
        <p className="muted">{t('No figures for this day.')}</p>
      )}
    </section>
  );
}

/** What the worker must do next: a correction from the company applies once the worker accepts it in the portal. */
const PENDING_NOTE = msg(
  'Correction requested. It applies once the worker accepts it in the portal; until then it waits in the corrections below.',
);

/** The reason a correction gives: required, and kept in the registry with it. */
function ReasonField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error: unknown;
}) {
  const t = useT();
  return (
    <Field label={t('Reason (kept in the registry)')} name="reason" error={error}>
      <input required maxLength={1000} value={value} onChange={(event) => onChange(event.target.value)} />
    </Field>
  );
}

/** Voids a check-in through a correction, with the reason the registry keeps. */
function VoidButton({
  mode,
  employee,
  checkIn,
  label,
  onDone,
}: {
  mode: Mode;
  employee: Employee;
  checkIn: CheckIn;
  label: string;
  onDone: () => void;
}) {
  const t = useT();
  const [reason, setReason] = useState('');
  const action = useAction();
  const [done, setDone] = useState('');
  return (
    <>
      <ConfirmButton
        label={t('Void {{what}}', { what: label })}
        title={t('Void the {{what}}?', { what: label })}
        confirmLabel={t('Request the correction')}
        onConfirm={() =>
          void action
            .run(() =>
              api('POST', `/${mode}/check-in-corrections`, {
                employee_id: employee.id,
                reason: reason.trim(),
                void: [checkIn.id],
              }),
            )
            .then((created) => {
              if (created) {
                setDone(t(PENDING_NOTE));
                onDone();
              }
            })
        }
      >
        <p>{t('Nothing is deleted: the check-in stays in the registry, marked voided, with this reason.')}</p>
        <ReasonField value={reason} onChange={setReason} error={action.error} />
      </ConfirmButton>
      <ErrorMessage error={action.error} />
      {done && <p role="status">{done}</p>}
    </>
  );
}

/** Records a missing check-in through a correction (the registry never takes a silent back-dated entry). */
function AddCheckIn({
  mode,
  employee,
  date,
  zone,
  onDone,
}: {
  mode: Mode;
  employee: Employee;
  date: string;
  zone: string;
  onDone: () => void;
}) {
  const t = useT();
  const [type, setType] = useState<CheckIn['type']>('out');
  const [at, setAt] = useState('');
  const [reason, setReason] = useState('');
  const [done, setDone] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    const created = await action.run(() =>
      api('POST', `/${mode}/check-in-corrections`, {
        employee_id: employee.id,
        reason: reason.trim(),
        add: [{ type, timestamp: instantAt(date, at, zone) }],
      }),
    );
    if (created) {
      setDone(t(PENDING_NOTE));
      setReason('');
      onDone();
    }
  };
  return (
    <form onSubmit={submit} className="card" aria-label={t('Record a missing check-in')}>
      <h3>{t('Record a missing check-in')}</h3>
      <div className="grid">
        <Field label={t('Type')} name="add[0].type" error={action.error}>
          <select value={type} onChange={(event) => setType(event.target.value as CheckIn['type'])}>
            {(['in', 'break_start', 'break_end', 'out'] as const).map((value) => (
              <option key={value} value={value}>
                {t(checkInTypeLabel(value))}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('Time ({{zone}})', { zone })} name="add[0].timestamp" error={action.error}>
          <input type="time" required value={at} onChange={(event) => setAt(event.target.value)} />
        </Field>
        <ReasonField value={reason} onChange={setReason} error={action.error} />
      </div>
      <ErrorMessage error={action.error} />
      <div className="row">
        <button type="submit" disabled={action.busy}>
          {t('Request the correction')}
        </button>
        {done && <span role="status">{done}</span>}
      </div>
    </form>
  );
}

/** The corrections waiting: approve (the company's half) or reject with a reason. */
function CorrectionsQueue({ mode }: { mode: Mode }) {
  const t = useT();
  const list = useLoad(async () => {
    const page = await api<Page<Correction>>(
      'GET',
      `/${mode}/check-in-corrections${query({ status: 'pending', limit: 50 })}`,
    );
    const people = await employeesById(
      mode,
      page.data.map((correction) => correction.employee_id),
    );
    return { page, people };
  }, [mode]);
  const action = useAction();
  const [done, setDone] = useState('');
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const selection = useSelection();
  const [left, setLeft] = useState<string[]>([]);
  const waiting = list.data?.page.data.filter((correction) => !correction.company_approval) ?? [];
  const nameOf = (correction: Correction) => {
    const person = list.data?.people.get(correction.employee_id);
    return person ? fullName(person) : correction.employee_id;
  };
  // Many at once (issue 39): each approved through its own call, so each is checked as if alone.
  const approveSelected = () =>
    void action.run(async () => {
      const chosen = waiting.filter((correction) => selection.has(correction.id));
      const result = await eachInTurn(
        chosen,
        async (correction) => {
          await api('POST', `/${mode}/check-in-corrections/${correction.id}/approve`, {});
          return null;
        },
        nameOf,
      );
      selection.keep();
      setDone(t('Approved {{count}} corrections.', { count: result.done }));
      setLeft(result.left);
      list.reload();
    });

  const decide = (correction: Correction, decision: 'approve' | 'reject', who: string) =>
    void action.run(async () => {
      await api(
        'POST',
        `/${mode}/check-in-corrections/${correction.id}/${decision}`,
        decision === 'reject' ? { reason: (reasons[correction.id] ?? '').trim() } : undefined,
      );
      setDone(
        decision === 'approve'
          ? t('Approved: {{who}}’s correction.', { who })
          : t('Rejected: {{who}}’s correction.', { who }),
      );
      list.reload();
    });
  return (
    <section aria-labelledby="corrections-title">
      <h2 id="corrections-title">{t('Corrections waiting')}</h2>
      {done && <p role="status">{done}</p>}
      <ErrorMessage error={list.error ?? action.error} />
      {can('approveCheckInCorrection') && (waiting.length > 1 || left.length > 0) && (
        <BulkApproval
          count={selection.size}
          title={t('Approve {{count}} corrections?', { count: selection.size })}
          explanation={t('Each is approved on its own, as if you approved them one after another.')}
          busy={action.busy}
          left={left}
          onApprove={approveSelected}
        />
      )}
      <Loading loading={list.loading && !list.data} />
      <Table
        label={t('Corrections to decide')}
        columns={[t('Employee'), t('Changes'), t('Reason'), t('Asked by'), t('Company'), t('Worker')]}
        actions
        empty={t('No correction is waiting.')}
        rows={list.data?.page.data.map((correction) => {
          const person = list.data?.people.get(correction.employee_id);
          const who = person ? fullName(person) : correction.employee_id;
          const changes = [
            ...correction.add.map((item) =>
              t('add {{type}} at {{time}}', {
                type: t(checkInTypeLabel(item.type)).toLowerCase(),
                time: formatInstant(item.timestamp),
              }),
            ),
            ...correction.void.map(() => t('void a check-in')),
          ];
          return (
            <tr key={correction.id}>
              <td>
                {can('approveCheckInCorrection') && waiting.length > 1 && !correction.company_approval && (
                  <SelectBox
                    selection={selection}
                    id={correction.id}
                    label={t('Select {{who}}’s correction', { who })}
                  />
                )}
                {who}
              </td>
              <td>{changes.join('; ')}</td>
              <td>{correction.reason}</td>
              <td>{correction.requested_by.type === 'employee' ? t('the worker') : t('the company')}</td>
              <td>{correction.company_approval ? t('approved') : t('to approve')}</td>
              <td>{correction.employee_approval ? t('accepted') : t('to accept in the portal')}</td>
              <td>
                <div className="row" hidden={!can('approveCheckInCorrection')}>
                  {!correction.company_approval && (
                    <button
                      type="button"
                      disabled={action.busy}
                      onClick={() => decide(correction, 'approve', who)}
                    >
                      {t('Approve {{who}}’s correction', { who })}
                    </button>
                  )}
                  <ConfirmButton
                    label={t('Reject {{who}}’s correction', { who })}
                    title={t('Reject {{who}}’s correction?', { who })}
                    confirmLabel={t('Reject')}
                    disabled={action.busy}
                    onConfirm={() => decide(correction, 'reject', who)}
                  >
                    <Field label={t('Reason (shown to the worker, kept in the registry)')}>
                      <input
                        required
                        maxLength={1000}
                        value={reasons[correction.id] ?? ''}
                        onChange={(event) => setReasons({ ...reasons, [correction.id]: event.target.value })}
                      />
                    </Field>
                  </ConfirmButton>
                </div>
              </td>
            </tr>
          );
        })}
      />
    </section>
  );
}

export function CheckInsScreen({ mode, company }: { mode: Mode; company: Company }) {
  const t = useT();
  const [search, setSearch] = useState('');
  const [date, setDate] = useState(() => todayIn(company.timezone));
  const [employee, setEmployee] = useState<Employee | null>(null);
  // A correction requested in a day shows in the queue below at once.
  const [refresh, setRefresh] = useState(0);
  const matches = useLoad(
    () => api<Page<Employee>>('GET', `/${mode}/employees/search${query({ q: search, limit: 10 })}`),
    [mode, search],
  );
  return (
    <>
      <div className="row">
        <Field label={t('Find an employee')}>
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </Field>
        <Field label={t('Day')}>
          <input
            type="date"
            required
            value={date}
            onChange={(event) => setDate(event.target.value || todayIn(company.timezone))}
          />
        </Field>
      </div>
      <ErrorMessage error={matches.error} />
      <ul className="list" aria-label={t('Employees')}>
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
        <Day
          mode={mode}
          employee={employee}
          date={date}
          zone={employee.timezone ?? company.timezone}
          onCorrection={() => setRefresh((value) => value + 1)}
        />
      ) : (
        <p className="muted">{t('Choose an employee to see the day.')}</p>
      )}
      <CorrectionsQueue key={`${mode}-${refresh}`} mode={mode} />
    </>
  );
}
