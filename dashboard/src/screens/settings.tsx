import { type FormEvent, useState } from 'react';
import { api, type Page } from '../api.ts';
import type { Company, Location } from '../types.ts';
import { ConfirmButton, ErrorMessage, Field, Loading, SaveRow, Table, useAction, useLoad } from '../ui.tsx';
import { CompanySettings } from './company.tsx';

type Usage = { used: number; quota: number };
type Settings = {
  company: Company;
  usage: { month: string; live: Usage; test: Usage | null };
  rate_limits: { live: number; test: number };
};

export function SettingsScreen({ adminId, onChange }: { adminId: string; onChange: () => void }) {
  const settings = useLoad(() => api<Settings>('GET', '/settings'), []);
  const action = useAction();
  const set = (enabled: boolean) =>
    void action.run(async () => {
      await api('PATCH', '/settings', { addon_enabled: enabled });
      settings.reload();
      onChange();
    });
  const data = settings.data;
  return (
    <>
      <ErrorMessage error={settings.error ?? action.error} />
      <Loading loading={settings.loading && !data} />
      {data && (
        <>
          <LegalIdentity
            company={data.company}
            onSaved={() => {
              settings.reload();
              onChange();
            }}
          />
          <WorkCentres />
          <CompanySettings
            company={data.company}
            adminId={adminId}
            onSaved={() => {
              settings.reload();
              onChange();
            }}
          />
          <section className="card" aria-label="Public API addon">
            <h2>Public API addon</h2>
            <p>
              The addon is <strong>{data.company.addon_enabled ? 'on' : 'off'}</strong>.
            </p>
            {data.company.addon_enabled ? (
              <ConfirmButton
                label="Switch the addon off"
                title="Switch the public API addon off?"
                confirmLabel="Switch off and delete"
                disabled={action.busy}
                onConfirm={() => set(false)}
              >
                <p>This takes effect at once and cannot be undone:</p>
                <ul>
                  <li>every API key, live and test, is revoked; integrations stop working;</li>
                  <li>every generated report and its file is deleted;</li>
                  <li>the sandbox (test) company is removed with all of its data.</li>
                </ul>
                <p>Switching it on again creates a new, empty sandbox. No key comes back.</p>
              </ConfirmButton>
            ) : (
              <ConfirmButton
                label="Switch the addon on"
                title="Switch the public API addon on?"
                confirmLabel="Switch on"
                danger={false}
                disabled={action.busy}
                onConfirm={() => set(true)}
              >
                <p>A new, empty sandbox is created. You then create new API keys.</p>
              </ConfirmButton>
            )}
          </section>
          <section className="card" aria-label="Subscription and limits">
            <h2>Subscription and limits</h2>
            <dl className="figures">
              <dt>Service</dt>
              <dd>{data.company.service_active ? 'active' : 'inactive'}</dd>
              <dt>Subscription</dt>
              <dd>{data.company.subscription_status}</dd>
              <dt>Company status</dt>
              <dd>{data.company.company_status}</dd>
              <dt>Seats</dt>
              <dd>
                {data.company.active_employees} of {data.company.seats} in use
              </dd>
              <dt>Live requests in {data.usage.month}</dt>
              <dd>
                {data.usage.live.used.toLocaleString()} of {data.usage.live.quota.toLocaleString()}
              </dd>
              <dt>Test requests in {data.usage.month}</dt>
              <dd>
                {data.usage.test
                  ? `${data.usage.test.used.toLocaleString()} of ${data.usage.test.quota.toLocaleString()}`
                  : 'no sandbox'}
              </dd>
              <dt>Rate limits</dt>
              <dd>
                live {data.rate_limits.live}/min per key, test {data.rate_limits.test}/min per key
              </dd>
              <dt>Active keys allowed</dt>
              <dd>{data.company.max_active_keys}</dd>
              <dt>Default key expiration</dt>
              <dd>
                {data.company.default_expiration_days === null
                  ? 'none'
                  : `${data.company.default_expiration_days} days`}
              </dd>
            </dl>
          </section>
        </>
      )}
    </>
  );
}

/** The company's legal name and tax id, printed on the registry documents (docs/registry.md). */
function LegalIdentity({ company, onSaved }: { company: Company; onSaved: () => void }) {
  const [legalName, setLegalName] = useState(company.legal_name ?? '');
  const [taxId, setTaxId] = useState(company.tax_id ?? '');
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const done = await action.run(() =>
      api('PATCH', '/settings', {
        legal_name: legalName.trim() || null,
        tax_id: taxId.trim() || null,
      }),
    );
    if (done) {
      setSaved(true);
      onSaved();
    }
  };
  return (
    <form onSubmit={submit} className="card" aria-labelledby="identity-title">
      <h2 id="identity-title">Legal identity</h2>
      <p className="muted">Printed on every worker’s registry document and shown to the Inspección.</p>
      <div className="grid">
        <Field
          label="Legal name"
          hint="As registered, e.g. “Panadería Sol, S.L.”."
          name="legal_name"
          error={action.error}
        >
          <input maxLength={200} value={legalName} onChange={(event) => setLegalName(event.target.value)} />
        </Field>
        <Field
          label="Tax id (CIF/NIF)"
          hint="Checked, control character included."
          name="tax_id"
          error={action.error}
        >
          <input value={taxId} onChange={(event) => setTaxId(event.target.value)} autoComplete="off" />
        </Field>
      </div>
      <ErrorMessage error={action.error} />
      <SaveRow label="Save legal identity" busy={action.busy} saved={saved} />
    </form>
  );
}

/** The work centres (locations) with their address and contribution account code (CCC). */
function WorkCentres() {
  const locations = useLoad(() => api<Page<Location>>('GET', '/live/locations?limit=100'), []);
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="centres-title">
      <h2 id="centres-title">Work centres</h2>
      <p className="muted">Each centre’s address and CCC head the documents of the workers assigned to it.</p>
      <ErrorMessage error={locations.error} />
      <Loading loading={locations.loading && !locations.data} />
      <Table
        columns={['Centre', 'Address', 'CCC', 'Time zone']}
        actions
        empty="No work centre yet: your operator creates them."
        rows={locations.data?.data.map((location) => (
          <tr key={location.id}>
            <td>{location.name}</td>
            <td>{location.address ?? '—'}</td>
            <td>{location.ccc ?? '—'}</td>
            <td>{location.timezone}</td>
            <td>
              <button
                type="button"
                className="secondary"
                aria-expanded={editing === location.id}
                onClick={() => setEditing(editing === location.id ? null : location.id)}
              >
                Edit {location.name}
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
              locations.reload();
            }}
          />
        ))}
    </section>
  );
}

function CentreForm({ location, onSaved }: { location: Location; onSaved: () => void }) {
  const [address, setAddress] = useState(location.address ?? '');
  const [ccc, setCcc] = useState(location.ccc ?? '');
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const done = await action.run(() =>
      api('PATCH', `/locations/${location.id}`, {
        address: address.trim() || null,
        ccc: ccc.trim() || null,
      }),
    );
    if (done) onSaved();
  };
  return (
    <form onSubmit={submit} className="grid" aria-label={`Edit ${location.name}`}>
      <Field label="Address" name="address" error={action.error}>
        <input maxLength={500} value={address} onChange={(event) => setAddress(event.target.value)} />
      </Field>
      <Field
        label="CCC (código cuenta de cotización)"
        hint="11 digits; checked."
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
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        Save {location.name}
      </button>
    </form>
  );
}
