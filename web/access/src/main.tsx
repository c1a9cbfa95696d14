import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProblem, sessionClient } from '../../shared/api.ts';
import '../../shared/base.css';
import './access.css';
import type { grantSummary, workerMonth } from '../../../src/modules/registry-access/access.service.ts';

/**
 * The read-only registry behind an access grant's link (/registry-access/<token>): the token in the address is
 * the credential; every request is logged by the service. Spanish: the Inspección's and the representatives'.
 */
const token = window.location.pathname.split('/').filter(Boolean)[1] ?? '';
const { request } = sessionClient(`/registry-access/${token}/api`, []);

// The shapes the access link's API answers, from the service's own functions (type-only: erased from the bundle).
type Summary = Awaited<ReturnType<typeof grantSummary>>;
type WorkerMonth = Awaited<ReturnType<typeof workerMonth>>;
type Day = Record<string, string | number | boolean | null>;
// A day row is the registry document's row (its columns by name) with the day's texts.
type InspectionMonth = Omit<Extract<WorkerMonth, { days: unknown }>, 'days'> & { days: Day[] };
type RepresentativesMonth = Exclude<WorkerMonth, { days: unknown }>;

const hhmm = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
const monthName = (month: string) =>
  new Intl.DateTimeFormat('es', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );

function App() {
  const [summary, setSummary] = useState<Summary | null>(null);
  const [failed, setFailed] = useState(false);
  const [selected, setSelected] = useState<{ worker: string; month: string } | null>(null);
  useEffect(() => {
    request<Summary>('GET', '/summary')
      .then(setSummary)
      .catch(() => setFailed(true));
  }, []);
  if (failed) {
    return (
      <main className="content">
        <h1>Enlace no disponible</h1>
        <p>Este enlace de acceso no existe, ha sido revocado o ha caducado.</p>
      </main>
    );
  }
  if (!summary) return null;
  return (
    <main className="content">
      <h1>Registro de jornada</h1>
      <p className="muted">
        {summary.kind === 'inspection'
          ? 'Acceso de la Inspección de Trabajo'
          : 'Acceso de la representación legal'}{' '}
        · {summary.label}
      </p>
      <dl className="facts">
        <dt>Empresa</dt>
        <dd>{summary.company.legal_name ?? summary.company.name}</dd>
        <dt>CIF/NIF</dt>
        <dd>{summary.company.tax_id ?? '—'}</dd>
        <dt>Periodo</dt>
        <dd>
          {summary.from} – {summary.to}
        </dd>
        <dt>Zona horaria</dt>
        <dd>{summary.time_zone}</dd>
        <dt>Caduca</dt>
        <dd>{summary.expires_at}</dd>
      </dl>
      <h2>Descargas</h2>
      <ul className="downloads">
        {summary.months.map((month) => (
          <li key={month}>
            <a href={`/registry-access/${token}/api/months/${month}.csv`} download>
              {summary.kind === 'inspection'
                ? `Registro de ${monthName(month)} (CSV)`
                : `Totales de ${monthName(month)} (CSV)`}
            </a>
            {summary.seals?.[month] && (
              <p className="seal">
                Sello del mes cerrado: <code>{summary.seals[month]}</code>
              </p>
            )}
          </li>
        ))}
      </ul>
      <h2>Personas trabajadoras</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Nombre</th>
            {summary.months.map((month) => (
              <th scope="col" key={month}>
                {monthName(month)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {summary.workers.map((worker) => (
            <tr key={worker.id}>
              <th scope="row">{worker.name}</th>
              {summary.months.map((month) => (
                <td key={month}>
                  <button
                    type="button"
                    className="link"
                    aria-label={`Ver ${monthName(month)} de ${worker.name}`}
                    onClick={() => setSelected({ worker: worker.id, month })}
                  >
                    Ver
                  </button>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {selected && <Month kind={summary.kind} {...selected} />}
    </main>
  );
}

function Month({ kind, worker, month }: { kind: Summary['kind']; worker: string; month: string }) {
  const [data, setData] = useState<InspectionMonth | RepresentativesMonth | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    setData(null);
    request<InspectionMonth | RepresentativesMonth>('GET', `/workers/${worker}/${month}`)
      .then(setData)
      .catch((failure: unknown) =>
        setError(failure instanceof ApiProblem ? failure.message : String(failure)),
      );
  }, [worker, month]);
  if (error) return <p role="alert">{error}</p>;
  if (!data) return null;
  const title = `${data.worker.name} · ${monthName(month)}`;
  if (kind === 'representatives' || !('days' in data)) {
    const totals = (data as RepresentativesMonth).totals;
    return (
      <section aria-labelledby="month-title" className="card">
        <h2 id="month-title">{title}</h2>
        <dl className="facts">
          <dt>Trabajado</dt>
          <dd>{totals.worked_hhmm}</dd>
          <dt>Horas extraordinarias</dt>
          <dd>{totals.overtime_hhmm}</dd>
          <dt>Nocturnas</dt>
          <dd>{totals.night_hhmm}</dd>
        </dl>
      </section>
    );
  }
  const month_ = data as InspectionMonth;
  return (
    <section aria-labelledby="month-title" className="card">
      <h2 id="month-title">{title}</h2>
      <p>
        <a href={`/registry-access/${token}/api/workers/${worker}/${month}.pdf`} download>
          Descargar el documento (PDF)
        </a>
      </p>
      <dl className="facts">
        <dt>Contrato</dt>
        <dd>
          alta {month_.employment.hire_date}
          {month_.employment.termination_date ? ` · baja ${month_.employment.termination_date}` : ''}
        </dd>
        <dt>Jornada contratada</dt>
        <dd>
          {hhmm(month_.employment.weekly_minutes)} h/semana
          {month_.employment.part_time_percent === null
            ? ''
            : ` (tiempo parcial, ${month_.employment.part_time_percent.toLocaleString('es')} %)`}
        </dd>
        <dt>Registros de otra persona</dt>
        <dd>
          {month_.registry_policy === 'worker_consent'
            ? 'no cuentan hasta que la persona trabajadora los acepta'
            : 'cuentan, marcados; la persona trabajadora puede rechazarlos'}
        </dd>
        {month_.version !== null && (
          <>
            <dt>Versión del mes cerrado</dt>
            <dd>{month_.version}</dd>
          </>
        )}
        {month_.seal && (
          <>
            <dt>Sello del mes</dt>
            <dd className="seal">{month_.seal}</dd>
          </>
        )}
      </dl>
      <div className="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Día</th>
              <th scope="col">Entradas y salidas</th>
              <th scope="col">Trabajado</th>
              <th scope="col">Extra</th>
              <th scope="col">Nocturno</th>
              <th scope="col">Observaciones</th>
            </tr>
          </thead>
          <tbody>
            {month_.days.map((day) => (
              <tr key={String(day.date)}>
                <th scope="row">{String(day.date)}</th>
                <td>{String(day.intervals_text ?? '—')}</td>
                <td>{String(day.worked_hhmm)}</td>
                <td>{String(day.overtime_hhmm)}</td>
                <td>{String(day.night_hhmm)}</td>
                <td>{String(day.notes ?? '')}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td />
              <td>{String(month_.totals.worked_hhmm)}</td>
              <td>{String(month_.totals.overtime_hhmm)}</td>
              <td>{String(month_.totals.night_hhmm)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
      <h3>Registros hechos por otra persona</h3>
      {month_.records_by_others.length === 0 ? (
        <p>Ninguno.</p>
      ) : (
        <ul>
          {month_.records_by_others.map((record) => (
            <li key={record.text}>{record.text}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
