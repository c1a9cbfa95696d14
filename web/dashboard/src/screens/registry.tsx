import { type FormEvent, useState } from 'react';
import { allPages, api, formatInstant, type Mode, type Page, query } from '../../../shared/api.ts';
import { companyZone, formatDateRange, formatMonth, msg, useT } from '../../../shared/i18n.ts';
import { addDays, instantAt, lastDayOf, todayIn } from '../../../shared/zoned.ts';
import { accessOutcome, accessWhat } from '../access-log.ts';
import { can } from '../can.ts';
import { statusLabel } from '../labels.ts';
import type {
  AccessGrant,
  AccessLogEntry,
  Acknowledgement,
  ClosedMonth,
  Company,
  WorkSummary,
} from '../types.ts';
import {
  ConfirmButton,
  DateRange,
  ErrorMessage,
  Field,
  Loading,
  Pager,
  RunButton,
  SecretOnce,
  Table,
  useAction,
  useLoad,
} from '../ui.tsx';
import { type Employee, fullName } from './names.ts';

/**
 * The registry of record (docs/registry.md): close a month, see who has acknowledged a closed month, and grant
 * the Inspección or the workers' representatives read-only access through a secret link, with its access log.
 */
export function RegistryScreen({ mode, company }: { mode: Mode; company: Company }) {
  return (
    <>
      <MonthsCard mode={mode} timeZone={company.timezone} />
      <GrantsCard mode={mode} />
    </>
  );
}

