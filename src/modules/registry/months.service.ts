import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import { lockCompanyRow } from '../../db/companies.ts';
import type { Executor } from '../../db/database.ts';
import { lockEmployees } from '../../db/employees.ts';
import { insertDocumentWork } from '../../db/queues.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { DEFAULT_LIMIT, keysetPage, mapPage, type Page } from '../../platform/pagination.ts';
import type { ActingTenant, CompanyScope } from '../../platform/tenant.ts';
import { monthRange } from '../../time/calendar.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { localDate } from '../../time/zones.ts';
import { recordEvents } from '../events/events.service.ts';
import {
  closingOf,
  currentMonthVersion,
  employeesEmployedIn,
  firstClosedMonthFrom,
  insertClosedMonth,
  insertMonthVersion,
  isMonthClosed,
  latestClosedMonth,
  monthCloseHashes,
  selectClosedMonths,
} from './registry.repo.ts';
import type { ClosedMonth } from './registry.schemas.ts';
import { appendToChain, appendToCompanyChain } from './registry.service.ts';

export { isMonthClosed } from './registry.repo.ts';
export type ClosedMonthView = Static<typeof ClosedMonth>;

/**
 * Closes a month of the tenant (docs/registry.md): only once it has ended in the company's time zone (422), and
 * once (409). Every employee of the month gets the closing in their chain. The closing takes every employee's
 * row lock, like every writer of their days, so no check-in can slip into the month while it closes.
 */
export async function closeMonth(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: ActingTenant,
  month: string,
): Promise<ClosedMonthView> {
  const now = deps.clock.now();
  const range = monthRange(month);
  if (localDate(now, tenant.timezone).toString() <= range.to) {
    throw invalid({ 'path.month': `has not ended yet in ${tenant.timezone}` });
  }
  // A sync-stamped write: its event (registry_month.closed) is in the outbox, which client listings read in
  // stamp order; the close's instant is the stamp.
  return await withSyncStamp(deps.db, deps.clock, tenant.companyId, async (tx, stamp) => {
    const at = toDate(stamp);
    // Every employee's lock, then the company row (which a hire takes first, with its seat), then every
    // employee's again: an employee hired meanwhile has committed and is locked too, and a later hire waits for
    // the closing, so none records into the month behind it. Employees before the company keeps the lock order.
    await lockEmployees(tx, tenant.companyId);
    await lockCompanyRow(tx, tenant.companyId);
    await lockEmployees(tx, tenant.companyId);
    const already = () => new ApiError('conflict', `The month ${month} is already closed.`);
    if (await isMonthClosed(tx, tenant.companyId, range.from)) throw already();
    const employees = await employeesEmployedIn(tx, tenant.companyId, range.from, range.to);
    for (const employeeId of employees) {
      await appendToChain(tx, tenant.companyId, employeeId, {
        kind: 'month_close',
        subjectId: null,
        content: { month, closed_at: at.toISOString(), closed_by: tenant.actor },
        recordedAt: at,
      });
    }
    // The seal over every closing entry just appended: printed on the month's documents and answered by the
    // listing, so that a worker or an inspector who keeps it can prove a later rewrite of any of those chains.
    const seal = await sealOf(tx, tenant.companyId, month);
    const closed = await insertClosedMonth(tx, {
      company_id: tenant.companyId,
      month: range.from,
      closed_at: at,
      closed_by_type: tenant.actor.type,
      closed_by_id: tenant.actor.id,
      seal,
    });
    if (!closed) throw already();
    // The month's documents are made from what it is now, sealed: each worker's (version 1) and the company's
    // CSV (edition 1), by the worker role at once, or by whatever needs them first (docs/registry.md).
    await queueDocuments(
      tx,
      tenant.companyId,
      range.from,
      [...employees.map((employeeId) => ({ employeeId, version: 1 })), { employeeId: null, version: 1 }],
      at,
    );
    await appendToCompanyChain(tx, tenant.companyId, {
      kind: 'month_sealed',
      subjectId: null,
      content: { month, seal: seal.toString('hex'), closed_at: at.toISOString() },
      recordedAt: at,
    });
    // A payroll integration pulls the month once it is final (issue 41).
    await recordEvents(tx, tenant.companyId, at, [
      {
        type: 'registry_month.closed',
        data: { month, seal: seal.toString('hex'), workers: employees.length, closed_at: formatInstant(at) },
      },
    ]);
    return { month, closed_at: formatInstant(at), closed_by: tenant.actor, seal: seal.toString('hex') };
  });
}

export async function listClosedMonths(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  tenant: CompanyScope,
  query: { limit?: number | undefined; cursor?: string | undefined },
): Promise<Page<ClosedMonthView>> {
  const page = await keysetPage(selectClosedMonths(deps.db, tenant.companyId), {
    codec: deps.cursors,
    listing: 'registry-months',
    sort: [{ column: 'month', kind: 'text' }],
    direction: 'desc',
    limit: query.limit ?? DEFAULT_LIMIT,
    cursor: query.cursor,
    keyOf: (row) => [row.month],
  });
  return mapPage(page, (row) => ({
    month: row.month.slice(0, 7),
    closed_at: formatInstant(row.closed_at),
    closed_by: { type: row.closed_by_type, id: row.closed_by_id },
    seal: row.seal === null ? null : row.seal.toString('hex'),
  }));
}

/**
 * A month's seal as the chains give it now: sha256 over one line `<employee id>:<hex hash of the month's closing
 * entry>\n` per employee of the month, in id order. Each closing entry's hash depends on every entry before it
 * in its chain, so the seal pins every chain of the month up to its closing.
 */
