import { type FormEvent, useState } from 'react';
import { api, formatInstant, type Mode, type Page, query } from '../api.ts';
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
  SecretOnce,
  Table,
  useAction,
  useLoad,
} from '../ui.tsx';
import { lastDayOf, todayIn } from '../zoned.ts';
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
  const [cursor, setCursor] = useState<string | null>(null);
  const months = useLoad(
    () => api<Page<ClosedMonth>>('GET', `/${mode}/registry/months${query({ limit: 12, cursor })}`),
    [mode, cursor],
  );
  const [month, setMonth] = useState(() => previousMonth(timeZone));
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
      <h2 id="months-title">Closed months</h2>
      <p className="muted">
        A closed month cannot change any more: a late check-in or a correction that touches it is refused.
        Each worker then gets the month’s document in the portal and can acknowledge it.
      </p>
      <div className="row">
        <Field label="Month to close" name="path.month" error={close.error}>
          <input type="month" required value={month} onChange={(event) => setMonth(event.target.value)} />
        </Field>
        <ConfirmButton
          label="Close month"
          title={`Close ${month}?`}
          confirmLabel="Close the month"
          disabled={close.busy || !month}
          onConfirm={closeMonth}
        >
          {(open) => (
            <>
              <p>Closing {month} cannot be undone: its records, absences and holidays no longer change.</p>
              {open && <CloseSummary mode={mode} month={month} />}
            </>
          )}
        </ConfirmButton>
      </div>
      <ErrorMessage error={close.error ?? months.error ?? documents.error} />
      {generated && (
        <p role="status">
          The workers’ documents of {generated} are being generated: download them from{' '}
          <a href="#/reports">Reports</a>.
        </p>
      )}
      <Loading loading={months.loading && !months.data} />
      <Table
        columns={['Month', 'Closed', 'By']}
        actions
        empty="No month is closed yet."
        rows={months.data?.data.map((row) => (
          <tr key={row.month}>
            <td>{row.month}</td>
            <td>{formatInstant(row.closed_at)}</td>
            <td>{row.closed_by.type}</td>
            <td>
              <div className="row">
                <button
                  type="button"
                  className="secondary"
                  aria-expanded={open === row.month}
                  aria-label={`Acknowledgements of ${row.month}`}
                  onClick={() => setOpen(open === row.month ? null : row.month)}
                >
                  Acknowledgements
                </button>
                <button
                  type="button"
                  className="secondary"
                  disabled={documents.busy}
                  onClick={() =>
                    void documents
                      .run(() =>
                        api('POST', `/${mode}/reports`, {
                          type: 'time_registry_worker_monthly',
                          format: 'pdf',
                          params: { month: row.month },
                        }),
                      )
                      .then((report) => {
                        if (report) setGenerated(row.month);
                      })
                  }
                >
                  Workers’ documents of {row.month} (PDF)
                </button>
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
  const summary = useLoad(async () => {
    const last = lastDayOf(month);
    const from = `${month}-01`;
    let cursor: string | null = null;
    const totals = { incomplete: 0, anomalies: 0, people: 0 };
    do {
      const page: Page<WorkSummary> = await api<Page<WorkSummary>>(
        'GET',
        `/${mode}/work-summaries${query({ period: 'month', from, to: last, limit: 100, cursor })}`,
      );
      for (const row of page.data) {
        totals.incomplete += row.incomplete_days;
        totals.anomalies += row.anomalies;
        if (row.incomplete_days > 0 || row.anomalies > 0) totals.people += 1;
      }
      cursor = page.meta.next_cursor;
    } while (cursor);
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
    <section aria-label={`Still open in ${month}`}>
      <h4>Still open in {month}</h4>
      {clear ? (
        <p>Nothing: every day is complete and nothing waits for a decision.</p>
      ) : (
        <ul className="list">
          <li>
            {data.incomplete} incomplete {data.incomplete === 1 ? 'day' : 'days'} and {data.anomalies} ignored{' '}
            {data.anomalies === 1 ? 'event' : 'events'}, for {data.people}{' '}
            {data.people === 1 ? 'employee' : 'employees'}: they close with the figures as they stand.
          </li>
          <li>
            {data.absences} absence {data.absences === 1 ? 'request' : 'requests'} of the month not decided.
          </li>
          <li>
            {data.corrections} {data.corrections === 1 ? 'correction' : 'corrections'} waiting (any month):
            one that touches {month} can no longer apply once it is closed.
          </li>
        </ul>
      )}
    </section>
  );
}

function Acknowledgements({ mode, month }: { mode: Mode; month: string }) {
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
      <h3 id="acknowledgements-title">Acknowledgements of {month}</h3>
      <ErrorMessage error={list.error} />
      <Loading loading={list.loading && !list.data} />
      {list.data && (
        <p>
          {done} of {rows.length} workers on this page have acknowledged the month’s document.
        </p>
      )}
      <Table
        columns={['Worker', 'Acknowledged']}
        empty="Nobody was employed in this month."
        rows={rows.map((row) => (
          <tr key={row.employee_id}>
            <td>{row.employee_name}</td>
            <td className={row.acknowledged_at ? undefined : 'status-pending'}>
              {row.acknowledged_at ? formatInstant(row.acknowledged_at) : 'not yet'}
            </td>
          </tr>
        ))}
      />
      <Pager cursor={cursor} next={list.data?.meta} onPage={setCursor} />
    </section>
  );
}

const KINDS = {
  inspection: 'Inspección de Trabajo',
  representatives: 'Workers’ representatives',
} as const;

/** A date `days` from today, YYYY-MM-DD, in the browser's calendar. */
function daysAhead(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

function GrantsCard({ mode }: { mode: Mode }) {
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
      <h2 id="grants-title">Access for the Inspección and representatives</h2>
      <p className="muted">
        A read-only link, no login: the link itself is the key. Every use is logged; revoke it when it is no
        longer needed. It expires at most 90 days ahead.
      </p>
      {created ? (
        <SecretOnce label="The access link" secret={created} onDone={() => setCreated(null)} />
      ) : (
        <GrantForm
          mode={mode}
          onCreated={(url) => {
            setCreated(url);
            grants.reload();
          }}
        />
      )}
      <h3>Grants</h3>
      <ErrorMessage error={grants.error ?? revoke.error} />
      <Loading loading={grants.loading && !grants.data} />
      <Table
        columns={['For', 'Kind', 'Period', 'Workers', 'Expires', 'Status']}
        actions
        empty="No access granted yet."
        rows={grants.data?.data.map((grant) => {
          const status = grant.revoked_at
            ? 'revoked'
            : new Date(grant.expires_at) <= new Date()
              ? 'expired'
              : 'active';
          return (
            <tr key={grant.id}>
              <td>{grant.label}</td>
              <td>{grant.kind === 'inspection' ? 'Inspección' : 'Representatives'}</td>
              <td>
                {grant.from} – {grant.to}
              </td>
              <td>{grant.employee_ids ? grant.employee_ids.length : 'all'}</td>
              <td>{formatInstant(grant.expires_at)}</td>
              <td className={`status-${status}`}>{status}</td>
              <td>
                <div className="row">
                  <button
                    type="button"
                    className="secondary"
                    aria-expanded={log?.id === grant.id}
                    onClick={() => setLog(log?.id === grant.id ? null : grant)}
                  >
                    Access log
                  </button>
                  {status === 'active' && (
                    <ConfirmButton
                      label="Revoke"
                      title={`Revoke the access for ${grant.label}?`}
                      confirmLabel="Revoke"
                      disabled={revoke.busy}
                      onConfirm={() =>
                        void revoke.run(async () => {
                          await api('DELETE', `/${mode}/registry/access-grants/${grant.id}`);
                          grants.reload();
                        })
                      }
                    >
                      <p>The link stops working at once, everywhere. Its uses stay in the log.</p>
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
  const [kind, setKind] = useState<AccessGrant['kind']>('inspection');
  const [label, setLabel] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [expires, setExpires] = useState(() => daysAhead(30));
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
        // The end of the chosen day, in the browser's zone.
        expires_at: new Date(`${expires}T23:59:59`).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        ...(everyone ? {} : { employee_ids: chosen }),
      }),
    );
    if (grant) onCreated(grant.url);
  };
  return (
    <form onSubmit={submit} aria-label="Grant access" className="grid">
      <Field
        label="For"
        name="kind"
        error={action.error}
        hint={
          kind === 'inspection'
            ? 'Sees every covered worker’s full registry and documents.'
            : 'Sees each worker’s monthly totals by name: no check-ins, no identity numbers.'
        }
      >
        <select value={kind} onChange={(event) => setKind(event.target.value as AccessGrant['kind'])}>
          {Object.entries(KINDS).map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      </Field>
      <Field
        label="Label"
        hint="Who it is for: the inspector’s case number, the works council…"
        name="label"
        error={action.error}
      >
        <input required maxLength={200} value={label} onChange={(event) => setLabel(event.target.value)} />
      </Field>
      <DateRange from={from} to={to} onFrom={setFrom} onTo={setTo} error={action.error} />
      <Field label="Expires on" hint="At most 90 days ahead." name="expires_at" error={action.error}>
        <input type="date" required value={expires} onChange={(event) => setExpires(event.target.value)} />
      </Field>
      <div className="field">
        <label>
          <input type="checkbox" checked={everyone} onChange={(event) => setEveryone(event.target.checked)} />{' '}
          Every worker employed in the period
        </label>
      </div>
      {!everyone && (
        <Field
          label="Workers"
          hint="Hold Ctrl (⌘ on a Mac) to choose several."
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
        Grant access
      </button>
    </form>
  );
}

function AccessLog({ mode, grant }: { mode: Mode; grant: AccessGrant }) {
  const [cursor, setCursor] = useState<string | null>(null);
  const log = useLoad(
    () =>
      api<Page<AccessLogEntry>>(
        'GET',
        `/${mode}/registry/access-grants/${grant.id}/accesses${query({ limit: 50, cursor })}`,
      ),
    [mode, grant.id, cursor],
  );
  return (
    <section aria-labelledby="access-log-title">
      <h3 id="access-log-title">Access log: {grant.label}</h3>
      <ErrorMessage error={log.error} />
      <Loading loading={log.loading && !log.data} />
      <Table
        columns={['When', 'From', 'What', 'Outcome']}
        empty="The link has not been used yet."
        rows={log.data?.data.map((entry) => (
          <tr key={entry.id}>
            <td>{formatInstant(entry.at)}</td>
            <td>{entry.ip}</td>
            <td>{entry.what}</td>
            <td className={entry.outcome === 'ok' ? undefined : 'status-failed'}>{entry.outcome}</td>
          </tr>
        ))}
      />
      <Pager cursor={cursor} next={log.data?.meta} onPage={setCursor} />
    </section>
  );
}
