import { type FormEvent, useState } from 'react';
import { api, formatInstant, type Mode, type Page } from '../../../shared/api.ts';
import { useT } from '../../../shared/i18n.ts';
import { statusLabel } from '../labels.ts';
import type { Delivery, Endpoint } from '../types.ts';
import {
  ConfirmButton,
  ErrorMessage,
  Field,
  GroupError,
  Loading,
  RunButton,
  SecretOnce,
  Table,
  useAction,
  useLoad,
} from '../ui.tsx';

/** The event types, read from the public OpenAPI description's `webhooks` (one source of truth). */
function useEventTypes() {
  return useLoad(async () => {
    const response = await fetch('/v1/openapi.json');
    const description = (await response.json()) as { webhooks?: Record<string, unknown> };
    return Object.keys(description.webhooks ?? {}).filter((type) => type !== 'ping');
  }, []);
}

function EndpointForm({
  initial,
  eventTypes,
  submitLabel,
  onSubmit,
}: {
  initial: { url: string; description: string; events: string[] };
  eventTypes: string[];
  submitLabel: string;
  onSubmit: (value: { url: string; description: string | null; events: string[] }) => Promise<unknown>;
}) {
  const t = useT();
  const [url, setUrl] = useState(initial.url);
  const [description, setDescription] = useState(initial.description);
  const [events, setEvents] = useState<string[]>(initial.events);
  const action = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await action.run(() => onSubmit({ url, description: description || null, events }));
  };
  const toggle = (type: string) =>
    setEvents((current) =>
      current.includes(type) ? current.filter((other) => other !== type) : [...current, type],
    );
  return (
    <form onSubmit={submit} aria-label={submitLabel}>
      <Field label={t('URL')} hint={t('https:// only')} name="url" error={action.error}>
        <input type="url" required value={url} onChange={(event) => setUrl(event.target.value)} />
      </Field>
      <Field label={t('Description')} name="description" error={action.error}>
        <input value={description} maxLength={500} onChange={(event) => setDescription(event.target.value)} />
      </Field>
      <fieldset aria-describedby="events-error">
        <legend>{t('Events')}</legend>
        <GroupError id="events-error" name="events" label={t('Events')} error={action.error} />
        <div className="checks">
          {eventTypes.map((type) => (
            <label key={type}>
              <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} /> {type}
            </label>
          ))}
        </div>
      </fieldset>
      <ErrorMessage error={action.error} />
      <button type="submit" disabled={action.busy}>
        {submitLabel}
      </button>
    </form>
  );
}

type DeliveryDetail = Delivery & {
  request: { url: string; headers: Record<string, string>; body: string } | null;
  response: { status: number; body: string } | null;
};

/** What a delivery's last attempt sent and got back, as the receiver saw it. */
function DeliveryExchange({ mode, endpoint, id }: { mode: Mode; endpoint: Endpoint; id: string }) {
  const t = useT();
  const detail = useLoad(
    () => api<DeliveryDetail>('GET', `/${mode}/webhook-endpoints/${endpoint.id}/deliveries/${id}`),
    [mode, endpoint.id, id],
  );
  const data = detail.data;
  if (!data) {
    return (
      <>
        <ErrorMessage error={detail.error} />
        <Loading loading={detail.loading} />
      </>
    );
  }
  const headers = (record: Record<string, string>) =>
    Object.entries(record)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n');
  return (
    <section className="exchange" aria-label={t('Request and response')}>
      <h4>{t('Request sent')}</h4>
      {data.request ? (
        <>
          <p>
            <code>POST {data.request.url}</code>
          </p>
          <pre>{headers(data.request.headers)}</pre>
          <pre>{data.request.body}</pre>
        </>
      ) : (
        <p className="muted">{t('Nothing sent yet.')}</p>
      )}
      <h4>{t('Response')}</h4>
      {data.response ? (
        <>
          <p>
            <code>HTTP {data.response.status}</code>
          </p>
          <pre>{data.response.body || t('(empty body)')}</pre>
        </>
      ) : (
        <p className="muted">{data.last_error ?? t('No answer.')}</p>
      )}
    </section>
  );
}

function Deliveries({ mode, endpoint }: { mode: Mode; endpoint: Endpoint }) {
  const t = useT();
  const deliveries = useLoad(
    () => api<Page<Delivery>>('GET', `/${mode}/webhook-endpoints/${endpoint.id}/deliveries?limit=50`),
    [mode, endpoint.id],
  );
  const action = useAction();
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section aria-label={t('Deliveries')}>
      <div className="row">
        <h3>{t('Deliveries')}</h3>
        <button type="button" className="secondary" onClick={deliveries.reload}>
          {t('Refresh')}
        </button>
      </div>
      <ErrorMessage error={deliveries.error ?? action.error} />
      <Loading loading={deliveries.loading} />
      {open && <DeliveryExchange key={open} mode={mode} endpoint={endpoint} id={open} />}
      <Table
        columns={[t('Event'), t('Status'), t('Attempts'), t('Response'), t('Last attempt')]}
        actions
        empty={t('No deliveries yet.')}
        rows={deliveries.data?.data.map((delivery) => (
          <tr key={delivery.id}>
            <td>
              {delivery.event_type} <code>{delivery.event_id}</code>
            </td>
            <td className={`status-${delivery.status}`}>{t(statusLabel(delivery.status))}</td>
            <td>{delivery.attempts}</td>
            <td>{delivery.last_response_status ?? delivery.last_error ?? '—'}</td>
            <td>{formatInstant(delivery.last_attempt_at)}</td>
            <td>
              <button
                type="button"
                className="secondary"
                aria-expanded={open === delivery.id}
                onClick={() => setOpen(open === delivery.id ? null : delivery.id)}
              >
                {t('Details')}
              </button>{' '}
              {/* Any delivery but a first attempt not sent yet: a retry in backoff is brought forward (issue 41). */}
              {(delivery.status !== 'pending' || delivery.attempts > 0) && (
                <RunButton
                  action={action}
                  work={async () => {
                    await api(
                      'POST',
                      `/${mode}/webhook-endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`,
                    );
                    deliveries.reload();
                  }}
                >
                  {t('Retry now')}
                </RunButton>
              )}
            </td>
          </tr>
        ))}
      />
    </section>
  );
}

