import { type FormEvent, useEffect, useRef, useState } from 'react';
import { allPages, api, type Page } from '../../../shared/api.ts';
import { formatMonth, formatNumber, useT } from '../../../shared/i18n.ts';
import { can, isOwner } from '../can.ts';
import { statusLabel } from '../labels.ts';
import { REGIONS, regionName } from '../regions.ts';
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
import { CompanySettings } from './company.tsx';
import { AdminPasskeys } from './passkeys.tsx';

type Usage = { used: number; quota: number };
type Settings = {
  company: Company;
  usage: { month: string; live: Usage; test: Usage | null };
  rate_limits: { live: number; test: number };
};

export function SettingsScreen({ adminId, onChange }: { adminId: string; onChange: () => void }) {
  const t = useT();
  const settings = useLoad(() => api<Settings>('GET', '/settings'), []);
  const action = useAction();
  const set = (enabled: boolean) =>
    void action.run(async () => {
      await api('PATCH', '/settings', { addon_enabled: enabled });
      settings.reload();
      onChange();
    });
  const data = settings.data;
  // The company's settings are the owners' and admins'; everyone keeps their passkeys here.
  const manage = can('dashboardUpdateSettings');
  return (
    <>
      <ErrorMessage error={settings.error ?? action.error} />
      <Loading loading={settings.loading && !data} />
      {data && (
        <>
          {manage && (
            <>
              <LegalIdentity
                company={data.company}
                onSaved={() => {
                  settings.reload();
                  onChange();
                }}
              />
              <WorkCentres />
              <Units />
            </>
          )}
          <AdminPasskeys />
          <CompanySettings
            company={data.company}
            adminId={adminId}
            onSaved={() => {
              settings.reload();
              onChange();
            }}
          />
          {manage && (
            <section className="card" aria-label={t('Public API addon')}>
              <h2>{t('Public API addon')}</h2>
              <p>{data.company.addon_enabled ? t('The addon is on.') : t('The addon is off.')}</p>
              {!isOwner() ? (
                <p className="muted">{t('Only an owner switches the addon.')}</p>
              ) : data.company.addon_enabled ? (
                <ConfirmButton
                  label={t('Switch the addon off')}
                  title={t('Switch the public API addon off?')}
                  confirmLabel={t('Switch off and delete')}
                  disabled={action.busy}
                  onConfirm={() => set(false)}
                >
                  <p>{t('This takes effect at once and cannot be undone:')}</p>
                  <ul>
                    <li>{t('every API key, live and test, is revoked; integrations stop working;')}</li>
                    <li>{t('every generated report and its file is deleted;')}</li>
                    <li>{t('the sandbox (test) company is removed with all of its data.')}</li>
                  </ul>
                  <p>{t('Switching it on again creates a new, empty sandbox. No key comes back.')}</p>
                </ConfirmButton>
              ) : (
                <ConfirmButton
                  label={t('Switch the addon on')}
                  title={t('Switch the public API addon on?')}
                  confirmLabel={t('Switch on')}
                  danger={false}
                  disabled={action.busy}
                  onConfirm={() => set(true)}
                >
                  <p>{t('A new, empty sandbox is created. You then create new API keys.')}</p>
                </ConfirmButton>
              )}
            </section>
          )}
          {manage && (
            <section className="card" aria-label={t('Subscription and limits')}>
              <h2>{t('Subscription and limits')}</h2>
              <dl className="figures">
                <dt>{t('Service')}</dt>
                <dd>{data.company.service_active ? t('active') : t('inactive')}</dd>
                <dt>{t('Subscription')}</dt>
                <dd>{t(statusLabel(data.company.subscription_status))}</dd>
                <dt>{t('Company status')}</dt>
                <dd>{t(statusLabel(data.company.company_status))}</dd>
                <dt>{t('Seats')}</dt>
                <dd>
                  {t('{{used}} of {{total}} in use', {
                    used: formatNumber(data.company.active_employees),
                    total: formatNumber(data.company.seats),
                  })}
                </dd>
                <dt>{t('Live requests in {{month}}', { month: formatMonth(data.usage.month) })}</dt>
                <dd>
                  {t('{{used}} of {{total}}', {
                    used: formatNumber(data.usage.live.used),
                    total: formatNumber(data.usage.live.quota),
                  })}
                </dd>
                <dt>{t('Test requests in {{month}}', { month: formatMonth(data.usage.month) })}</dt>
                <dd>
                  {data.usage.test
                    ? t('{{used}} of {{total}}', {
                        used: formatNumber(data.usage.test.used),
                        total: formatNumber(data.usage.test.quota),
                      })
                    : t('no sandbox')}
                </dd>
                <dt>{t('Rate limits')}</dt>
                <dd>
                  {t('live {{live}}/min per key, test {{test}}/min per key', {
                    live: formatNumber(data.rate_limits.live),
                    test: formatNumber(data.rate_limits.test),
                  })}
                </dd>
                <dt>{t('Active keys allowed')}</dt>
                <dd>{data.company.max_active_keys}</dd>
                <dt>{t('Default key expiration')}</dt>
                <dd>
                  {data.company.default_expiration_days === null
                    ? t('none')
                    : t('{{count}} days', { count: data.company.default_expiration_days })}
                </dd>
              </dl>
            </section>
          )}
        </>
      )}
    </>
  );
}

