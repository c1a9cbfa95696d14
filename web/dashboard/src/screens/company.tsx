import { type FormEvent, useState } from 'react';
import { allPages, api, formatInstant, type Page, query } from '../../../shared/api.ts';
import { formatDate, msg, useT } from '../../../shared/i18n.ts';
import { todayIn } from '../../../shared/zoned.ts';
import { can, isOwner } from '../can.ts';
import type { Company, Location } from '../types.ts';
import {
  ConfirmButton,
  ErrorMessage,
  Field,
  Loading,
  NamedSelect,
  SaveRow,
  Table,
  useAction,
  useLoad,
} from '../ui.tsx';

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
  // A team lead and payroll see who the administrators are; the company's settings are the owners' and admins'.
  return (
    <>
      {can('dashboardUpdateSettings') && (
        <>
          <Recording company={company} onSaved={onSaved} />
          <RegistryPolicy company={company} onSaved={onSaved} />
          <Holidays timeZone={company.timezone} />
          <AbsenceTypes />
        </>
      )}
      <Administrators me={adminId} />
    </>
  );
}

function Recording({ company, onSaved }: { company: Company; onSaved: () => void }) {
  const t = useT();
  const [start, setStart] = useState(company.tracking_start_date);
  const [hours, setHours] = useState(String(company.late_record_hours));
  const [compensation, setCompensation] = useState(company.overtime_compensation);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const body: Record<string, unknown> = { late_record_hours: Number(hours) };
    if (start !== company.tracking_start_date) body.tracking_start_date = start;
    if (compensation !== company.overtime_compensation) body.overtime_compensation = compensation;
    if (await action.run(() => api('PATCH', '/settings', body))) {
      setSaved(true);
      onSaved();
    }
  };
  return (
    <form onSubmit={submit} className="card" aria-labelledby="recording-title">
      <h2 id="recording-title">{t('Recording')}</h2>
      <div className="grid">
        <Field
          label={t('Tracking start')}
          hint={t(
            'The first day the registry counts (banked hours start here). Earlier only to migrate a history.',
          )}
          name="tracking_start_date"
          error={action.error}
        >
          <input type="date" required value={start} onChange={(event) => setStart(event.target.value)} />
        </Field>
        <Field
          label={t('Late record after (hours)')}
          hint={t('A check-in recorded this long after its time is marked late in the registry.')}
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
        <Field
          label={t('Overtime')}
          hint={t(
            'Time off: it goes to the banked balance. Paid: it counts towards the 80 hours a year (ET art. 35.2). From the first open day on; an employee’s contract may say otherwise.',
          )}
          name="overtime_compensation"
          error={action.error}
        >
          <select
            value={compensation}
            onChange={(event) => setCompensation(event.target.value as typeof compensation)}
          >
            <option value="time_off">{t('Compensated with time off')}</option>
            <option value="paid">{t('Paid')}</option>
          </select>
        </Field>
      </div>
      <ErrorMessage error={action.error} />
      <SaveRow label={t('Save recording settings')} busy={action.busy} saved={saved} />
    </form>
  );
}

/**
 * The registry policy (issue 34): records the worker did not make count, marked, until the worker answers them;
 * or they count only once the worker accepts them. Chosen once, for good, after a confirmation.
 */
function RegistryPolicy({ company, onSaved }: { company: Company; onSaved: () => void }) {
  const t = useT();
  const action = useAction();
  const consent = company.registry_policy === 'worker_consent';
  return (
    <section className="card" aria-labelledby="policy-title">
      <h2 id="policy-title">{t('Records made for a worker')}</h2>
      <p>
        {consent
          ? t('They count only once the worker accepts them in the portal. This choice is final.')
          : t(
              'They count, marked as not made by the worker, who accepts or disputes each one in the portal. You can choose instead that they count only once the worker accepts them: that choice is final.',
            )}
      </p>
      <ErrorMessage error={action.error} />
      {!consent && (
        <ConfirmButton
          label={t('Count them only with the worker’s acceptance')}
          title={t('Count records made for a worker only with their acceptance?')}
          confirmLabel={t('Yes, for good')}
          onConfirm={() =>
            void action.run(async () => {
              await api('PATCH', '/settings', { registry_policy: 'worker_consent' });
              onSaved();
            })
          }
        >
          <p>
            {t('Your workers are told that nothing made by others counts without them. It cannot be undone.')}
          </p>
        </ConfirmButton>
      )}
    </section>
  );
}

type Holiday = {
  id: string;
  date: string;
  name: string;
  name_local: string | null;
  scope: 'national' | 'regional' | 'local' | 'company';
  location_id: string | null;
};

