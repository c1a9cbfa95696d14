import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api, type Mode, type Page, query } from '../../../shared/api.ts';
import { formatDate, useT } from '../../../shared/i18n.ts';
import { can } from '../can.ts';
import { statusLabel } from '../labels.ts';
import type { Company } from '../types.ts';
import {
  ConfirmButton,
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
import { EmployeeContract } from './employee-contract.tsx';
import { EmployeePage } from './employee-page.tsx';
import { ImportEmployees } from './import.tsx';
import { type Employee, fullName } from './names.ts';

type Draft = {
  first_name: string;
  last_name: string;
  email: string;
  external_id: string;
  hire_date: string;
  national_id: string;
  social_security_number: string;
};
const EMPTY: Draft = {
  first_name: '',
  last_name: '',
  email: '',
  external_id: '',
  hire_date: '',
  national_id: '',
  social_security_number: '',
};

function EmployeeForm({
  initial,
  submitLabel,
  onSubmit,
}: {
  initial: Draft;
  submitLabel: string;
  onSubmit: (draft: Draft) => Promise<unknown>;
}) {
  const t = useT();
  const [draft, setDraft] = useState(initial);
  const action = useAction();
  const set = (field: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft({ ...draft, [field]: event.target.value });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.run(() => onSubmit(draft));
  };
  return (
    <form onSubmit={submit} aria-label={submitLabel} className="grid">
      <Field label={t('First name')} name="first_name" error={action.error}>
        <input required value={draft.first_name} onChange={set('first_name')} />
      </Field>
      <Field label={t('Last name')} name="last_name" error={action.error}>
        <input required value={draft.last_name} onChange={set('last_name')} />
      </Field>
      <Field label={t('Email')} name="email" error={action.error}>
        <input type="email" required value={draft.email} onChange={set('email')} />
      </Field>
      <Field label={t('External (payroll) id')} name="external_id" error={action.error}>
        <input value={draft.external_id} onChange={set('external_id')} />
      </Field>
      <Field
        label={t('Hire date')}
        hint={initial.hire_date ? undefined : t('Empty: today.')}
        name="hire_date"
        error={action.error}
      >
        <input type="date" value={draft.hire_date} onChange={set('hire_date')} />
      </Field>
      <Field
        label={t('National id (NIF/NIE)')}
        hint={t('For the registry documents; checked. Never sent in webhooks.')}
        name="national_id"
        error={action.error}
      >
        <input value={draft.national_id} onChange={set('national_id')} autoComplete="off" />
      </Field>
      <Field
        label={t('Social Security number (NAF)')}
        hint={t('12 digits; checked.')}
        name="social_security_number"
        error={action.error}
      >
        <input
          value={draft.social_security_number}
          onChange={set('social_security_number')}
          inputMode="numeric"
          autoComplete="off"
        />
      </Field>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {submitLabel}
      </button>
    </form>
  );
}

/** An optional text field: sent when filled; when emptied while editing, cleared (null). */
const optional = (key: string, value: string, creating: boolean) =>
  value.trim() ? { [key]: value.trim() } : creating ? {} : { [key]: null };

const bodyOf = (draft: Draft, creating: boolean) => ({
  first_name: draft.first_name,
  last_name: draft.last_name,
  email: draft.email,
  ...optional('external_id', draft.external_id, creating),
  ...(draft.hire_date ? { hire_date: draft.hire_date } : {}),
  ...optional('national_id', draft.national_id, creating),
  ...optional('social_security_number', draft.social_security_number, creating),
});

export function EmployeesScreen({ mode, company }: { mode: Mode; company: Company }) {
  const t = useT();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [applied, setApplied] = useState({ q: '', status: '' });
  const [cursor, setCursor] = useState<string | null>(null);
  const list = useLoad(
    () =>
      api<Page<Employee>>(
        'GET',
        `/${mode}/employees/search${query({ q: applied.q, status: applied.status, limit: 25, cursor })}`,
      ),
    [mode, applied, cursor],
  );
  const [selected, setSelected] = useState<Employee | null>(null);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  // The edit panel opens where the reader is: scrolled into view, its heading focused (issue 39).
  const panel = useRef<HTMLElement>(null);
  const panelHeading = useRef<HTMLHeadingElement>(null);
  const selectedId = selected?.id;
  useEffect(() => {
    if (!selectedId) return;
    panel.current?.scrollIntoView({ block: 'start' });
    panelHeading.current?.focus({ preventScroll: true });
  }, [selectedId]);
  const [terminationDate, setTerminationDate] = useState('');
  const [invitation, setInvitation] = useState<{
    url?: string;
    expires_at: string;
    emailed: boolean;
    kind: 'invitation' | 'reset';
  } | null>(null);
  const action = useAction();
  const [notice, setNotice] = useState('');

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setCursor(null);
    setApplied({ q: search, status });
  };

  return (
    <>
      <search>
        <form onSubmit={apply} aria-label={t('Find employees')} className="row">
          <Field label={t('Search')}>
            <input
              type="search"
              placeholder={t('Name, email or external id')}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </Field>
          <Field label={t('Status')}>
            <select value={status} onChange={(event) => setStatus(event.target.value)}>
              <option value="">{t('Any')}</option>
              <option value="active">{t('Active')}</option>
              <option value="terminated">{t('Terminated')}</option>
            </select>
          </Field>
          <button type="submit">{t('Search')}</button>
          {can('createEmployee') && (
            <button type="button" className="secondary" onClick={() => setCreating(!creating)}>
              {creating ? t('Close') : t('New employee')}
            </button>
          )}
          {mode === 'live' && can('dashboardImportEmployees') && (
            <button
              type="button"
              className="secondary"
              aria-expanded={importing}
              onClick={() => setImporting(!importing)}
            >
              {t('Import from a file')}
            </button>
          )}
        </form>
      </search>
      {notice && !selected && <p role="status">{notice}</p>}
      {importing && (
        <ImportEmployees
          onImported={(count) => {
            setNotice(t('Imported {{count}} employees.', { count }));
            list.reload();
          }}
        />
      )}
      {creating && (
        <section className="card">
          <h2>{t('New employee')}</h2>
          <EmployeeForm
            initial={EMPTY}
            submitLabel={t('Create employee')}
            onSubmit={async (draft) => {
              const created = await api<Employee>('POST', `/${mode}/employees`, bodyOf(draft, true));
              setCreating(false);
              setNotice(t('Created {{name}}.', { name: fullName(created) }));
              list.reload();
            }}
          />
        </section>
      )}
      <ErrorMessage error={list.error ?? action.error} />
      <Loading loading={list.loading} />
      <Table
        columns={[t('Name'), t('Email'), t('External id'), t('Status'), t('Hired')]}
        actions
        empty={t('No employees match.')}
        rows={list.data?.data.map((employee) => (
          <tr key={employee.id}>
            <td>{fullName(employee)}</td>
            <td>{employee.email}</td>
            <td>{employee.external_id ?? '—'}</td>
            <td>
              {employee.status === 'active' ? t('employed') : t(statusLabel(employee.status))}
              {employee.termination_date ? ` (${formatDate(employee.termination_date)})` : ''}
            </td>
            <td>{formatDate(employee.hire_date)}</td>
            <td>
              <button
                type="button"
                className="secondary"
                onClick={() => {
                  setSelected(employee);
                  setInvitation(null);
                }}
              >
                {t('Edit {{name}}', { name: fullName(employee) })}
              </button>
            </td>
          </tr>
        ))}
      />
      <Pager cursor={cursor} next={list.data?.meta} onPage={setCursor} />

      {selected && (
        <section ref={panel} className="card" aria-label={t('Edit {{name}}', { name: fullName(selected) })}>
          <div className="row">
            <h2 ref={panelHeading} tabIndex={-1}>
              {fullName(selected)}
            </h2>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setSelected(null);
                setInvitation(null);
              }}
            >
              {t('Close')}
            </button>
          </div>
          {/* What was just saved, where the eyes are (issue 39: it showed above the list, off-screen). */}
          {notice && (
            <p role="status" className="notice">
              {notice}
            </p>
          )}
          {/* Above the employee's forms and pages, which load on their own: an action that stays where it is. */}
          <div className="row" hidden={!can('createPortalInvitation')}>
            <RunButton
              action={action}
              secondary
              work={async () => {
                setInvitation(await api('POST', `/${mode}/employees/${selected.id}/portal-invitation`, {}));
              }}
            >
              {t('Invite to the workers’ portal')}
            </RunButton>
          </div>
          {invitation?.kind === 'reset' && (
            <p className="notice" role="status">
              {t(
                'This employee had a portal login: it was reset. Their sessions ended, their password no longer works, and their documents will say so.',
              )}
            </p>
          )}
          {invitation && invitation.url === undefined && (
            <p role="status">{t('The link went to {{email}} only.', { email: selected.email })}</p>
          )}
          {invitation?.url !== undefined && (
            <SecretOnce
              label={t('Portal invitation: give this link to the employee')}
              secret={invitation.url}
              onDone={() => setInvitation(null)}
            />
          )}
          {can('updateEmployee') && (
            <EmployeeForm
              key={selected.id}
              initial={{
                first_name: selected.first_name,
                last_name: selected.last_name,
                email: selected.email,
                external_id: selected.external_id ?? '',
                hire_date: selected.hire_date,
                national_id: selected.national_id ?? '',
                social_security_number: selected.social_security_number ?? '',
              }}
              submitLabel={t('Save employee')}
              onSubmit={async (draft) => {
                const saved = await api<Employee>(
                  'PATCH',
                  `/${mode}/employees/${selected.id}`,
                  bodyOf(draft, false),
                );
                setSelected(saved);
                setNotice(t('Saved {{name}}.', { name: fullName(saved) }));
                list.reload();
              }}
            />
          )}
          {can('updateEmployee') && (
            <EmployeeContract
              key={`${selected.id}-contract`}
              mode={mode}
              employee={selected}
              companyTimeZone={company.timezone}
              onSaved={(saved) => {
                setSelected(saved);
                setNotice(t('Saved {{name}}.', { name: fullName(saved) }));
                list.reload();
              }}
            />
          )}
          <EmployeePage
            key={`${selected.id}-page`}
            mode={mode}
            employee={selected}
            timeZone={company.timezone}
          />
          {selected.status === 'active' && can('terminateEmployee') && (
            <div className="row">
              <Field label={t('Last day of employment')} hint={t('Empty: today.')}>
                <input
                  type="date"
                  value={terminationDate}
                  onChange={(event) => setTerminationDate(event.target.value)}
                />
              </Field>
              <ConfirmButton
                label={t('Terminate')}
                title={t('Terminate {{name}}?', { name: fullName(selected) })}
                confirmLabel={t('Terminate')}
                onConfirm={() =>
                  void action.run(async () => {
                    const ended = await api<Employee>(
                      'POST',
                      `/${mode}/employees/${selected.id}/terminate`,
                      terminationDate ? { termination_date: terminationDate } : {},
                    );
                    setSelected(ended);
                    setNotice(t('Terminated {{name}}.', { name: fullName(ended) }));
                    list.reload();
                  })
                }
              >
                <p>
                  {t('The seat is freed and the employee can no longer record check-ins after that day.')}
                </p>
                <p>
                  {t(
                    'Absence days after that day stop counting: vacation planned after it goes back to the balance, to be settled.',
                  )}
                </p>
              </ConfirmButton>
            </div>
          )}
        </section>
      )}
    </>
  );
}