/** The company's legal name and tax id, printed on the registry documents (docs/registry.md). */
function LegalIdentity({ company, onSaved }: { company: Company; onSaved: () => void }) {
  const t = useT();
  const [legalName, setLegalName] = useState(company.legal_name ?? '');
  const [taxId, setTaxId] = useState(company.tax_id ?? '');
  const [region, setRegion] = useState<string>(company.default_region ?? '');
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const done = await action.run(() =>
      api('PATCH', '/settings', {
        legal_name: legalName.trim() || null,
        tax_id: taxId.trim() || null,
        ...(region !== (company.default_region ?? '') ? { default_region: region || null } : {}),
      }),
    );
    if (done) {
      setSaved(true);
      onSaved();
    }
  };
  return (
    <form onSubmit={submit} className="card" aria-labelledby="identity-title">
      <h2 id="identity-title">{t('Legal identity')}</h2>
      <p className="muted">{t('Printed on every worker’s registry document and shown to the Inspección.')}</p>
      <div className="grid">
        <Field
          label={t('Legal name')}
          hint={t('As registered, e.g. “Panadería Sol, S.L.”.')}
          name="legal_name"
          error={action.error}
        >
          <input maxLength={200} value={legalName} onChange={(event) => setLegalName(event.target.value)} />
        </Field>
        <Field
          label={t('Tax id (CIF/NIF)')}
          hint={t('Checked, control character included.')}
          name="tax_id"
          error={action.error}
        >
          <input value={taxId} onChange={(event) => setTaxId(event.target.value)} autoComplete="off" />
        </Field>
        <Field
          label={t('Region')}
          hint={t('Of the work centres without their own and the employees without one: their holidays.')}
          name="default_region"
          error={action.error}
        >
          <NamedSelect value={region} onChange={setRegion} items={REGIONS} none={t('No region')} />
        </Field>
      </div>
      <ErrorMessage error={action.error} />
      <SaveRow label={t('Save legal identity')} busy={action.busy} saved={saved} />
    </form>
  );
}

/** The work centres (locations) with their address and contribution account code (CCC). */
function WorkCentres() {
  const t = useT();
  const locations = useLoad(() => api<Page<Location>>('GET', '/live/locations?limit=100'), []);
  const [editing, setEditing] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  return (
    <section className="card" aria-labelledby="centres-title">
      <h2 id="centres-title">{t('Work centres')}</h2>
      <p className="muted">
        {t('Each centre’s address and CCC head the documents of the workers assigned to it.')}
      </p>
      <ErrorMessage error={locations.error} />
      <Loading loading={locations.loading && !locations.data} />
      <Table
        columns={[t('Centre'), t('Address'), t('CCC'), t('Region'), t('Time zone')]}
        actions
        empty={t('No work centre yet.')}
        rows={locations.data?.data.map((location) => (
          <tr key={location.id}>
            <td>{location.name}</td>
            <td>{location.address ?? '—'}</td>
            <td>{location.ccc ?? '—'}</td>
            <td>
              {regionName(location.region) ?? t('Company default')}
              {location.municipality ? ` · ${location.municipality}` : ''}
            </td>
            <td>{location.timezone}</td>
            <td>
              <button
                type="button"
                className="secondary"
                aria-expanded={editing === location.id}
                onClick={() => setEditing(editing === location.id ? null : location.id)}
              >
                {t('Edit {{name}}', { name: location.name })}
              </button>
            </td>
          </tr>
        ))}
      />
      {locations.data?.data
        .filter((location) => location.id === editing)
        .map((location) => (
          <CentreForm
            key={location.id}
            location={location}
            onSaved={() => {
              setEditing(null);
              setSaved(t('Saved {{name}}.', { name: location.name }));
              locations.reload();
            }}
          />
        ))}
      {saved && <p role="status">{saved}</p>}
      <NewCentre
        onCreated={(name) => {
          setSaved(t('Created {{name}}.', { name }));
          locations.reload();
        }}
      />
    </section>
  );
}