/** The month before today's, YYYY-MM, in the company's time zone. */
function previousMonth(timeZone: string): string {
  const [year, month] = todayIn(timeZone).split('-').map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

function MonthsCard({ mode, timeZone }: { mode: Mode; timeZone: string }) {
  const t = useT();
  const [cursor, setCursor] = useState<string | null>(null);
  const months = useLoad(
    () => api<Page<ClosedMonth>>('GET', `/${mode}/registry/months${query({ limit: 12, cursor })}`),
    [mode, cursor],
  );
  const [month, setMonth] = useState(() => previousMonth(timeZone));
  // A month closes once its last day has passed: said at once, before any confirmation (issue 39).
  const unfinished = Boolean(month) && month >= todayIn(timeZone).slice(0, 7);
  // Who closed each month, by name: the administrators' e-mails and the keys' names (issue 39).
  const names = useLoad(async () => {
    const [admins, keys] = await Promise.all([
      api<{ data: Array<{ id: string; email: string }> }>('GET', '/admins').catch(() => ({ data: [] })),
      api<Page<{ id: string; name: string }>>('GET', `/${mode}/api-keys?limit=100`).catch(() => ({
        data: [],
        meta: { next_cursor: null, has_more: false },
      })),
    ]);
    return new Map([
      ...admins.data.map((admin) => [admin.id, admin.email] as const),
      ...keys.data.map((key) => [key.id, key.name] as const),
    ]);
  }, [mode]);
  const closedBy = (actor: { type: string; id: string }) => {
    const name = names.data?.get(actor.id);
    return name ? `${t(actorLabel(actor.type))}: ${name}` : t(actorLabel(actor.type));
  };
  const [open, setOpen] = useState<string | null>(null);
  const close = useAction();
  const documents = useAction();
  const [generated, setGenerated] = useState<string | null>(null);
  const closeMonth = () =>
    void close.run(async () => {
      await api('POST', `/${mode}/registry/months/${month}/close`);
      months.reload();
      setOpen(month);
    });
  return (
    <section className="card" aria-labelledby="months-title">
      <h2 id="months-title">{t('Closed months')}</h2>
      <p className="muted">
        {t(
          'A closed month cannot change any more: a late check-in or a correction that touches it is refused. Each worker then gets the month’s document in the portal and can acknowledge it.',
        )}
      </p>
      <div className="row" hidden={!can('closeRegistryMonth')}>
        <Field label={t('Month to close')} name="path.month" error={close.error}>
          <input type="month" required value={month} onChange={(event) => setMonth(event.target.value)} />
        </Field>
        <ConfirmButton
          label={t('Close month')}
          title={t('Close {{month}}?', { month: month && formatMonth(month) })}
          confirmLabel={t('Close the month')}
          disabled={close.busy || !month || unfinished}
          onConfirm={closeMonth}
        >
          {(open) => (
            <>
              <p>
                {t(
                  'Closing {{month}} cannot be undone: its records, absences and holidays no longer change.',
                  {
                    month: month && formatMonth(month),
                  },
                )}
              </p>
              {open && <CloseSummary mode={mode} month={month} />}
            </>
          )}
        </ConfirmButton>
      </div>
      {unfinished && (
        <p className="field-error" role="status">
          {t('{{month}} has not ended yet: a month is closed once its last day has passed.', {
            month: formatMonth(month),
          })}
        </p>
      )}
      <ErrorMessage error={close.error ?? months.error ?? documents.error} />
      {generated && (
        <p role="status">
          {t('The workers’ documents of {{month}} are being generated: download them from', {
            month: formatMonth(generated),
          })}{' '}
          <a href="#/reports">{t('Reports')}</a>.
        </p>
      )}
      <Loading loading={months.loading && !months.data} />
      <Table
        columns={[t('Month'), t('Closed'), t('By')]}
        actions
        empty={t('No month is closed yet.')}
        rows={months.data?.data.map((row) => (
          <tr key={row.month}>
            <td>{formatMonth(row.month)}</td>
            <td>{formatInstant(row.closed_at)}</td>
            <td>{closedBy(row.closed_by)}</td>
            <td>
              <div className="row">
                <button
                  type="button"
                  className="secondary"
                  aria-expanded={open === row.month}
                  aria-label={t('Acknowledgements of {{month}}', { month: formatMonth(row.month) })}
                  onClick={() => setOpen(open === row.month ? null : row.month)}
                >
                  {t('Acknowledgements')}
                </button>
                <RunButton
                  action={documents}
                  secondary
                  work={async () => {
                    await api('POST', `/${mode}/reports`, {
                      type: 'time_registry_worker_monthly',
                      format: 'pdf',
                      params: { month: row.month },
                    });
                    setGenerated(row.month);
                  }}
                >
                  {t('Workers’ documents of {{month}} (PDF)', { month: formatMonth(row.month) })}
                </RunButton>
              </div>
            </td>
          </tr>
        ))}
      />
      <Pager cursor={cursor} next={months.data?.meta} onPage={setCursor} />
      {open && <Acknowledgements mode={mode} month={open} />}
    </section>
  );
}

/** What is still open in a month before it is closed: incomplete days, ignored events, undecided requests. */
function CloseSummary({ mode, month }: { mode: Mode; month: string }) {
  const t = useT();
  const summary = useLoad(async () => {
    const last = lastDayOf(month);
    const from = `${month}-01`;
    const totals = { incomplete: 0, anomalies: 0, people: 0 };
    const rows = await allPages<WorkSummary>(`/${mode}/work-summaries`, { period: 'month', from, to: last });
    for (const row of rows) {
      totals.incomplete += row.incomplete_days;
      totals.anomalies += row.anomalies;
      if (row.incomplete_days > 0 || row.anomalies > 0) totals.people += 1;
    }
    const [absences, corrections] = await Promise.all([
      api<Page<unknown>>(
        'GET',
        `/${mode}/absences${query({ status: 'requested', from, to: last, limit: 100 })}`,
      ),
      api<Page<unknown>>('GET', `/${mode}/check-in-corrections${query({ status: 'pending', limit: 100 })}`),
    ]);
    return { ...totals, absences: absences.data.length, corrections: corrections.data.length };
  }, [mode, month]);
  if (!summary.data) {
    return (
      <>
        <ErrorMessage error={summary.error} />
        <Loading loading={summary.loading} />
      </>
    );
  }
  const data = summary.data;
  const clear = data.incomplete + data.anomalies + data.absences + data.corrections === 0;
  return (
    <section aria-label={t('Still open in {{month}}', { month: formatMonth(month) })}>
      <h4>{t('Still open in {{month}}', { month: formatMonth(month) })}</h4>
      {clear ? (
        <p>{t('Nothing: every day is complete and nothing waits for a decision.')}</p>
      ) : (
        <ul className="list">
          <li>
            {t('{{count}} incomplete days', { count: data.incomplete })},{' '}
            {t('{{count}} ignored events', { count: data.anomalies })}:{' '}
            {t('{{count}} employees affected; they close with the figures as they stand.', {
              count: data.people,
            })}
          </li>
          <li>{t('{{count}} absence requests of the month not decided.', { count: data.absences })}</li>
          <li>
            {t(
              '{{count}} corrections waiting (any month): one that touches the month can no longer apply once it is closed.',
              { count: data.corrections },
            )}
          </li>
        </ul>
      )}
    </section>
  );
}

function Acknowledgements({ mode, month }: { mode: Mode; month: string }) {
  const t = useT();
  const [cursor, setCursor] = useState<string | null>(null);
  const list = useLoad(
    () =>
      api<Page<Acknowledgement>>(
        'GET',
        `/${mode}/registry/months/${month}/acknowledgements${query({ limit: 100, cursor })}`,
      ),
    [mode, month, cursor],
  );
  const rows = list.data?.data ?? [];
  const done = rows.filter((row) => row.acknowledged_at !== null).length;
  return (
    <section aria-labelledby="acknowledgements-title">
      <h3 id="acknowledgements-title">{t('Acknowledgements of {{month}}', { month: formatMonth(month) })}</h3>
      <ErrorMessage error={list.error} />
      <Loading loading={list.loading && !list.data} />
      {list.data && (
        <p>
          {t('{{done}} of {{count}} workers on this page have acknowledged the month’s document.', {
            done,
            count: rows.length,
          })}
        </p>
      )}
      <Table
        columns={[t('Worker'), t('Acknowledged')]}
        empty={t('Nobody was employed in this month.')}
        rows={rows.map((row) => (
          <tr key={row.employee_id}>
            <td>{row.employee_name}</td>
            <td className={row.acknowledged_at ? undefined : 'status-pending'}>
              {row.acknowledged_at ? formatInstant(row.acknowledged_at) : t('not yet')}
            </td>
          </tr>
        ))}
      />
      <Pager cursor={cursor} next={list.data?.meta} onPage={setCursor} />
    </section>
  );
}

const KINDS = {
  inspection: msg('Inspección de Trabajo'),
  representatives: msg('Workers’ representatives'),
} as const;

/** Who closed a month, as a reader names it. */
const ACTORS: Record<string, string> = {
  admin: msg('an administrator'),
  api_key: msg('an integration'),
  employee: msg('the worker'),
  system: msg('the service'),
};
const actorLabel = (type: string) => ACTORS[type] ?? type;

function GrantsCard({ mode }: { mode: Mode }) {
  const t = useT();
  const [cursor, setCursor] = useState<string | null>(null);
  const grants = useLoad(
    () => api<Page<AccessGrant>>('GET', `/${mode}/registry/access-grants${query({ limit: 25, cursor })}`),
    [mode, cursor],
  );
  const [created, setCreated] = useState<string | null>(null);
  const [log, setLog] = useState<AccessGrant | null>(null);
  const revoke = useAction();
  return (
    <section className="card" aria-labelledby="grants-title">
      <h2 id="grants-title">{t('Access for the Inspección and representatives')}</h2>
      <p className="muted">
        {t(
          'A read-only link, no login: the link itself is the key. Every use is logged; revoke it when it is no longer needed. It expires at most 90 days ahead.',
        )}
      </p>
      {!can('createRegistryAccessGrant') ? null : created ? (
        <SecretOnce label={t('The access link')} secret={created} onDone={() => setCreated(null)} />
      ) : (
        <GrantForm
          mode={mode}
          onCreated={(url) => {
            setCreated(url);
            grants.reload();
          }}
        />
      )}
      <h3>{t('Grants')}</h3>
      <ErrorMessage error={grants.error ?? revoke.error} />
      <Loading loading={grants.loading && !grants.data} />
      <Table
        columns={[t('For'), t('Kind'), t('Period'), t('Workers'), t('Expires'), t('Status')]}
        actions
        empty={t('No access granted yet.')}
        rows={grants.data?.data.map((grant) => {
          const status = grant.revoked_at
            ? 'revoked'
            : new Date(grant.expires_at) <= new Date()
              ? 'expired'
              : 'active';
          return (
            <tr key={grant.id}>
              <td>{grant.label}</td>
              <td>{grant.kind === 'inspection' ? t('Inspección') : t('Representatives')}</td>
              <td>{formatDateRange(grant.from, grant.to)}</td>
              <td>{grant.employee_ids ? grant.employee_ids.length : t('all')}</td>
              <td>{formatInstant(grant.expires_at)}</td>
              <td className={`status-${status}`}>{t(statusLabel(status))}</td>
              <td>
                <div className="row">
                  <button
                    type="button"
                    className="secondary"
                    aria-expanded={log?.id === grant.id}
                    onClick={() => setLog(log?.id === grant.id ? null : grant)}
                  >
                    {t('Access log')}
                  </button>
                  {status === 'active' && can('revokeRegistryAccessGrant') && (
                    <ConfirmButton
                      label={t('Revoke')}
                      title={t('Revoke the access for {{label}}?', { label: grant.label })}
                      confirmLabel={t('Revoke')}
                      disabled={revoke.busy}
                      onConfirm={() =>
                        void revoke.run(async () => {
                          await api('DELETE', `/${mode}/registry/access-grants/${grant.id}`);
                          grants.reload();
                        })
                      }
                    >
                      <p>{t('The link stops working at once, everywhere. Its uses stay in the log.')}</p>
                    </ConfirmButton>
                  )}
                </div>
              </td>
            </tr>
          );
        })}
      />
      <Pager cursor={cursor} next={grants.data?.meta} onPage={setCursor} />
      {log && <AccessLog mode={mode} grant={log} />}
    </section>
  );
}

function GrantForm({ mode, onCreated }: { mode: Mode; onCreated: (url: string) => void }) {
  const t = useT();
  const [kind, setKind] = useState<AccessGrant['kind']>('inspection');
  const [label, setLabel] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [expires, setExpires] = useState(() => addDays(todayIn(companyZone()), 30));
  const [everyone, setEveryone] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const employees = useLoad(
    () =>
      everyone
        ? Promise.resolve(null)
        : api<Page<Employee>>('GET', `/${mode}/employees/search${query({ limit: 100 })}`),
    [mode, everyone],
  );
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const grant = await action.run(() =>
      api<AccessGrant & { url: string }>('POST', `/${mode}/registry/access-grants`, {
        kind,
        label,
        from,
        to,
        // The end of the chosen day, in the company's zone.
        expires_at: instantAt(expires, '23:59', companyZone()),
        ...(everyone ? {} : { employee_ids: chosen }),
      }),
    );
    if (grant) onCreated(grant.url);
  };
  return (
    <form onSubmit={submit} aria-label={t('Grant access')} className="grid">
      <Field
        label={t('For')}
        name="kind"
        error={action.error}
        hint={
          kind === 'inspection'
            ? t('Sees every covered worker’s full registry and documents.')
            : t('Sees each worker’s monthly totals by name: no check-ins, no identity numbers.')
        }
      >
        <select value={kind} onChange={(event) => setKind(event.target.value as AccessGrant['kind'])}>
          {Object.entries(KINDS).map(([value, text]) => (
            <option key={value} value={value}>
              {t(text)}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label={t('Label')}
        hint={t('Who it is for: the inspector’s case number, the works council…')}
        name="label"
        error={action.error}
      >
        <input required maxLength={200} value={label} onChange={(event) => setLabel(event.target.value)} />
      </Field>
      <DateRange from={from} to={to} onFrom={setFrom} onTo={setTo} error={action.error} />
      <Field
        label={t('Expires on')}
        hint={t('At most 90 days ahead.')}
        name="expires_at"
        error={action.error}
      >
        <input type="date" required value={expires} onChange={(event) => setExpires(event.target.value)} />
      </Field>
      <div className="field">
        <label>
          <input type="checkbox" checked={everyone} onChange={(event) => setEveryone(event.target.checked)} />{' '}
          {t('Every worker employed in the period')}
        </label>
      </div>
      {!everyone && (
        <Field
          label={t('Workers')}
          hint={t('Hold Ctrl (⌘ on a Mac) to choose several.')}
          name="employee_ids"
          error={action.error}
        >
          <select
            multiple
            size={6}
            value={chosen}
            onChange={(event) =>
              setChosen(Array.from(event.target.selectedOptions, (option) => option.value))
            }
          >
            {employees.data?.data.map((employee) => (
              <option key={employee.id} value={employee.id}>
                {fullName(employee)}
              </option>
            ))}
          </select>
        </Field>
      )}
      <ErrorMessage error={action.error ?? employees.error} />
      <button type="submit" disabled={action.busy}>
        {t('Grant access')}
      </button>
    </form>
  );
}

function AccessLog({ mode, grant }: { mode: Mode; grant: AccessGrant }) {
  const t = useT();
  const [cursor, setCursor] = useState<string | null>(null);
  const log = useLoad(
    () =>
      api<Page<AccessLogEntry>>(
        'GET',
        `/${mode}/registry/access-grants/${grant.id}/accesses${query({ limit: 50, cursor })}`,
      ),
    [mode, grant.id, cursor],
  );
  // The workers by name, for the entries that name one by id.
  const names = useLoad(async () => {
    const employees = await allPages<Employee>(`/${mode}/employees/search`, {});
    return new Map(employees.map((employee) => [employee.id, fullName(employee)]));
  }, [mode]);
  return (
    <section aria-labelledby="access-log-title">
      <h3 id="access-log-title">{t('Access log: {{label}}', { label: grant.label })}</h3>
      <ErrorMessage error={log.error} />
      <Loading loading={log.loading && !log.data} />
      <Table
        columns={[t('When'), t('From'), t('What'), t('Outcome')]}
        empty={t('The link has not been used yet.')}
        rows={log.data?.data.map((entry) => (
          <tr key={entry.id}>
            <td>{formatInstant(entry.at)}</td>
            <td>{entry.ip}</td>
            <td>{accessWhat(entry.what, names.data ?? new Map())}</td>
            <td className={entry.outcome === 'ok' ? undefined : 'status-failed'}>
              {accessOutcome(entry.outcome)}
            </td>
          </tr>
        ))}
      />
      <Pager cursor={cursor} next={log.data?.meta} onPage={setCursor} />
    </section>
  );
}
