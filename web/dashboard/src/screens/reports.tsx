import { type FormEvent, useEffect, useState } from 'react';
import { companyLanguage } from '../../../../src/platform/language.ts';
import { api, formatInstant, type Mode } from '../../../shared/api.ts';
import { formatDate, formatMonth, formatNumber, i18n, msg, useT } from '../../../shared/i18n.ts';
import { todayIn } from '../../../shared/zoned.ts';
import { statusLabel } from '../labels.ts';
import { orderedParams } from '../report-params.ts';
import type { Company, PayrollConceptMap, Report } from '../types.ts';
import { DateRange, ErrorMessage, Field, Loading, Table, useAction, useLoad } from '../ui.tsx';

const LABELS = {
  time_registry_monthly: msg('Monthly time registry'),
  check_ins_export: msg('Check-in export'),
  time_registry_worker_monthly: msg('Workers’ monthly documents'),
  payroll_variables: msg('Payroll variables'),
};

/** A report's parameters as a reader names them: months and dates in the locale. */
const PARAMS: Record<string, string> = {
  month: msg('month'),
  from: msg('from'),
  to: msg('to'),
  locale: msg('language'),
  concept_map_id: msg('concept map'),
};

const paramText = (key: string, value: string) =>
  key === 'month' && /^\d{4}-\d{2}$/.test(value)
    ? formatMonth(value)
    : /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? formatDate(value)
      : value;

