import { type FormEvent, useState } from 'react';
import { api, formatInstant, type Page, query } from '../api.ts';
import type { Company } from '../types.ts';
import { ConfirmButton, ErrorMessage, Field, Loading, SaveRow, Table, useAction, useLoad } from '../ui.tsx';
import { todayIn } from '../zoned.ts';

/**
 * The company settings an HR administrator keeps (issue 17): when recording started and when a check-in counts
 * as late, the holidays of a year, the absence types and the administrators. Holidays and absence types are the
 * live company's (the sandbox keeps its own through the API).
 */
export function CompanySettings({
  company,
  adminId,
  onSaved,
}: {
  company: Company;
  adminId: string;
  onSaved: () => void;
}) {
  return (
    <>
      <Recording company={company} onSaved={onSaved} />
      <Holidays timeZone={company.timezone} />
      <AbsenceTypes />
      <Administrators me={adminId} />
    </>
  );
}

function Recording({ company, onSaved }: { company: Company; onSaved: () => void }) {
  const [start, setStart] = useState(company.tracking_start_date);
  const [hours, setHours] = useState(String(company.late_record_hours));
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const body: Record<string, unknown> = { late_record_hours: Number(hours) };
    if (start !== company.tracking_start_date) body.tracking_start_date = start;
    if (await action.run(() => api('PATCH', '/settings', body))) {
      setSaved(true);
      onSaved();
    }
  };
  return (
    <form onSubmit={submit} className="card" aria-labelledby="recording-title">
      <h2 id="recording-title">Recording</h2>
      <div className="grid">
        <Field
          label="Tracking start"
          hint="The first day the registry counts (banked hours start here). Earlier only to migrate a history."
          name="tracking_start_date"
          error={action.error}
        >
          <input type="date" required value={start} onChange={(event) => setStart(event.target.value)} />
        </Field>
        <Field
          label="Late record after (hours)"
          hint="A check-in recorded this long after its time is marked late in the registry."
          name="late_record_hours"
          error={action.error}
        >
          <input
            type="number"
            min={1}
            max={8760}
            required
            value={hours}
            onChange={(event) => setHours(event.target.value)}
          />
        </Field>
      </div>
      <ErrorMessage error={action.error} />
      <SaveRow label="Save recording settings" busy={action.busy} saved={saved} />
    </form>
  );
}

type Holiday = { id: string; date: string; name: string };

function Holidays({ timeZone }: { timeZone: string }) {
  const [year, setYear] = useState(() => todayIn(timeZone).slice(0, 4));
  const list = useLoad(
    () =>
      api<{ data: Holiday[] }>(
        'GET',
        `/live/holidays${query({ from: `${year}-01-01`, to: `${year}-12-31` })}`,
      ),
    [year],
  );
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const add = useAction();
  const remove = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await add.run(() => api('POST', '/live/holidays', { date, name }))) {
      setDate('');
      setName('');
      if (date.startsWith(year)) list.reload();
      else setYear(date.slice(0, 4));
    }
  };
  const day = (value: string) =>
    new Intl.DateTimeFormat('en-GB', {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    }).format(new Date(`${value}T12:00:00Z`));
  return (
    <section className="card" aria-labelledby="holidays-title">
      <h2 id="holidays-title">Holidays</h2>
      <p className="muted">Nobody is expected to work on a holiday; it is named in the registry documents.</p>
      <Field label="Year">
        <input
          type="number"
          min={2000}
          max={2100}
          value={year}
          onChange={(event) => /^\d{4}$/.test(event.target.value) && setYear(event.target.value)}
        />
      </Field>
      <ErrorMessage error={list.error ?? remove.error} />
      <Loading loading={list.loading && !list.data} />
      <Table
        label={`Holidays of ${year}`}
        columns={['Date', 'Day', 'Name']}
        actions
        empty={`No holiday in ${year}.`}
        rows={list.data?.data.map((holiday) => (
          <tr key={holiday.id}>
            <td>{holiday.date}</td>
            <td>{day(holiday.date)}</td>
            <td>{holiday.name}</td>
            <td>
              <ConfirmButton
                label={`Remove ${holiday.name} (${holiday.date})`}
                title={`Remove the holiday of ${holiday.date}?`}
                confirmLabel="Remove"
                disabled={remove.busy}
                onConfirm={() =>
                  void remove.run(async () => {
                    await api('DELETE', `/live/holidays/${holiday.id}`);
                    list.reload();
                  })
                }
              >
                <p>
                  {holiday.date} becomes a working day again: everyone scheduled that day is expected to work.
                </p>
              </ConfirmButton>
            </td>
          </tr>
        ))}
      />
      <form onSubmit={submit} aria-label="Add a holiday">
        <div className="grid">
          <Field label="Date" name="date" error={add.error}>
            <input type="date" required value={date} onChange={(event) => setDate(event.target.value)} />
          </Field>
          <Field label="Name" name="name" error={add.error}>
            <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          </Field>
        </div>
        <ErrorMessage error={add.error} />
        <button type="submit" disabled={add.busy}>
          Add holiday
        </button>
      </form>
    </section>
  );
}

