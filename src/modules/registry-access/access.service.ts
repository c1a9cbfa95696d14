import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { DEFAULT_LIMIT, keysetPage, mapPage, type Page, timestampKey } from '../../platform/pagination.ts';
import { sha256 } from '../../platform/secrets.ts';
import type { ActingTenant, CompanyScope, TenantScope } from '../../platform/tenant.ts';
import { monthRange } from '../../time/calendar.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import type { CompanyRow } from '../companies/companies.repo.ts';
import { loadAccount } from '../companies/companies.service.ts';
import { findEmployeesByIds, selectEmployedDuring } from '../employees/employees.repo.ts';
import { sealedDocument } from '../month-documents/month-documents.service.ts';
import { monthSeals } from '../registry/months.service.ts';
import { chainAccess, chainGrant } from '../registry/registry.service.ts';
import { type Column, csvStream, type Row } from '../reports/file-writers.ts';
import { pdfStream } from '../reports/pdf.ts';
import { hhmm, registryRowsWithin, TIME_REGISTRY_COLUMNS, timeRegistryRows } from '../reports/report-rows.ts';
import {
  actorText,
  dayCells,
  LABELS,
  othersLine,
  workerMonthlyDocuments,
} from '../reports/worker-documents.ts';
import { listWorkSummaries } from '../work-summaries/work-summaries.service.ts';
import {
  admitAccessRequest,
  countRepeat,
  findGrant,
  findGrantByToken,
  type GrantRow,
  insertAccess,
  insertGrant,
  revokeGrantRow,
  selectAccesses,
  selectGrants,
} from './access.repo.ts';
import { type AccessGrant, type CreateAccessGrantBody, MAX_GRANT_DAYS } from './access.schemas.ts';

/**
 * Read-only access to the registry for the Inspección de Trabajo and the workers' representatives
 * (docs/registry.md): a grant is a secret link scoped to a period and, optionally, some workers; every use is
 * logged, a revoked or expired one too.
 */
export type GrantView = Static<typeof AccessGrant>;

const toView = (row: GrantRow): GrantView => ({
  id: row.id,
  kind: row.kind,
  label: row.label,
  from: row.from_date,
  to: row.to_date,
  employee_ids: row.employee_ids,
  expires_at: formatInstant(row.expires_at),
  revoked_at: row.revoked_at ? formatInstant(row.revoked_at) : null,
  created_at: formatInstant(row.created_at),
  created_by: { type: row.created_by_type, id: row.created_by_id },
  revoked_by:
    row.revoked_by_type && row.revoked_by_id ? { type: row.revoked_by_type, id: row.revoked_by_id } : null,
});