function Holidays({ timeZone }: { timeZone: string }) {
  const t = useT();
  const [year, setYear] = useState(() => todayIn(timeZone).slice(0, 4));
  // The calendar of one work centre (its employees'), or every holiday of the company.
  const [calendar, setCalendar] = useState('');
  const list = useLoad(
    () =>
      api<{ data: Holiday[] }>(
        'GET',
        `/live/holidays${query({ year, ...(calendar ? { location_id: calendar } : {}) })}`,
      ),
    [year, calendar],
  );
  const imported = useAction();
  const scopes = {
    national: t('National'),
    regional: t('Regional'),
    local: t('Local'),
    company: t('Company'),
  };
  const [importResult, setImportResult] = useState<{ added: number; removed: number } | null>(null);
  const centres = useLoad(() => api<Page<Location>>('GET', `/live/locations${query({ limit: 100 })}`), []);
  const centreName = new Map(centres.data?.data.map((centre) => [centre.id, centre.name]) ?? []);
  const [date, setDate] = useState('');
  const [name, setName] = useState('');
  const [centre, setCentre] = useState('');
  const add = useAction();
  const remove = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { date, name, ...(centre ? { location_id: centre } : {}) };
    if (await add.run(() => api('POST', '/live/holidays', body))) {
      setDate('');
      setName('');
      if (date.startsWith(year)) list.reload();
      else setYear(date.slice(0, 4));
    }
  };
  const day = (value: string) => formatDate(value, { weekday: 'long' });
  return (
    <section className="card" aria-labelledby="holidays-title">
      <h2 id="holidays-title">{t('Holidays')}</h2>
      <p className="muted">
        {t('Nobody is expected to work on a holiday; it is named in the registry documents.')}{' '}
        {t('A local holiday (of one work centre) applies to the employees assigned to that centre.')}
      </p>
      <div className="grid">
        <Field label={t('Year')}>
          <input
            type="number"
            min={2000}
            max={2100}
            value={year}
            onChange={(event) => /^\d{4}$/.test(event.target.value) && setYear(event.target.value)}
          />
        </Field>
        <Field label={t('Calendar of')}>
          <select value={calendar} onChange={(event) => setCalendar(event.target.value)}>
            <option value="">{t('All (the whole company)')}</option>
            {centres.data?.data.map((centre) => (
              <option key={centre.id} value={centre.id}>
                {centre.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <p className="muted">
        {t(
          'National and regional holidays come with each work centre’s region (Settings, Work centres). Apply the built-in calendar again after an update brings a new year.',
        )}
      </p>
      <button
        type="button"
        className="secondary"
        disabled={imported.busy}
        onClick={() =>
          void imported.run(async () => {
            setImportResult(await api('POST', '/live/holidays/import'));
            list.reload();
          })
        }
      >
        {t('Apply the built-in calendar')}
      </button>
      {importResult && (
        <p role="status">
          {t('{{added}} holidays added, {{removed}} removed.', {
            added: importResult.added,
            removed: importResult.removed,
          })}
        </p>
      )}
      <ErrorMessage error={imported.error} />
      <ErrorMessage error={list.error ?? remove.error} />
      <Loading loading={list.loading && !list.data} />
      <Table
        label={t('Holidays of {{year}}', { year })}
        columns={[t('Date'), t('Day'), t('Name'), t('Kind'), t('Work centre')]}
        actions
        empty={t('No holiday in {{year}}.', { year })}
        rows={list.data?.data.map((holiday) => (
          <tr key={holiday.id}>
            <td>{formatDate(holiday.date)}</td>
            <td>{day(holiday.date)}</td>
            <td>
              {holiday.name}
              {holiday.name_local && <span className="muted"> · {holiday.name_local}</span>}
            </td>
            <td>{scopes[holiday.scope]}</td>
            <td>
              {holiday.location_id
                ? (centreName.get(holiday.location_id) ?? holiday.location_id)
                : holiday.scope === 'regional'
                  ? t('Employees without a work centre')
                  : t('All (the whole company)')}
            </td>
            <td>
              <ConfirmButton
                label={t('Remove {{name}} ({{date}})', {
                  name: holiday.name,
                  date: formatDate(holiday.date),
                })}
                title={t('Remove the holiday of {{date}}?', { date: formatDate(holiday.date) })}
                confirmLabel={t('Remove')}
                disabled={remove.busy}
                onConfirm={() =>
                  void remove.run(async () => {
                    await api('DELETE', `/live/holidays/${holiday.id}`);
                    list.reload();
                  })
                }
              >
                <p>
                  {holiday.location_id
                    ? t(
                        '{{date}} becomes a working day again for the employees of {{centre}}: those scheduled that day are expected to work.',
                        {
                          date: formatDate(holiday.date),
                          centre: centreName.get(holiday.location_id) ?? holiday.location_id,
                        },
                      )
                    : t(
                        '{{date}} becomes a working day again: everyone scheduled that day is expected to work.',
                        { date: formatDate(holiday.date) },
                      )}
                </p>
              </ConfirmButton>
            </td>
          </tr>
        ))}
      />
      <form onSubmit={submit} aria-label={t('Add a holiday')}>
        <div className="grid">
          <Field label={t('Date')} name="date" error={add.error}>
            <input type="date" required value={date} onChange={(event) => setDate(event.target.value)} />
          </Field>
          <Field label={t('Name')} name="name" error={add.error}>
            <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          </Field>
          <Field label={t('Work centre')} name="location_id" error={add.error}>
            <NamedSelect
              value={centre}
              onChange={setCentre}
              items={centres.data?.data}
              none={t('All (the whole company)')}
            />
          </Field>
        </div>
        <ErrorMessage error={add.error} />
        <button type="submit" disabled={add.busy}>
          {t('Add holiday')}
        </button>
      </form>
    </section>
  );
}

type AbsenceType = { key: string; label: string };

function AbsenceTypes() {
  const t = useT();
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
      <h2 id="types-title">{t('Absence types')}</h2>
      <ErrorMessage error={list.error} />
      <Table
        label={t('Absence types')}
        columns={[t('Label'), t('Key')]}
        empty={t('No absence type.')}
        rows={list.data?.data.map((type) => (
          <tr key={type.key}>
            <td>{type.label}</td>
            <td>
              <code>{type.key}</code>
            </td>
          </tr>
        ))}
      />
      <form onSubmit={submit} aria-label={t('Add an absence type')}>
        <div className="grid">
          <Field label={t('Label')} name="label" error={add.error}>
            <input
              required
              maxLength={100}
              value={label}
              onChange={(event) => setLabel(event.target.value)}
            />
          </Field>
          <Field
            label={t('Key')}
            hint={t('For integrations: lower-case letters, digits and _.')}
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
          {t('Add absence type')}
        </button>
      </form>
    </section>
  );
}

type Role = 'owner' | 'admin' | 'team_lead' | 'payroll';
type Admin = {
  id: string;
  email: string;
  role: Role;
  unit_ids: string[];
  created_at: string;
  disabled_at?: string | null;
};
type UnitOption = { id: string; name: string };

const ROLE_LABELS: Record<Role, string> = {
  owner: msg('Owner'),
  admin: msg('Administrator'),
  team_lead: msg('Team lead'),
  payroll: msg('Payroll (read-only)'),
};
const ROLE_HINTS: Record<Role, string> = {
  owner: msg('Everything, including the administrators and the API addon.'),
  admin: msg('Everything but the administrators and the API addon.'),
  team_lead: msg(
    'Only the employees of their units: their days, absences, corrections and shifts; decides their requests.',
  ),
  payroll: msg('Reads work summaries, reports and documents; changes nothing.'),
};

/** A role, and a team lead's units (issue 39). */
function RoleFields({
  role,
  unitIds,
  units,
  onChange,
  error,
}: {
  role: Role;
  unitIds: string[];
  units: UnitOption[];
  onChange: (role: Role, unitIds: string[]) => void;
  error: unknown;
}) {
  const t = useT();
  return (
    <>
      <Field label={t('Role')} name="role" hint={t(ROLE_HINTS[role])} error={error}>
        <select value={role} onChange={(event) => onChange(event.target.value as Role, unitIds)}>
          {(Object.keys(ROLE_LABELS) as Role[]).map((value) => (
            <option key={value} value={value}>
              {t(ROLE_LABELS[value])}
            </option>
          ))}
        </select>
      </Field>
      {role === 'team_lead' && (
        <fieldset className="checks">
          <legend>{t('Units they lead (with the units below)')}</legend>
          {units.length === 0 && <p className="muted">{t('No unit yet: add one under Units.')}</p>}
          {units.map((unit) => (
            <label key={unit.id}>
              <input
                type="checkbox"
                checked={unitIds.includes(unit.id)}
                onChange={(event) =>
                  onChange(
                    role,
                    event.target.checked ? [...unitIds, unit.id] : unitIds.filter((id) => id !== unit.id),
                  )
                }
              />
              {unit.name}
            </label>
          ))}
        </fieldset>
      )}
    </>
  );
}

function Administrators({ me }: { me: string }) {
  const t = useT();
  const list = useLoad(async () => {
    const [admins, units] = await Promise.all([
      api<{ data: Admin[] }>('GET', '/admins'),
      allPages<UnitOption>('/live/units', {}),
    ]);
    return { data: admins.data, units };
  }, []);
  const disable = useAction();
  const change = useAction();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('admin');
  const [unitIds, setUnitIds] = useState<string[]>([]);
  const [editing, setEditing] = useState<{ role: Role; unitIds: string[] }>({ role: 'admin', unitIds: [] });
  const [added, setAdded] = useState('');
  const add = useAction();
  const manage = isOwner();
  const units = list.data?.units ?? [];
  const unitNames = new Map(units.map((unit) => [unit.id, unit.name]));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAdded('');
    const body = { email, password, role, ...(role === 'team_lead' ? { unit_ids: unitIds } : {}) };
    if (await add.run(() => api('POST', '/admins', body))) {
      setAdded(
        t('Added {{email}}. Give them the password through a safe channel; they can log in now.', { email }),
      );
      setEmail('');
      setPassword('');
      list.reload();
    }
  };
  return (
    <section className="card" aria-labelledby="admins-title">
      <h2 id="admins-title">{t('Administrators')}</h2>
      <ErrorMessage error={list.error} />
      <ErrorMessage error={disable.error ?? change.error} />
      <Table
        label={t('Administrators')}
        columns={[t('Email'), t('Role'), t('Since'), t('Status')]}
        actions={manage}
        empty={t('No administrator.')}
        rows={list.data?.data.map((admin) => (
          <tr key={admin.id}>
            <td>{admin.email}</td>
            <td>
              {t(ROLE_LABELS[admin.role])}
              {admin.role === 'team_lead' &&
                `: ${admin.unit_ids.map((id) => unitNames.get(id) ?? id).join(', ')}`}
            </td>
            <td>{formatInstant(admin.created_at)}</td>
            <td className={admin.disabled_at ? 'status-disabled' : 'status-active'}>
              {admin.disabled_at
                ? t('disabled {{when}}', { when: formatInstant(admin.disabled_at) })
                : t('active')}
            </td>
            {manage && (
              <td>
                {!admin.disabled_at && admin.id !== me && (
                  <div className="row">
                    <ConfirmButton
                      danger={false}
                      label={t('Change the role of {{email}}', { email: admin.email })}
                      title={t('Role of {{email}}', { email: admin.email })}
                      confirmLabel={t('Save')}
                      disabled={change.busy}
                      onOpen={() => setEditing({ role: admin.role, unitIds: admin.unit_ids })}
                      onConfirm={() =>
                        void change.run(async () => {
                          await api('PATCH', `/admins/${admin.id}`, {
                            role: editing.role,
                            ...(editing.role === 'team_lead' ? { unit_ids: editing.unitIds } : {}),
                          });
                          list.reload();
                        })
                      }
                    >
                      <RoleFields
                        role={editing.role}
                        unitIds={editing.unitIds}
                        units={units}
                        error={change.error}
                        onChange={(next, ids) => setEditing({ role: next, unitIds: ids })}
                      />
                    </ConfirmButton>
                    <ConfirmButton
                      label={t('Disable {{email}}', { email: admin.email })}
                      title={t('Disable {{email}}?', { email: admin.email })}
                      confirmLabel={t('Disable')}
                      disabled={disable.busy}
                      onConfirm={() =>
                        void disable.run(async () => {
                          await api('POST', `/admins/${admin.id}/disable`);
                          list.reload();
                        })
                      }
                    >
                      <p>
                        {t(
                          'They can no longer log in and their open sessions end at once. Their name stays on what they recorded and approved in the registry.',
                        )}
                      </p>
                    </ConfirmButton>
                  </div>
                )}
              </td>
            )}
          </tr>
        ))}
      />
      {manage && (
        <form onSubmit={submit} aria-label={t('Add an administrator')}>
          <div className="grid">
            <Field label={t('Email')} name="email" error={add.error}>
              <input
                type="email"
                required
                autoComplete="off"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            </Field>
            <Field
              label={t('First password')}
              hint={t('12 characters or more.')}
              name="password"
              error={add.error}
            >
              <input
                type="password"
                required
                minLength={12}
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            </Field>
            <RoleFields
              role={role}
              unitIds={unitIds}
              units={units}
              error={add.error}
              onChange={(next, ids) => {
                setRole(next);
                setUnitIds(ids);
              }}
            />
          </div>
          <ErrorMessage error={add.error} />
          <div className="row">
            <button type="submit" disabled={add.busy}>
              {t('Add administrator')}
            </button>
            {added && <span role="status">{added}</span>}
          </div>
        </form>
      )}
    </section>
  );
}