/** A new work centre (issue 39: only the operator could create one): its name; the rest in its edit form. */
function NewCentre({ onCreated }: { onCreated: (name: string) => void }) {
  const t = useT();
  const [name, setName] = useState('');
  const [region, setRegion] = useState('');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), ...(region ? { region } : {}) };
    if (await action.run(() => api('POST', '/locations', body))) {
      onCreated(body.name);
      setName('');
    }
  };
  return (
    <form onSubmit={submit} aria-label={t('Add a work centre')}>
      <div className="grid">
        <Field label={t('Name')} name="name" error={action.error}>
          <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label={t('Region')} name="region" error={action.error}>
          <NamedSelect value={region} onChange={setRegion} items={REGIONS} none={t('No region')} />
        </Field>
      </div>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {t('Add work centre')}
      </button>
    </form>
  );
}

type UnitRow = { id: string; name: string; parent_id: string | null };

/** The company's units (teams, departments), each under another or at the top (issue 39). */
function Units() {
  const t = useT();
  const units = useLoad(() => allPages<UnitRow>('/live/units', {}), []);
  const [editing, setEditing] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const list = units.data ?? [];
  const names = new Map(list.map((unit) => [unit.id, unit.name]));
  return (
    <section className="card" aria-labelledby="units-title">
      <h2 id="units-title">{t('Units')}</h2>
      <p className="muted">
        {t('Teams and departments. A team lead leads the people of their units and of the units below them.')}
      </p>
      <ErrorMessage error={units.error} />
      <Loading loading={units.loading && !units.data} />
      <Table
        columns={[t('Unit'), t('Under')]}
        actions
        empty={t('No unit yet.')}
        rows={list.map((unit) => (
          <tr key={unit.id}>
            <td>{unit.name}</td>
            <td>{unit.parent_id ? (names.get(unit.parent_id) ?? '—') : '—'}</td>
            <td>
              <button
                type="button"
                className="secondary"
                aria-expanded={editing === unit.id}
                onClick={() => setEditing(editing === unit.id ? null : unit.id)}
              >
                {t('Edit {{name}}', { name: unit.name })}
              </button>
            </td>
          </tr>
        ))}
      />
      {list
        .filter((unit) => unit.id === editing)
        .map((unit) => (
          <UnitForm
            key={unit.id}
            unit={unit}
            units={list}
            onSaved={(name) => {
              setEditing(null);
              setSaved(t('Saved {{name}}.', { name }));
              units.reload();
            }}
          />
        ))}
      {saved && <p role="status">{saved}</p>}
      <UnitForm
        units={list}
        onSaved={(name) => {
          setSaved(t('Created {{name}}.', { name }));
          units.reload();
        }}
      />
    </section>
  );
}

/** A unit's name and the unit above it: a new unit's, or an existing one's (opened in view, focused). */
function UnitForm({
  unit,
  units,
  onSaved,
}: {
  unit?: UnitRow;
  units: UnitRow[];
  onSaved: (name: string) => void;
}) {
  const t = useT();
  const [name, setName] = useState(unit?.name ?? '');
  const [parent, setParent] = useState(unit?.parent_id ?? '');
  const action = useAction();
  const form = useRef<HTMLFormElement>(null);
  const editing = unit !== undefined;
  useEffect(() => {
    if (!editing) return;
    form.current?.scrollIntoView({ block: 'nearest' });
    form.current?.querySelector('input')?.focus({ preventScroll: true });
  }, [editing]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { name: name.trim(), parent_id: parent || null };
    const done = await action.run(() =>
      unit ? api('PATCH', `/units/${unit.id}`, body) : api('POST', '/units', body),
    );
    if (done) {
      onSaved(body.name);
      if (!unit) {
        setName('');
        setParent('');
      }
    }
  };
  return (
    <form
      ref={form}
      onSubmit={submit}
      aria-label={unit ? t('Edit {{name}}', { name: unit.name }) : t('Add a unit')}
    >
      <div className="grid">
        <Field label={t('Name')} name="name" error={action.error}>
          <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label={t('Under')} name="parent_id" error={action.error}>
          <NamedSelect
            value={parent}
            onChange={setParent}
            items={units.filter((other) => other.id !== unit?.id)}
            none={t('No unit above (top level)')}
          />
        </Field>
      </div>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {unit ? t('Save unit') : t('Add unit')}
      </button>
    </form>
  );
}