export function ReportsScreen({ mode, company }: { mode: Mode; company: Company }) {
  const t = useT();
  const reports = useLoad(() => api<{ data: Report[] }>('GET', `/${mode}/reports`), [mode]);
  const [type, setType] = useState<Report['type']>('time_registry_monthly');
  const [format, setFormat] = useState<Report['format']>('csv');
  const [month, setMonth] = useState(() => todayIn(company.timezone).slice(0, 7));
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // A Spanish company's files are Spanish (headers, `;`, decimal commas: what Spanish Excel opens, issue 39);
  // another's start in the interface's language. Either may be changed.
  const [locale, setLocale] = useState<'es' | 'en'>(() =>
    companyLanguage(company.timezone) === 'es' || i18n.language === 'es' ? 'es' : 'en',
  );
  const [conceptMap, setConceptMap] = useState('');
  // The company's concept maps (issue 41): named in the list of reports, and read again when the payroll report is
  // chosen, so that a map made meanwhile is offered.
  const maps = useLoad(
    async () =>
      (await api<{ data: PayrollConceptMap[] }>('GET', `/${mode}/payroll/concept-maps?limit=100`)).data,
    [mode, type === 'payroll_variables'],
  );
  const mapName = (id: string) => maps.data?.find((map) => map.id === id)?.name ?? id;
  const create = useAction();
  const download = useAction();

  // Status updates: poll while a report is still processing.
  const processing = reports.data?.data.some((report) => report.status === 'processing') ?? false;
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(reports.reload, 1500);
    return () => clearInterval(timer);
  }, [processing, reports.reload]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body =
      type === 'time_registry_monthly'
        ? { type, format: 'csv', params: { month, locale } }
        : type === 'time_registry_worker_monthly'
          ? { type, format: format === 'csv' ? 'pdf' : format, params: { month, locale } }
          : type === 'payroll_variables'
            ? {
                type,
                format: format === 'pdf' ? 'csv' : format,
                params: { month, locale, ...(conceptMap ? { concept_map_id: conceptMap } : {}) },
              }
            : { type, format: format === 'pdf' ? 'csv' : format, params: { from, to, locale } };
    if (await create.run(() => api('POST', `/${mode}/reports`, body))) reports.reload();
  };
  // Each GET mints a fresh single-use address valid 5 minutes: fetch one at the moment of the click.
  const fetchFile = (report: Report) =>
    void download.run(async () => {
      const fresh = await api<Report>('GET', `/${mode}/reports/${report.id}`);
      if (!fresh.download_url) throw new Error(t('The file is no longer available.'));
      const link = document.createElement('a');
      link.href = fresh.download_url;
      link.download = '';
      document.body.append(link);
      link.click();
      link.remove();
    });

  return (
    <>
      <form onSubmit={submit} aria-label={t('Request a report')} className="card">
        <h2>{t('Request a report')}</h2>
        <Field label={t('Report')}>
          <select value={type} onChange={(event) => setType(event.target.value as Report['type'])}>
            <option value="time_registry_monthly">{t(LABELS.time_registry_monthly)} (CSV)</option>
            <option value="check_ins_export">{t(LABELS.check_ins_export)}</option>
            <option value="time_registry_worker_monthly">{t(LABELS.time_registry_worker_monthly)}</option>
            <option value="payroll_variables">{t(LABELS.payroll_variables)}</option>
          </select>
        </Field>
        {type === 'payroll_variables' && (
          <Field
            label={t('Concept map')}
            hint={t(
              'Your payroll program’s codes and columns; without one, every column under its own name.',
            )}
            name="params.concept_map_id"
            error={create.error ?? maps.error}
          >
            <select value={conceptMap} onChange={(event) => setConceptMap(event.target.value)}>
              <option value="">{t('Generic layout')}</option>
              {maps.data?.map((map) => (
                <option key={map.id} value={map.id}>
                  {map.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        {type === 'check_ins_export' ? (
          <DateRange
            from={from}
            to={to}
            onFrom={setFrom}
            onTo={setTo}
            error={create.error}
            names={['params.from', 'params.to']}
          />
        ) : (
          <Field label={t('Month')} name="params.month" error={create.error}>
            <input type="month" required value={month} onChange={(event) => setMonth(event.target.value)} />
          </Field>
        )}
        {type !== 'time_registry_monthly' && (
          // The worker documents come as PDF or XLSX, the export as CSV or XLSX; CSV and PDF stand in for each other.
          <Field label={t('Format')} name="format" error={create.error}>
            <select
              value={
                type !== 'time_registry_worker_monthly'
                  ? format === 'pdf'
                    ? 'csv'
                    : format
                  : format === 'csv'
                    ? 'pdf'
                    : format
              }
              onChange={(event) => setFormat(event.target.value as Report['format'])}
            >
              {type !== 'time_registry_worker_monthly' ? (
                <option value="csv">CSV</option>
              ) : (
                <option value="pdf">{t('PDF (to print and sign)')}</option>
              )}
              <option value="xlsx">Excel (XLSX)</option>
            </select>
          </Field>
        )}
        <Field
          label={t('Language of the file')}
          hint={
            type === 'time_registry_worker_monthly'
              ? undefined
              : t(
                  'Spanish: Spanish headers, “;” between columns and decimal commas, as Spanish Excel opens it.',
                )
          }
          name="params.locale"
          error={create.error}
        >
          <select value={locale} onChange={(event) => setLocale(event.target.value as 'es' | 'en')}>
            <option value="es">Español</option>
            <option value="en">English</option>
          </select>
        </Field>
        <ErrorMessage error={create.error} />
        <button type="submit" disabled={create.busy}>
          {t('Request report')}
        </button>
      </form>

      <h2>{t('Latest reports')}</h2>
      <ErrorMessage error={reports.error ?? download.error} />
      <Loading loading={reports.loading && !reports.data} />
      <Table
        columns={[t('Report'), t('Parameters'), t('Status'), t('Rows'), t('Requested')]}
        actions
        live
        empty={t('No reports yet.')}
        rows={reports.data?.data.map((report) => (
          <tr key={report.id}>
            <td>
              {t(LABELS[report.type])} ({report.format.toUpperCase()})
            </td>
            <td>
              {orderedParams(report.params)
                .map(
                  ([key, value]) =>
                    `${t(PARAMS[key] ?? key)} ${key === 'concept_map_id' ? mapName(String(value)) : paramText(key, String(value))}`,
                )
                .join(', ')}
            </td>
            <td className={`status-${report.status}`}>
              {t(statusLabel(report.status))}
              {report.error ? `: ${report.error.message}` : ''}
            </td>
            <td>{report.row_count == null ? '—' : formatNumber(report.row_count)}</td>
            <td>{formatInstant(report.created_at)}</td>
            <td>
              {report.status === 'completed' && (
                <button type="button" disabled={download.busy} onClick={() => fetchFile(report)}>
                  {t('Download')}
                </button>
              )}
            </td>
          </tr>
        ))}
      />
    </>
  );
}