type AbsenceType = { key: string; label: string };

function AbsenceTypes() {
  const list = useLoad(
    () => api<Page<AbsenceType>>('GET', `/live/absence-types${query({ limit: 100 })}`),
    [],
  );
  const [key, setKey] = useState('');
  const [label, setLabel] = useState('');
  const add = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await add.run(() => api('POST', '/live/absence-types', { key, label }))) {
      setKey('');
      setLabel('');
      list.reload();
    }
  };
  return (
    <section className="card" aria-labelledby="types-title">
      <h2 id="types-title">Absence types</h2>
      <ErrorMessage error={list.error} />
      <Table
        label="Absence types"
        columns={['Label', 'Key']}
        empty="No absence type."
        rows={list.data?.data.map((type) => (
          <tr key={type.key}>
            <td>{type.label}</td>
            <td>
              <code>{type.key}</code>
            </td>
          </tr>
        ))}
      />
      <form onSubmit={submit} aria-label="Add an absence type">
        <div className="grid">
          <Field label="Label" name="label" error={add.error}>
            <input
              required
              maxLength={100}
              value={label}
              onChange={(event) => setLabel(event.target.value)}
            />
          </Field>
          <Field
            label="Key"
            hint="For integrations: lower-case letters, digits and _."
            name="key"
            error={add.error}
          >
            <input
              required
              pattern="[a-z][a-z0-9_]*"
              value={key}
              onChange={(event) => setKey(event.target.value)}
            />
          </Field>
        </div>
        <ErrorMessage error={add.error} />
        <button type="submit" disabled={add.busy}>
          Add absence type
        </button>
      </form>
    </section>
  );
}

type Admin = { id: string; email: string; created_at: string; disabled_at?: string | null };

function Administrators({ me }: { me: string }) {
  const list = useLoad(() => api<{ data: Admin[] }>('GET', '/admins'), []);
  const disable = useAction();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [added, setAdded] = useState('');
  const add = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAdded('');
    if (await add.run(() => api('POST', '/admins', { email, password }))) {
      setAdded(`Added ${email}. Give them the password through a safe channel; they can log in now.`);
      setEmail('');
      setPassword('');
      list.reload();
    }
  };
  return (
    <section className="card" aria-labelledby="admins-title">
      <h2 id="admins-title">Administrators</h2>
      <ErrorMessage error={list.error} />
      <ErrorMessage error={disable.error} />
      <Table
        label="Administrators"
        columns={['Email', 'Since', 'Status']}
        actions
        empty="No administrator."
        rows={list.data?.data.map((admin) => (
          <tr key={admin.id}>
            <td>{admin.email}</td>
            <td>{formatInstant(admin.created_at)}</td>
            <td className={admin.disabled_at ? 'status-disabled' : 'status-active'}>
              {admin.disabled_at ? `disabled ${formatInstant(admin.disabled_at)}` : 'active'}
            </td>
            <td>
              {!admin.disabled_at && admin.id !== me && (
                <ConfirmButton
                  label={`Disable ${admin.email}`}
                  title={`Disable ${admin.email}?`}
                  confirmLabel="Disable"
                  disabled={disable.busy}
                  onConfirm={() =>
                    void disable.run(async () => {
                      await api('POST', `/admins/${admin.id}/disable`);
                      list.reload();
                    })
                  }
                >
                  <p>
                    They can no longer log in and their open sessions end at once. Their name stays on what
                    they recorded and approved in the registry.
                  </p>
                </ConfirmButton>
              )}
            </td>
          </tr>
        ))}
      />
      <form onSubmit={submit} aria-label="Add an administrator">
        <div className="grid">
          <Field label="Email" name="email" error={add.error}>
            <input
              type="email"
              required
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </Field>
          <Field label="First password" hint="12 characters or more." name="password" error={add.error}>
            <input
              type="password"
              required
              minLength={12}
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </Field>
        </div>
        <ErrorMessage error={add.error} />
        <div className="row">
          <button type="submit" disabled={add.busy}>
            Add administrator
          </button>
          {added && <span role="status">{added}</span>}
        </div>
      </form>
    </section>
  );
}