export async function sealOf(db: Executor, companyId: string, month: string): Promise<Buffer> {
  const lines = (await monthCloseHashes(db, companyId, month))
    .map((row) => `${row.employee_id}:${row.hash.toString('hex')}\n`)
    .join('');
  return createHash('sha256').update(lines, 'utf8').digest();
}

/** The 409 a change to the figures of a sealed date gets, naming the closed month that seals it. */
export function closedMonthConflict(month: string, what: string): ApiError {
  return new ApiError(
    'conflict',
    `The month ${month.slice(0, 7)} is closed: ${what} would change its figures. Record the change with a correction.`,
    { errors: { closed_month: month.slice(0, 7) } },
  );
}

/**
 * The closed month that seals a date, or undefined: the earliest closed month at or after the date's month. A
 * closed month seals the days before it too, because its banked balance runs from the tracking start through it
 * (docs/registry.md, "A closed month seals the days before it").
 */
export async function sealingMonth(
  db: Executor,
  companyId: string,
  date: string,
): Promise<string | undefined> {
  return await firstClosedMonthFrom(db, companyId, date);
}

/** The last sealed date of a tenant (the last day of its latest closed month), or undefined. */
export async function sealedThrough(db: Executor, companyId: string): Promise<string | undefined> {
  const latest = await latestClosedMonth(db, companyId);
  return latest === undefined ? undefined : monthRange(latest.slice(0, 7)).to;
}

/**
 * Refuses a change to the figures of a sealed date (409): a check-in dated in a closed month or before one, an
 * absence decision covering such dates, a holiday on one. Only `range.from` matters: every date after it up to
 * the latest closed month is sealed too. Call it holding the employee's (or every employee's) row lock, as a
 * closing takes them.
 */
export async function assertMonthsOpen(
  db: Executor,
  companyId: string,
  range: { from: string; to: string },
  what: string,
): Promise<void> {
  const closed = await sealingMonth(db, companyId, range.from);
  if (closed) throw closedMonthConflict(closed, what);
}

/**
 * assertMonthsOpen for the many dates of one write (a batch of punches) under the employees' row locks, which a
 * month's close must take too: the company's latest closed month is read once into `memo`, and a date is sealed
 * when its month is not after it. Only a sealed date reads again, for the refusal's month.
 */
export async function assertMonthOpenIn(
  db: Executor,
  companyId: string,
  date: string,
  what: string,
  memo: Map<string, string | null>,
): Promise<void> {
  let latest = memo.get(companyId);
  if (latest === undefined) {
    latest = (await latestClosedMonth(db, companyId)) ?? null;
    memo.set(companyId, latest);
  }
  if (latest !== null && `${date.slice(0, 7)}-01` <= latest) {
    await assertMonthsOpen(db, companyId, { from: date, to: date }, what);
  }
}

/**
 * A correction applied into closed months, or the worker's answer to a record in one, makes a new version of
 * each month whose figures it changed (issue 34): the earlier version stays (the chain and the acknowledgements
 * keep it), the new one names its cause and reason, enters the worker's chain, and asks the worker to acknowledge
 * the month again. Call it in the cause's transaction, under the worker's lock.
 */
export async function recordMonthVersions(
  tx: Executor,
  companyId: string,
  employeeId: string,
  months: readonly string[],
  cause: { kind: 'correction' | 'check_in_answer'; id: string; reason: string },
  at: Date,
): Promise<void> {
  for (const month of [...new Set(months)].sort()) {
    const first = `${month}-01`;
    if (!(await isMonthClosed(tx, companyId, first))) continue;
    const version = (await currentMonthVersion(tx, companyId, employeeId, first)) + 1;
    await insertMonthVersion(tx, {
      company_id: companyId,
      employee_id: employeeId,
      month: first,
      version,
      cause_id: cause.id,
      reason: cause.reason,
      created_at: at,
    });
    await appendToChain(tx, companyId, employeeId, {
      kind: 'month_version',
      subjectId: cause.id,
      content: {
        month,
        employee_id: employeeId,
        version,
        cause: cause.kind,
        cause_id: cause.id,
        reason: cause.reason,
      },
      recordedAt: at,
    });
    // The new version's documents, and a new edition of the company's CSV of the month.
    await queueDocuments(
      tx,
      companyId,
      first,
      [
        { employeeId, version },
        { employeeId: null, version: 0 },
      ],
      at,
    );
  }
}

/** Queues sealed documents to make (a company CSV's version 0: the next edition, numbered when it is made). */
async function queueDocuments(
  tx: Executor,
  companyId: string,
  month: string,
  items: ReadonlyArray<{ employeeId: string | null; version: number }>,
  at: Date,
): Promise<void> {
  await insertDocumentWork(
    tx,
    items.map((item) => ({
      id: newId(),
      company_id: companyId,
      employee_id: item.employeeId,
      month,
      version: item.version,
      created_at: at,
    })),
  );
}

/**
 * The latest closed month and the seal stored at its close (hex), or null: what a worker's signed approval
 * names as the registry it was given on (issue 35). That seal pins every chain of the company up to the close.
 */
export async function latestSeal(
  db: Executor,
  companyId: string,
): Promise<{ month: string; seal: string } | null> {
  const latest = await latestClosedMonth(db, companyId);
  if (latest === undefined) return null;
  const month = latest.slice(0, 7);
  const closing = await closingOf(db, companyId, month);
  return closing?.seal ? { month, seal: closing.seal.toString('hex') } : null;
}

/** The seals of those months that are closed (hex, by YYYY-MM), for the views that show them to keep. */
export async function monthSeals(db: Executor, companyId: string, months: readonly string[]) {
  const seals: Record<string, string> = {};
  for (const month of months) {
    const closing = await closingOf(db, companyId, month);
    if (closing?.seal) seals[month] = closing.seal.toString('hex');
  }
  return seals;
}
