import type { Executor, Tx } from '../../db/database.ts';
import { lockEmployees } from '../../db/employees.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { toDate } from '../../time/clock.ts';
import { type PendingEvent, recordEvents } from '../events/events.service.ts';
import { refreshComplianceAlerts } from './compliance-alerts.ts';
import { consolidate } from './consolidation.ts';
import { lockEmployeeRows } from './workdays.repo.ts';

/**
 * The one owner of every write of an employee's days (docs/registry.md, "One owner for every write of an
 * employee's days"). A writer states what it does in `work`; the owner runs the sequence around it, always in the
 * same order:
 *
 * 1. the sync stamp (docs/architecture.md, "Sync without gaps"), then the row lock of every employee the write
 *    concerns, in id order (or of every employee of the tenant), before anything else is read;
 * 2. the writer's own rules and rows (`work`), which name every date range whose figures the write can change
 *    (`touched`) and the events it emits;
 * 3. the recomputation of each touched range, which refuses (409 `conflict`, `errors.closed_month`) a change to
 *    any sealed date's figures: a date in a closed month or before one. Only an applied correction passes
 *    `sealed: 'correction'`;
 * 4. the events, in the same transaction.
 *
 * A refusal in step 3 rolls the whole transaction back, whatever the writer checked before: the guarantee does not
 * depend on each writer thinking of every date its write reaches (a break after midnight reaching the previous
 * day, a time zone moving an instant to another date, a tracking start moving a closed month's balance).
 */
export type DaysTouched = { employeeId: string; from: string; to: string | 'horizon' };

export type DaysOutcome<T> = { result: T; touched: readonly DaysTouched[]; events: readonly PendingEvent[] };

export type DaysTenant = { companyId: string; timezone: string };

export type DaysOptions = {
  /** What the write is, for the 409's text ("a check-in", "this time-zone change"). */
  what: string;
  /** `correction`: an applied correction or the worker's answer, the writes that may change a sealed date. */
  sealed?: 'refuse' | 'correction';
  /**
   * false: the write changes neither a clock record nor a published shift (a holiday), so the legal-limit alerts,
   * which only those decide, are not evaluated again.
   */
  records?: boolean;
  /** Told the sealed dates a `correction` write changed, per employee (each month gets a new version). */
  onSealedChange?: (tx: Executor, employeeId: string, dates: string[]) => Promise<void>;
  /**
   * Told every date whose stored figures the write changed, per touched range, before the events are recorded
   * (an applied correction names them in its event: `affected_dates`). Costs one read of the range's rows.
   */
  onChange?: (employeeId: string, dates: string[]) => void;
};

export async function writeDays<T>(
  deps: Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'sealedDocuments'>>,
  tenant: DaysTenant,
  employees: readonly string[] | 'all',
  work: (tx: Tx, now: Temporal.Instant) => Promise<DaysOutcome<T>>,
  options: DaysOptions,
): Promise<T> {
  return await withSyncStamp(deps.db, deps.clock, tenant.companyId, async (tx, now) => {
    await lockDaysOf(tx, tenant.companyId, employees);
    if (options.sealed === 'correction') {
      // A write that may change a closed month makes its queued documents first: they show the version it ends.
      if (!deps.sealedDocuments || employees === 'all') throw new Error('a sealed write names its workers');
      for (const employeeId of employees) await deps.sealedDocuments.flush(tx, tenant.companyId, employeeId);
    }
    const outcome = await work(tx, now);
    return await settleDays(tx, tenant, now, outcome, options);
  });
}

/** Step 1's locks, for a writer that runs inside a transaction it already holds (a correction's approval). */
export async function lockDaysOf(
  tx: Executor,
  companyId: string,
  employees: readonly string[] | 'all',
): Promise<void> {
  if (employees === 'all') await lockEmployees(tx, companyId);
  else await lockEmployeeRows(tx, companyId, [...new Set(employees)].sort());
}

/** Steps 3 and 4, for a writer inside a transaction that took step 1's locks (lockDaysOf). */
export async function settleDays<T>(
  tx: Executor,
  tenant: DaysTenant,
  now: Temporal.Instant,
  outcome: DaysOutcome<T>,
  options: DaysOptions,
): Promise<T> {
  const at = toDate(now);
  const alerts: PendingEvent[] = [];
  for (const touched of joinedRanges(outcome.touched)) {
    const changed = await consolidate(
      tx,
      tenant.companyId,
      tenant.timezone,
      touched.employeeId,
      touched,
      at,
      options,
    );
    if (changed.sealed.length > 0) await options.onSealedChange?.(tx, touched.employeeId, changed.sealed);
    if (changed.all) options.onChange?.(touched.employeeId, changed.all);
    if (options.records !== false) alerts.push(...(await refreshComplianceAlerts(tx, tenant, touched, now)));
  }
  await recordEvents(tx, tenant.companyId, at, [...outcome.events, ...alerts]);
  return outcome.result;
}

/**
 * The touched ranges with each employee's overlapping or adjacent ones joined, so that a write of many punches
 * (a device's queue, a worker's month) recomputes and checks each stretch of days once instead of once per punch.
 * Ranges with days between them stay apart: a day no write reached is never recomputed (its stored figures, which
 * a closed month may hold, are not the write's business).
 */
export function joinedRanges(touched: readonly DaysTouched[]): DaysTouched[] {
  const byEmployee = Map.groupBy(touched, (range) => range.employeeId);
  const joined: DaysTouched[] = [];
  for (const ranges of byEmployee.values()) {
    const sorted = [...ranges].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
    let current: DaysTouched | undefined;
    for (const range of sorted) {
      if (current !== undefined && reaches(current.to, range.from)) {
        current = { ...current, to: later(current.to, range.to) };
      } else {
        if (current !== undefined) joined.push(current);
        current = { ...range };
      }
    }
    if (current !== undefined) joined.push(current);
  }
  return joined;
}

/** Whether a range ending at `to` overlaps or touches one starting at `from`. */
function reaches(to: string | 'horizon', from: string): boolean {
  return to === 'horizon' || Temporal.PlainDate.from(to).add({ days: 1 }).toString() >= from;
}

function later(a: string | 'horizon', b: string | 'horizon'): string | 'horizon' {
  return a === 'horizon' || b === 'horizon' ? 'horizon' : a > b ? a : b;
}

/**
 * Extends an employee's materialised calendar into dates ahead (the maintenance job's horizon): only dates after
 * the employee's consolidated days, which no closed month holds, so nothing sealed can change.
 */
export async function extendCalendar(
  tx: Executor,
  employee: { company_id: string; id: string; timezone: string },
  range: { from: string; to: string },
  at: Date,
): Promise<void> {
  await consolidate(tx, employee.company_id, employee.timezone, employee.id, range, at);
}