export function WebhooksScreen({ mode }: { mode: Mode }) {
  const t = useT();
  const endpoints = useLoad(() => api<Page<Endpoint>>('GET', `/${mode}/webhook-endpoints?limit=100`), [mode]);
  const eventTypes = useEventTypes();
  const [secret, setSecret] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const action = useAction();
  const [notice, setNotice] = useState('');
  const current = endpoints.data?.data.find((endpoint) => endpoint.id === selected) ?? null;
  const types = eventTypes.data ?? [];

  return (
    <>
      <section className="card">
        <h2>{t('Add an endpoint')}</h2>
        <EndpointForm
          key={`new-${endpoints.data?.data.length ?? 0}`}
          initial={{ url: '', description: '', events: [] }}
          eventTypes={types}
          submitLabel={t('Create endpoint')}
          onSubmit={async (value) => {
            const created = await api<Endpoint & { secret: string }>(
              'POST',
              `/${mode}/webhook-endpoints`,
              value,
            );
            setSecret(created.secret);
            setSelected(created.id);
            endpoints.reload();
          }}
        />
      </section>
      {secret && <SecretOnce label={t('Signing secret')} secret={secret} onDone={() => setSecret(null)} />}

      <h2>{t('Endpoints')}</h2>
      <ErrorMessage error={endpoints.error ?? eventTypes.error ?? action.error} />
      <Loading loading={endpoints.loading} />
      <ul className="list">
        {endpoints.data?.data.map((endpoint) => (
          <li key={endpoint.id}>
            <button
              type="button"
              className="link"
              aria-pressed={endpoint.id === selected}
              onClick={() => {
                setSelected(endpoint.id);
                setEditing(false);
                setNotice('');
              }}
            >
              {endpoint.url}
            </button>{' '}
            <span className={`badge status-${endpoint.status}`}>{t(statusLabel(endpoint.status))}</span>{' '}
            <span className="muted">{endpoint.events.join(', ')}</span>
          </li>
        ))}
      </ul>
      {endpoints.data?.data.length === 0 && <p className="muted">{t('No endpoints yet.')}</p>}

      {current && (
        <section className="card" aria-label={t('Endpoint {{url}}', { url: current.url })}>
          <h2>{current.url}</h2>
          {current.description && <p>{current.description}</p>}
          <div className="row">
            <RunButton
              action={action}
              disabled={current.status !== 'active'}
              work={async () => {
                await api('POST', `/${mode}/webhook-endpoints/${current.id}/test`);
                setNotice(t('Test ping queued. It appears in the deliveries below.'));
              }}
            >
              {t('Send test ping')}
            </RunButton>
            <button type="button" className="secondary" onClick={() => setEditing(!editing)}>
              {editing ? t('Close editor') : t('Edit')}
            </button>
            <RunButton
              action={action}
              secondary
              work={async () => {
                await api('PATCH', `/${mode}/webhook-endpoints/${current.id}`, {
                  status: current.status === 'active' ? 'disabled' : 'active',
                });
                endpoints.reload();
              }}
            >
              {current.status === 'active' ? t('Disable') : t('Enable')}
            </RunButton>
            <ConfirmButton
              label={t('Delete endpoint')}
              title={t('Delete this endpoint?')}
              confirmLabel={t('Delete')}
              onConfirm={() =>
                void action.run(async () => {
                  await api('DELETE', `/${mode}/webhook-endpoints/${current.id}`);
                  setSelected(null);
                  endpoints.reload();
                })
              }
            >
              <p>{t('Its pending deliveries are dropped. This cannot be undone.')}</p>
            </ConfirmButton>
          </div>
          {notice && <p role="status">{notice}</p>}
          {editing && (
            <EndpointForm
              key={current.id}
              initial={{ url: current.url, description: current.description ?? '', events: current.events }}
              eventTypes={types}
              submitLabel={t('Save changes')}
              onSubmit={async (value) => {
                await api('PATCH', `/${mode}/webhook-endpoints/${current.id}`, value);
                setEditing(false);
                endpoints.reload();
              }}
            />
          )}
          <Deliveries key={notice} mode={mode} endpoint={current} />
        </section>
      )}
    </>
  );
}