export async function createGrant(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl'>,
  tenant: ActingTenant,
  input: Static<typeof CreateAccessGrantBody>,
): Promise<GrantView & { url: string }> {
  const { db, clock } = deps;
  const now = clock.now();
  const errors: Record<string, string> = {};
  if (input.to < input.from) errors.to = 'must be on or after from';
  else if (Temporal.PlainDate.from(input.from).add({ years: 4 }).toString() < input.to) {
    errors.to = 'must be at most 4 years after from';
  }
  const expires = Temporal.Instant.from(input.expires_at);
  if (Temporal.Instant.compare(expires, now) <= 0) errors.expires_at = 'must be in the future';
  else if (Temporal.Instant.compare(expires, now.add({ hours: MAX_GRANT_DAYS * 24 })) > 0) {
    errors.expires_at = `must be at most ${MAX_GRANT_DAYS} days ahead`;
  }
  if (input.employee_ids) {
    const found = new Set(
      (await findEmployeesByIds(db, tenant.companyId, input.employee_ids)).map((employee) => employee.id),
    );
    input.employee_ids.forEach((id, index) => {
      if (!found.has(id)) errors[`employee_ids[${index}]`] = 'is not an employee of this company';
    });
  }
  if (Object.keys(errors).length === 0) {
    // A grant must open on someone: a period in which none of its workers is employed is refused (issue 35).
    const employed = await selectEmployedDuring(db, tenant.companyId, input.from, input.to).execute();
    const covered = employed.filter((row) => input.employee_ids?.includes(row.id) ?? true);
    if (covered.length === 0) errors.from = 'no worker of the grant is employed between from and to';
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  if (tenant.actor.type === 'employee') throw notFound('Employee');
  const token = randomBytes(32).toString('base64url');
  const row = {
    company_id: tenant.companyId,
    id: newId(),
    kind: input.kind,
    label: input.label,
    from_date: input.from,
    to_date: input.to,
    employee_ids: input.employee_ids ?? null,
    created_at: toDate(now),
    expires_at: toDate(expires),
    revoked_at: null,
    created_by_type: tenant.actor.type,
    created_by_id: tenant.actor.id,
    revoked_by_type: null,
    revoked_by_id: null,
  };
  await db.transaction().execute(async (tx) => {
    const { revoked_by_type: _type, revoked_by_id: _id, ...stored } = row;
    await insertGrant(tx, { ...stored, token_hash: sha256(token) });
    await chainGrant(tx, tenant.companyId, row.id, row.created_at);
  });
  return { ...toView(row), url: `${deps.publicUrl}/registry-access/${token}` };
}

export async function listGrants(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  tenant: CompanyScope,
  query: { limit?: number | undefined; cursor?: string | undefined },
): Promise<Page<GrantView>> {
  const page = await keysetPage(selectGrants(deps.db, tenant.companyId), {
    codec: deps.cursors,
    listing: 'registry-access-grants',
    sort: [
      { column: 'created_at', kind: 'timestamp' },
      { column: 'id', kind: 'text' },
    ],
    limit: query.limit ?? DEFAULT_LIMIT,
    cursor: query.cursor,
    keyOf: (row) => [timestampKey(row.created_at), row.id],
  });
  return mapPage(page, toView);
}

export async function getGrant(deps: Pick<AppDeps, 'db'>, tenant: CompanyScope, id: string) {
  const row = await findGrant(deps.db, tenant.companyId, id);
  if (!row) throw notFound('Access grant');
  return toView(row);
}

/** Revokes a grant at once; revoking it again changes nothing. */
export async function revokeGrant(deps: Pick<AppDeps, 'db' | 'clock'>, tenant: ActingTenant, id: string) {
  const row = await findGrant(deps.db, tenant.companyId, id);
  if (!row) throw notFound('Access grant');
  const at = toDate(deps.clock.now());
  await deps.db.transaction().execute(async (tx) => {
    if (await revokeGrantRow(tx, tenant.companyId, id, at, tenant.actor)) {
      await chainGrant(tx, tenant.companyId, id, at);
    }
  });
}

export async function listAccesses(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  tenant: CompanyScope,
  grantId: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
) {
  if (!(await findGrant(deps.db, tenant.companyId, grantId))) throw notFound('Access grant');
  const page = await keysetPage(selectAccesses(deps.db, tenant.companyId, grantId), {
    codec: deps.cursors,
    listing: `registry-accesses|${grantId}`,
    sort: [
      { column: 'at', kind: 'timestamp' },
      { column: 'id', kind: 'text' },
    ],
    limit: query.limit ?? DEFAULT_LIMIT,
    cursor: query.cursor,
    keyOf: (row) => [timestampKey(row.at), row.id],
  });
  return mapPage(page, (row) => ({ ...row, at: row.at.toISOString() }));
}

export type OpenedGrant = { grant: GrantRow; tenant: TenantScope; account: CompanyRow };

/**
 * Opens a grant by its link's token and logs the access (what, when, from where). Unknown: 404. Revoked or
 * expired: logged as such, then 404 (the link says nothing more).
 */
export async function openGrant(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  token: string,
  access: { ip: string; what: string },
): Promise<OpenedGrant> {
  const { db, clock } = deps;
  const now = clock.now();
  const tokenHash = sha256(token);
  await admitAccess(db, now, [
    { subject: `ip:${access.ip}`, limit: ACCESS_REQUESTS_PER_ADDRESS },
    { subject: `token:${tokenHash.toString('hex')}`, limit: ACCESS_REQUESTS_PER_TOKEN },
  ]);
  const grant = await findGrantByToken(db, tokenHash);
  if (!grant) throw gone();
  const outcome =
    grant.revoked_at !== null
      ? 'revoked'
      : grant.expires_at.getTime() <= now.epochMilliseconds
        ? 'expired'
        : 'ok';
  const accessId = newId();
  await db.transaction().execute(async (tx) => {
    // A run of the same refusal is one entry with a count (issue 35), not a row (and a chain entry) each.
    const row = {
      company_id: grant.company_id,
      grant_id: grant.id,
      ip: access.ip,
      what: access.what,
      outcome,
    };
    if (outcome !== 'ok' && (await countRepeat(tx, row, toDate(now.subtract({ minutes: 1 }))))) return;
    await insertAccess(tx, {
      company_id: grant.company_id,
      id: accessId,
      grant_id: grant.id,
      at: toDate(now),
      ip: access.ip,
      what: access.what,
      outcome,
    });
    await chainAccess(tx, grant.company_id, accessId);
  });
  if (outcome !== 'ok') throw gone();
  const { account, tenant } = await loadAccount(db, grant.company_id);
  return {
    grant,
    account,
    tenant: { companyId: tenant.id, accountId: account.id, timezone: account.timezone },
  };
}

const gone = () => new ApiError('not_found', 'This access link does not exist, was revoked or has expired.');

/** Requests per minute through access links, per address and per link (issue 35: they were never throttled). */
export const ACCESS_REQUESTS_PER_ADDRESS = 120;
export const ACCESS_REQUESTS_PER_TOKEN = 240;

/** Counts a request in each window (429 with Retry-After once one is full), before anything is read or logged. */
async function admitAccess(
  db: Executor,
  now: Temporal.Instant,
  windows: ReadonlyArray<{ subject: string; limit: number }>,
): Promise<void> {
  const start = Math.floor(now.epochMilliseconds / 60_000) * 60_000;
  for (const window of windows) {
    if ((await admitAccessRequest(db, window.subject, new Date(start), window.limit)) === null) {
      const retryAfter = Math.max(1, Math.ceil((start + 60_000 - now.epochMilliseconds) / 1000));
      throw new ApiError(
        'rate_limited',
        `Too many requests through access links. Try again in ${retryAfter} seconds.`,
        {
          headers: { 'Retry-After': String(retryAfter) },
        },
      );
    }
  }
}

/** The months a grant's period touches, YYYY-MM. */
function monthsOf(grant: GrantRow): string[] {
  const months: string[] = [];
  let month = Temporal.PlainYearMonth.from(grant.from_date.slice(0, 7));
  const last = Temporal.PlainYearMonth.from(grant.to_date.slice(0, 7));
  while (Temporal.PlainYearMonth.compare(month, last) <= 0) {
    months.push(month.toString());
    month = month.add({ months: 1 });
  }
  return months;
}

/** The covered workers (employed during the period, among the grant's), by name. */
async function coveredWorkers(deps: Pick<AppDeps, 'db'>, opened: OpenedGrant) {
  const { grant, tenant } = opened;
  const employed = await selectEmployedDuring(deps.db, tenant.companyId, grant.from_date, grant.to_date)
    .orderBy('id')
    .execute();
  const ids = employed.map((row) => row.id).filter((id) => grant.employee_ids?.includes(id) ?? true);
  const rows = await findEmployeesByIds(deps.db, tenant.companyId, ids);
  return rows
    .map((row) => ({ id: row.id, name: `${row.first_name} ${row.last_name}` }))
    .sort((a, b) => a.name.localeCompare(b.name, 'es'));
}

/** A covered worker, if the month is one of the grant's (404 otherwise). */
async function coveredWorkerMonth(
  deps: Pick<AppDeps, 'db'>,
  opened: OpenedGrant,
  employeeId: string,
  month: string,
) {
  const worker = (await coveredWorkers(deps, opened)).find((item) => item.id === employeeId);
  if (!worker || !monthsOf(opened.grant).includes(month)) throw notFound('Worker month');
  return worker;
}

/** What a grant opens on: the company, the period, the months and the covered workers. */
export async function grantSummary(deps: Pick<AppDeps, 'db'>, opened: OpenedGrant) {
  const { account } = opened;
  return {
    kind: opened.grant.kind,
    label: opened.grant.label,
    company: { name: account.name, legal_name: account.legal_name, tax_id: account.tax_id },
    time_zone: opened.tenant.timezone,
    from: opened.grant.from_date,
    to: opened.grant.to_date,
    expires_at: formatInstant(opened.grant.expires_at),
    months: monthsOf(opened.grant),
    // Each closed month's seal, for the Inspección or the representatives to keep (docs/registry.md, Seals).
    seals: await monthSeals(deps.db, opened.tenant.companyId, monthsOf(opened.grant)),
    workers: await coveredWorkers(deps, opened),
  };
}

type Totals = { worked_minutes: number; overtime_minutes: number; night_minutes: number };

/**
 * The part of a month a grant covers (issue 35: a grant for 15–20 October shows those days only), and whether it
 * is the whole month.
 */
function grantDays(grant: GrantRow, month: string): { from: string; to: string; whole: boolean } {
  const { from, to } = monthRange(month);
  const first = grant.from_date > from ? grant.from_date : from;
  const last = grant.to_date < to ? grant.to_date : to;
  return { from: first, to: last, whole: first === from && last === to };
}

/**
 * A worker's totals of the days a grant covers in a month: the work summaries' month row for a whole month, the
 * sum of the covered days' registry rows otherwise; null when the worker was not employed in the month.
 */
async function monthTotals(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  opened: OpenedGrant,
  employeeId: string,
  month: string,
): Promise<Totals | null> {
  const { tenant } = opened;
  const days = grantDays(opened.grant, month);
  if (!days.whole) {
    let last: Row | undefined;
    for await (const row of registryRowsWithin(
      timeRegistryRows(deps.db, deps.clock, deps.cursors, tenant, { month, employee_id: employeeId }),
      days,
    )) {
      last = row;
    }
    return last
      ? {
          worked_minutes: Number(last.worked_minutes ?? 0),
          overtime_minutes: Number(last.overtime_minutes ?? 0),
          night_minutes: Number(last.night_minutes ?? 0),
        }
      : null;
  }
  const { from, to } = monthRange(month);
  const [row] = (
    await listWorkSummaries(deps, tenant, { period: 'month', from, to, employee_id: employeeId })
  ).data;
  return row
    ? {
        worked_minutes: row.worked_minutes,
        overtime_minutes: row.overtime_minutes,
        night_minutes: row.night_minutes,
      }
    : null;
}

const withHhmm = (totals: Totals) => ({
  ...totals,
  worked_hhmm: hhmm(totals.worked_minutes),
  overtime_hhmm: hhmm(totals.overtime_minutes),
  night_hhmm: hhmm(totals.night_minutes),
});

/** The representatives' CSV: each covered worker's month totals, by name (no ids, no intervals). */
export const REPRESENTATIVES_COLUMNS: Column[] = [
  { key: 'employee_name', kind: 'text' },
  { key: 'month', kind: 'text' },
  { key: 'worked_minutes', kind: 'integer' },
  { key: 'worked_hhmm', kind: 'text' },
  { key: 'overtime_minutes', kind: 'integer' },
  { key: 'overtime_hhmm', kind: 'text' },
  { key: 'night_minutes', kind: 'integer' },
  { key: 'night_hhmm', kind: 'text' },
];

/**
 * A month of the grant as CSV, every covered worker by name. The Inspección gets the CSV registry's rows (the
 * columns of `time_registry_monthly`, so both agree); representatives get the month's totals alone.
 */
export async function monthCsv(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  opened: OpenedGrant,
  month: string,
) {
  if (!monthsOf(opened.grant).includes(month)) throw notFound('Month');
  const workers = await coveredWorkers(deps, opened);
  const { tenant } = opened;
  if (opened.grant.kind === 'inspection') {
    return csvStream(
      TIME_REGISTRY_COLUMNS,
      (async function* () {
        const days = grantDays(opened.grant, month);
        for (const worker of workers) {
          yield* registryRowsWithin(
            timeRegistryRows(deps.db, deps.clock, deps.cursors, tenant, { month, employee_id: worker.id }),
            days,
          );
        }
      })(),
    );
  }
  return csvStream(
    REPRESENTATIVES_COLUMNS,
    (async function* () {
      for (const worker of workers) {
        const totals = await monthTotals(deps, opened, worker.id, month);
        if (totals) yield { employee_name: worker.name, month, ...withHhmm(totals) };
      }
    })(),
  );
}

/**
 * One covered worker's month. The Inspección sees the registry's day rows (intervals, figures, marks) and the
 * totals; representatives see the month's totals alone (worked, overtime, night), by name: no check-in detail
 * and no identity numbers (data minimisation).
 */
export async function workerMonth(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  opened: OpenedGrant,
  employeeId: string,
  month: string,
) {
  const { grant } = opened;
  const worker = await coveredWorkerMonth(deps, opened, employeeId, month);
  if (grant.kind === 'representatives') {
    const totals = (await monthTotals(deps, opened, employeeId, month)) ?? {
      worked_minutes: 0,
      overtime_minutes: 0,
      night_minutes: 0,
    };
    return { worker: { name: worker.name }, month, totals: withHhmm(totals) };
  }
  // The Inspección sees what the worker's document prints (issue 34): each day's pauses and marks in words,
  // the contract, the registry policy, the month's version and seal, and every record someone else made.
  const label = LABELS.es;
  for await (const document of coveredDocuments(deps, opened, employeeId, month)) {
    const zone = document.timeZone;
    return {
      worker: { id: worker.id, name: worker.name },
      month,
      days: document.days.map((day) => {
        const cells = dayCells(day, label, document.absenceLabels);
        return { ...day, intervals_text: cells.intervals, notes: cells.notes };
      }),
      totals: document.totals,
      employment: {
        hire_date: document.employment.hireDate,
        termination_date: document.employment.terminationDate,
        weekly_minutes: document.employment.weeklyMinutes,
        part_time_percent: document.employment.partTimePercent,
      },
      registry_policy: document.policy,
      version: document.version,
      seal: document.seal,
      records_by_others: document.recordsByOthers.map((record) => ({
        type: record.type,
        timestamp: record.timestamp.toISOString(),
        recorded_by: actorText(record.recordedBy, label),
        key_kind: record.keyKind,
        recorded_at: record.recordedAt.toISOString(),
        worker_response: record.response,
        reason: record.reason,
        voided: record.voided,
        text: othersLine(record, label, zone),
      })),
    };
  }
  throw notFound('Worker month');
}

/** A covered worker's month as the signed-off PDF document: the Inspección's download (404 for representatives). */
export async function workerMonthPdf(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  opened: OpenedGrant,
  employeeId: string,
  month: string,
) {
  if (opened.grant.kind !== 'inspection') throw notFound('Worker month');
  await coveredWorkerMonth(deps, opened, employeeId, month);
  // A closed month's stored document (its latest version), never a rebuild, when the grant covers the whole
  // month; a grant of some days gets those days alone.
  if (grantDays(opened.grant, month).whole) {
    const sealed = await sealedDocument(deps, opened.tenant, employeeId, month, 'pdf', 'es');
    if (sealed) return sealed.content;
  }
  return pdfStream(coveredDocuments(deps, opened, employeeId, month), {
    locale: 'es',
    generatedAt: deps.clock.now(),
    counter: { rows: 0 },
  });
}

/** A covered worker's month document, its days and totals limited to the days the grant covers. */
async function* coveredDocuments(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  opened: OpenedGrant,
  employeeId: string,
  month: string,
) {
  const days = grantDays(opened.grant, month);
  for await (const document of workerMonthlyDocuments(deps.db, deps.clock, deps.cursors, opened.tenant, {
    month,
    employee_id: employeeId,
  })) {
    if (days.whole) {
      yield document;
      continue;
    }
    const rows: Row[] = [];
    for await (const row of registryRowsWithin([...document.days, document.totals], days)) rows.push(row);
    const totals = rows.pop() as Row;
    yield { ...document, days: rows, totals };
  }
}
