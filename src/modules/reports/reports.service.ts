import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Selectable } from 'kysely';
import type { Logger } from 'pino';
import type { Static } from 'typebox';
import { lockCompanyRow } from '../../db/companies.ts';
import type { ReportFormat, ReportsTable, ReportType } from '../../db/schema.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound, validationErrors } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { companyLanguage } from '../../platform/language.ts';
import { hmac, safeEqual } from '../../platform/secrets.ts';
import type { CompanyScope, TenantScope } from '../../platform/tenant.ts';
import { withFormats } from '../../platform/validation.ts';
import { yearRangeProblem } from '../../time/calendar.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { findEmployee } from '../employees/employees.service.ts';
import { payrollLayout } from '../payroll/payroll.service.ts';
import {
  countProcessingReports,
  findReport,
  findReportForDownload,
  insertReport,
  latestReports,
  useDownloadNonce,
} from './reports.repo.ts';
import type { CreateReportBody } from './reports.schemas.ts';
import { REPORT_PARAMS, type Report } from './reports.schemas.ts';

/** A download address lives this long (spec, Limits). */
export const DOWNLOAD_URL_SECONDS = 300;
/** Generated files are deleted this long after completion. */
export const FILE_RETENTION_DAYS = 7;

export type ReportParams = Record<string, string>;

export type ReportView = Static<typeof Report>;

const ajv = withFormats(new Ajv({ allErrors: true, strict: false }));
const paramValidators: Record<ReportType, ValidateFunction> = {
  time_registry_monthly: ajv.compile(REPORT_PARAMS.time_registry_monthly),
  check_ins_export: ajv.compile(REPORT_PARAMS.check_ins_export),
  time_registry_worker_monthly: ajv.compile(REPORT_PARAMS.time_registry_worker_monthly),
  payroll_variables: ajv.compile(REPORT_PARAMS.payroll_variables),
};

/** The formats each type is generated in. */
export const FORMATS_OF: Record<ReportType, readonly ReportFormat[]> = {
  time_registry_monthly: ['csv'],
  check_ins_export: ['csv', 'xlsx'],
  time_registry_worker_monthly: ['pdf', 'xlsx'],
  payroll_variables: ['csv', 'xlsx'],
};

/** The params' own rules, as per-field errors under `params.`. */
function paramsErrors(type: ReportType, params: Record<string, unknown>): Record<string, string[]> {
  const validate = paramValidators[type];
  if (!validate(params)) {
    const located = (validate.errors ?? []).map((error) => ({
      ...error,
      instancePath: `/params${error.instancePath}`,
    }));
    return validationErrors(located, 'body');
  }
  if (type === 'check_ins_export') {
    const problem = yearRangeProblem(String(params.from), String(params.to));
    if (problem !== null) return { 'params.to': [problem] };
  }
  return {};
}

/** Reports a tenant may have queued or generating at once, unless JORNADA_MAX_PENDING_REPORTS says otherwise. */
export const MAX_PENDING_REPORTS = 10;
const PENDING_REPORTS_RETRY_SECONDS = 30;

/**
 * POST /v1/reports: validated, then queued for generation (the row is the job). A tenant with `maxPending`
 * reports still processing gets 429 rate_limited with Retry-After, so that one tenant cannot fill the queue.
 */