function CentreForm({ location, onSaved }: { location: Location; onSaved: () => void }) {
  const t = useT();
  const [address, setAddress] = useState(location.address ?? '');
  const [ccc, setCcc] = useState(location.ccc ?? '');
  const [region, setRegion] = useState<string>(location.region ?? '');
  const [municipality, setMunicipality] = useState(location.municipality ?? '');
  // Location at the punch (issue 40, docs/privacy.md): off unless turned on, with the centre's circle.
  const [capture, setCapture] = useState<'off' | 'at_punch'>(location.location_capture);
  const [latitude, setLatitude] = useState(location.geofence ? String(location.geofence.latitude) : '');
  const [longitude, setLongitude] = useState(location.geofence ? String(location.geofence.longitude) : '');
  const [radius, setRadius] = useState(location.geofence ? String(location.geofence.radius_m) : '');
  const action = useAction();
  // The form opens in view with its first field focused (issue 39: it opened below the list, unseen on a phone).
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.scrollIntoView({ block: 'nearest' });
    form.current?.querySelector('input')?.focus({ preventScroll: true });
  }, []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await action.run(() =>
      api('PATCH', `/locations/${location.id}`, {
        address: address.trim() || null,
        ccc: ccc.trim() || null,
        region: region || null,
        municipality: municipality.trim() || null,
        location_capture: capture,
        geofence:
          latitude.trim() && longitude.trim() && radius.trim()
            ? { latitude: Number(latitude), longitude: Number(longitude), radius_m: Number(radius) }
            : null,
      }),
    );
    if (done) onSaved();
  };
  return (
    <form
      ref={form}
      onSubmit={submit}
      className="grid"
      aria-label={t('Edit {{name}}', { name: location.name })}
    >
      <Field label={t('Address')} name="address" error={action.error}>
        <input maxLength={500} value={address} onChange={(event) => setAddress(event.target.value)} />
      </Field>
      <Field
        label={t('CCC (código cuenta de cotización)')}
        hint={t('11 digits; checked.')}
        name="ccc"
        error={action.error}
      >
        <input
          value={ccc}
          onChange={(event) => setCcc(event.target.value)}
          inputMode="numeric"
          autoComplete="off"
        />
      </Field>
      <Field
        label={t('Region')}
        hint={t('Its national and regional holidays are added to the calendar of its employees.')}
        name="region"
        error={action.error}
      >
        <NamedSelect value={region} onChange={setRegion} items={REGIONS} none={t('No region')} />
      </Field>
      <Field label={t('Municipality')} name="municipality" error={action.error}>
        <input
          maxLength={200}
          value={municipality}
          onChange={(event) => setMunicipality(event.target.value)}
        />
      </Field>
      <fieldset>
        <legend>{t('Location at the punch')}</legend>
        <p className="muted">
          {t(
            'Only at the moment of the punch, after the worker reads the notice; rounded to about 100 m; a worker may decline. Assess it first (docs/privacy.md).',
          )}
        </p>
        <div className="checks">
          <label>
            <input
              type="radio"
              name="capture"
              checked={capture === 'off'}
              onChange={() => setCapture('off')}
            />{' '}
            {t('Not asked')}
          </label>
          <label>
            <input
              type="radio"
              name="capture"
              checked={capture === 'at_punch'}
              onChange={() => setCapture('at_punch')}
            />{' '}
            {t('Asked at each punch')}
          </label>
        </div>
        <Field label={t('Area: latitude')} name="geofence.latitude" error={action.error}>
          <input inputMode="decimal" value={latitude} onChange={(event) => setLatitude(event.target.value)} />
        </Field>
        <Field label={t('Area: longitude')} name="geofence.longitude" error={action.error}>
          <input
            inputMode="decimal"
            value={longitude}
            onChange={(event) => setLongitude(event.target.value)}
          />
        </Field>
        <Field label={t('Area: radius (m)')} name="geofence.radius_m" error={action.error}>
          <input inputMode="numeric" value={radius} onChange={(event) => setRadius(event.target.value)} />
        </Field>
      </fieldset>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {t('Save {{name}}', { name: location.name })}
      </button>
    </form>
  );
}
