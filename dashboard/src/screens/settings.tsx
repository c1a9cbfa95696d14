import { api } from '../api.ts';
import type { Company } from '../types.ts';
import { ConfirmButton, ErrorMessage, Loading, useAction, useLoad } from '../ui.tsx';

type Usage = { used: number; quota: number };
type Settings = {
  company: Company;
  usage: { month: string; live: Usage; test: Usage | null };
  rate_limits: { live: number; test: number };
};

export function SettingsScreen({ onChange }: { onChange: () => void }) {
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