export async function createReport(
  deps: Pick<AppDeps, 'db' | 'clock' | 'maxPendingReports'>,
  tenant: TenantScope,
  input: Static<typeof CreateReportBody>,
): Promise<{ id: string; status: 'processing' }> {
  const { db, clock } = deps;
  const maxPending = deps.maxPendingReports ?? MAX_PENDING_REPORTS;
  const errors = paramsErrors(input.type, input.params);
  const formats = FORMATS_OF[input.type];
  if (!formats.includes(input.format)) {
    errors.format = [`${input.type} is generated as ${formats.join(' or ')}`];
  }
  const employeeId = input.params.employee_id;
  if (typeof employeeId === 'string' && !errors['params.employee_id']) {
    if (!(await findEmployee(db, tenant.companyId, employeeId))) {
      errors['params.employee_id'] = ['is not an employee of this company'];
    }
  }
  const conceptMapId = input.params.concept_map_id;
  if (typeof conceptMapId === 'string' && !errors['params.concept_map_id']) {
    if (!(await payrollLayout(db, tenant.companyId, conceptMapId))) {
      errors['params.concept_map_id'] = ['is not a concept map of this company'];
    }
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  // Payroll variables are in the company's language unless asked otherwise; the language is kept with the
  // params, so that the file, its name and the report's view say the same.
  const params =
    input.type === 'payroll_variables' && input.params.locale === undefined
      ? { ...input.params, locale: companyLanguage(tenant.timezone) }
      : input.params;
  const at = toDate(clock.now());
  const id = newId();
  await db.transaction().execute(async (tx) => {
    // The cap holds under concurrency: creations of one tenant take its row lock in turn.
    await lockCompanyRow(tx, tenant.companyId);
    const pending = await countProcessingReports(tx, tenant.companyId);
    if (pending >= maxPending) {
      throw new ApiError(
        'rate_limited',
        `This company already has ${maxPending} reports queued or generating; request more once they complete.`,
        { headers: { 'Retry-After': String(PENDING_REPORTS_RETRY_SECONDS) } },
      );
    }
    await insertReport(tx, tenant.companyId, {
      id,
      type: input.type,
      format: input.format,
      params: JSON.stringify(params),
      at,
    });
  });
  return { id, status: 'processing' };
}

export type DownloadSigner = { key: Buffer; publicUrl: string };

const signatureOf = (signer: DownloadSigner, reportId: string, expires: number, nonce: string) =>
  hmac(signer.key, `report-download:${reportId}:${expires}:${nonce}`).toString('base64url');

/** A fresh single-use address: HMAC over the report id, the expiry and a random nonce. */
function mintDownloadUrl(
  signer: DownloadSigner,
  reportId: string,
  now: Temporal.Instant,
): { url: string; expiresAt: Temporal.Instant } {
  const expiresAt = now.add({ seconds: DOWNLOAD_URL_SECONDS });
  const expires = Math.floor(expiresAt.epochMilliseconds / 1000);
  const nonce = randomBytes(16).toString('base64url');
  const signature = `${nonce}.${signatureOf(signer, reportId, expires, nonce)}`;
  const query = new URLSearchParams({ expires: String(expires), signature });
  return {
    url: `${signer.publicUrl}/v1/reports/${reportId}/download?${query}`,
    expiresAt: Temporal.Instant.fromEpochMilliseconds(expires * 1000),
  };
}

type ReportRow = Selectable<ReportsTable>;

function toReportView(row: ReportRow, signer: DownloadSigner, now: Temporal.Instant): ReportView {
  const view: ReportView = {
    id: row.id,
    type: row.type,
    format: row.format,
    params: row.params,
    status: row.status,
    created_at: formatInstant(row.created_at),
    completed_at: row.completed_at ? formatInstant(row.completed_at) : null,
  };
  if (row.status === 'completed') {
    const download = mintDownloadUrl(signer, row.id, now);
    view.download_url = download.url;
    view.expires_at = formatInstant(download.expiresAt);
    if (row.file_expires_at) view.file_expires_at = formatInstant(row.file_expires_at);
    if (row.row_count !== null) view.row_count = row.row_count;
  }
  if (row.status === 'failed') {
    view.error = {
      code: row.error_code ?? 'generation_failed',
      message: row.error_message ?? 'Generation failed.',
    };
  }
  return view;
}

export async function getReport(
  deps: Pick<AppDeps, 'db' | 'clock'> & { signer: DownloadSigner },
  tenant: CompanyScope,
  id: string,
): Promise<ReportView> {
  const { db, clock, signer } = deps;
  const { companyId } = tenant;
  const row = await findReport(db, companyId, id);
  if (!row) throw notFound('Report');
  return toReportView(row, signer, clock.now());
}

/** The tenant's latest reports, newest first (ids are UUIDv7, so the primary key orders them). */
export async function listRecentReports(
  deps: Pick<AppDeps, 'db' | 'clock'> & { signer: DownloadSigner },
  tenant: CompanyScope,
  limit: number,
): Promise<ReportView[]> {
  const { db, clock, signer } = deps;
  const { companyId } = tenant;
  const rows = await latestReports(db, companyId, limit);
  const now = clock.now();
  return rows.map((row) => toReportView(row, signer, now));
}

export const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

export function fileNameOf(report: {
  type: ReportType;
  format: ReportFormat;
  params: Record<string, unknown>;
}) {
  const params = report.params as ReportParams;
  const monthly = report.type !== 'check_ins_export';
  const span = monthly ? params.month : `${params.from}_${params.to}`;
  const who = params.employee_id ? `-${params.employee_id}` : '';
  // File names in Spanish when the report asks for Spanish (params.locale: es), issue 39.
  const names =
    params.locale === 'es'
      ? {
          time_registry_monthly: 'registro-jornada',
          time_registry_worker_monthly: 'registro-trabajador',
          check_ins_export: 'fichajes',
          payroll_variables: 'variables-nomina',
        }
      : {
          time_registry_monthly: 'time-registry',
          time_registry_worker_monthly: 'worker-registry',
          check_ins_export: 'check-ins',
          payroll_variables: 'payroll-variables',
        };
  const name = names[report.type];
  return `${name}-${span}${who}.${report.format}`;
}

/**
 * GET /v1/reports/{id}/download: authenticated by the signature alone. The report must exist (404), the
 * signature must match and not be expired (403), and its nonce is consumed atomically, so a second use, even a
 * concurrent one, is refused (403).
 */
export async function openDownload(
  deps: Pick<AppDeps, 'db' | 'clock' | 'reportStore'> & { signer: DownloadSigner },
  id: string,
  query: { expires?: string | undefined; signature?: string | undefined },
  log?: Pick<Logger, 'error'>,
): Promise<{ stream: Readable; contentType: string; fileName: string }> {
  const { db, clock, signer, reportStore: store } = deps;
  const report = await findReportForDownload(db, id);
  if (!report) throw notFound('Report');
  // 403 `unauthenticated` (v1 never renames a code); errors.reason tells the three cases apart (issue 41).
  const refused = (why: string, reason: 'download_invalid' | 'download_expired' | 'download_used') =>
    new ApiError('unauthenticated', `This download address ${why}.`, { status: 403, errors: { reason } });
  const expires = /^[0-9]{1,12}$/.test(query.expires ?? '') ? Number(query.expires) : null;
  const [nonce, mac, extra] = (query.signature ?? '').split('.');
  if (expires === null || !nonce || !mac || extra !== undefined)
    throw refused('is not valid', 'download_invalid');
  if (!safeEqual(Buffer.from(mac), Buffer.from(signatureOf(signer, id, expires, nonce)))) {
    throw refused('is not valid', 'download_invalid');
  }
  const now = clock.now();
  if (now.epochMilliseconds >= expires * 1000)
    throw refused('has expired; GET the report for a fresh one', 'download_expired');
  if (report.status !== 'completed' || !report.storage_key) {
    throw notFound('Report file');
  }
  // The file is opened before the address is consumed: a node that cannot read it (a report directory not
  // shared between nodes, a lost file) leaves the address usable on a node that can, and says so in its log.
  const stream = await store.get(report.storage_key);
  if (!stream) {
    log?.error(
      { report: id, storageKey: report.storage_key },
      'report file missing from this node’s store: is the report directory shared by every node?',
    );
    throw notFound('Report file');
  }
  const used = await useDownloadNonce(db, {
    companyId: report.company_id,
    reportId: id,
    nonce,
    usedAt: toDate(now),
    urlExpiresAt: new Date(expires * 1000),
  });
  if (!used) {
    stream.destroy();
    throw refused('was already used; GET the report for a fresh one', 'download_used');
  }
  return { stream, contentType: CONTENT_TYPES[report.format], fileName: fileNameOf(report) };
}
