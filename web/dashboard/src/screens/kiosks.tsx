import { type FormEvent, useState } from 'react';
import { allPages, api, formatInstant } from '../../../shared/api.ts';
import { useT } from '../../../shared/i18n.ts';
import { checkInTypeLabel, statusLabel } from '../labels.ts';
import type { CheckIn, Location } from '../types.ts';
import { ConfirmButton, ErrorMessage, Field, Loading, Table, useAction, useLoad } from '../ui.tsx';
import { employeesById, fullName } from './names.ts';

type KioskDevice = {
  id: string;
  name: string;
  location: { id: string; name: string };
  status: 'pending' | 'active' | 'revoked';
  enrollment_expires_at: string | null;
  last_seen_at: string | null;
  created_at: string;
};

/**
 * Clock-in devices (issue 40): a shared kiosk for a work centre, enrolled with a one-time code typed on the
 * tablet at /kiosk; the list shows when each was last seen, and revokes one (its punches stay in the registry).
 */
export function KiosksScreen() {
  const t = useT();
  const devices = useLoad(() => api<{ data: KioskDevice[] }>('GET', '/kiosk-devices'), []);
  const centres = useLoad(() => allPages<Location>('/live/locations'), []);
  const [name, setName] = useState('');
  const [centre, setCentre] = useState('');
  const [code, setCode] = useState<{ code: string; expires: string | null } | null>(null);
  const create = useAction();
  const revoke = useAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const device = await create.run(() =>
      api<KioskDevice & { enrollment_code: string }>('POST', '/kiosk-devices', {
        name,
        location_id: centre || centres.data?.[0]?.id,
      }),
    );
    if (device) {
      setCode({ code: device.enrollment_code, expires: device.enrollment_expires_at });
      setName('');
      devices.reload();
    }
  };

  return (
    <>
      <form onSubmit={submit} aria-label={t('Add a clock-in device')} className="card">
        <h2>{t('Add a clock-in device')}</h2>
        <p className="muted">
          {t(
            'A tablet at a work centre on which its workers clock in with their PIN. You get a code to type on the tablet, at the address /kiosk.',
          )}
        </p>
        <Field label={t('Name')} name="name" error={create.error}>
          <input value={name} maxLength={100} required onChange={(event) => setName(event.target.value)} />
        </Field>
        <Field label={t('Work centre')} name="location_id" error={create.error}>
          <select value={centre} onChange={(event) => setCentre(event.target.value)}>
            {centres.data?.map((location) => (
              <option key={location.id} value={location.id}>
                {location.name}
              </option>
            ))}
          </select>
        </Field>
        <ErrorMessage error={create.error} />
        <button type="submit" disabled={create.busy || !centres.data?.length}>
          {t('Add device')}
        </button>
      </form>
      {code && (
        <section className="secret" aria-live="polite">
          <h3>{t('Activation code')}</h3>
          <p>
            {t('Open {{address}} on the tablet and type this code. It works once, until {{time}}.', {
              address: `${window.location.origin}/kiosk`,
              time: formatInstant(code.expires),
            })}
          </p>
          <code data-testid="secret">{code.code}</code>
          <div className="row">
            <button type="button" className="secondary" onClick={() => setCode(null)}>
              {t('Done')}
            </button>
          </div>
        </section>
      )}
      <h2>{t('Devices')}</h2>
      <ErrorMessage error={devices.error ?? revoke.error ?? centres.error} />
      <Loading loading={devices.loading} />
      <Table
        columns={[t('Name'), t('Work centre'), t('Status'), t('Last seen'), t('Created')]}
        actions
        empty={t('No clock-in device yet.')}
        rows={devices.data?.data.map((device) => (
          <tr key={device.id}>
            <td>{device.name}</td>
            <td>{device.location.name}</td>
            <td>{t(statusLabel(device.status))}</td>
            <td>{formatInstant(device.last_seen_at)}</td>
            <td>{formatInstant(device.created_at)}</td>
            <td>
              {device.status !== 'revoked' && (
                <ConfirmButton
                  label={t('Revoke {{name}}', { name: device.name })}
                  title={t('Revoke this device?')}
                  confirmLabel={t('Revoke')}
                  onConfirm={() =>
                    void revoke.run(async () => {
                      await api('DELETE', `/kiosk-devices/${device.id}`);
                      devices.reload();
                    })
                  }
                >
                  <p>{t('The tablet will be refused from now on; its punches stay in the registry.')}</p>
                </ConfirmButton>
              )}
            </td>
          </tr>
        ))}
      />
      <OutsideTheArea />
    </>
  );
}

/** The punches of the last 31 days made outside their work centre's area (issue 40), newest first. */
function OutsideTheArea() {
  const t = useT();
  const list = useLoad(async () => {
    const to = new Date();
    const from = new Date(to.getTime() - 31 * 86_400_000);
    // Every page of the range (the listing runs oldest first), shown newest first.
    const punches = await allPages<CheckIn>('/live/check-ins', {
      outside_geofence: 'true',
      from: from.toISOString(),
      to: to.toISOString(),
    });
    const names = await employeesById(
      'live',
      punches.map((checkIn) => checkIn.employee_id),
    );
    return punches.reverse().map((checkIn) => ({ checkIn, employee: names.get(checkIn.employee_id) }));
  }, []);
  return (
    <section aria-labelledby="outside-title">
      <h2 id="outside-title">{t('Punches outside the area (last 31 days)')}</h2>
      <p className="muted">
        {t(
          'Only where a work centre asks for the position at the punch and has an area (Settings, Work centres).',
        )}
      </p>
      <ErrorMessage error={list.error} />
      <Loading loading={list.loading} />
      <Table
        columns={[t('When'), t('Employee'), t('Type'), t('Distance'), t('Accuracy')]}
        empty={t('No punch outside the area.')}
        rows={list.data?.map(({ checkIn, employee }) => {
          const where =
            checkIn.location !== null && checkIn.location !== 'declined' ? checkIn.location : null;
          return (
            <tr key={checkIn.id}>
              <td>{formatInstant(checkIn.timestamp)}</td>
              <td>{employee ? fullName(employee) : checkIn.employee_id}</td>
              <td>{t(checkInTypeLabel(checkIn.type))}</td>
              <td>{where && where.distance_m !== null ? `${where.distance_m} m` : '—'}</td>
              <td>{where ? `±${where.accuracy_m} m` : '—'}</td>
            </tr>
          );
        })}
      />
    </section>
  );
}
