import { sql } from 'kysely';
import { toInstant } from '../time/clock.ts';
import {
  isMissedClockOut,
  MISSED_AFTER_PLANNED_END_SECONDS,
  MISSED_CLOCK_OUT_SECONDS,
} from '../time/engine.ts';
import type { Executor } from './database.ts';

/** How far back the Today view and the portal look for an open shift: the last two weeks. */
export const OPEN_SHIFT_DAYS = 14;

/**
 * A shift open since this instant or before is a probable missed clock-out (src/time/engine.ts), as the readers'
 * SQL compares it with `workdays.open_since`: the work summaries and the Today view's problem days.
 */
export const missedClockOutBefore = (now: Date) => new Date(now.getTime() - MISSED_CLOCK_OUT_SECONDS * 1000);

/**
 * Whether the workday row (`alias`, or the bare table) holds a probable missed clock-out at `now`, as
 * isMissedClockOut says (src/time/engine.ts): a shift open 16 hours, or 4 hours past the end of a published work
 * shift of its day that it started before. The readers' one rule: the work summaries and the Today view.
 */
export function missedClockOutSql(alias: string | null, now: Date) {
  const column = (name: string) => sql.ref(alias === null ? name : `${alias}.${name}`);
  const plannedEndBefore = new Date(now.getTime() - MISSED_AFTER_PLANNED_END_SECONDS * 1000);
  return sql<boolean>`(${column('open_since')} is not null and (
    ${column('open_since')} <= ${missedClockOutBefore(now)}::timestamptz
    or exists (select 1 from shifts s
      where s.company_id = ${column('company_id')} and s.employee_id = ${column('employee_id')}
        and s.date = ${column('date')} and s.status = 'published' and s.kind = 'work'
        and s.ends_at > ${column('open_since')} and s.ends_at <= ${plannedEndBefore}::timestamptz)))`;
}

/**
 * Each employee's open shift: the latest stored day with a shift still waiting for its `out` (`workdays.open_since`,
 * its `in`), among the days from `fromDate` (to `toDate`). Read by the dashboard's Today view, the portal and the
 * work summaries (issue 38, missed clock-outs), so here below them. One statement on the (company_id,
 * employee_id, date) key, over the range's days only (no index of its own: this release adds no migration, so
 * that the previous release's nodes stay ready beside it during a rolling upgrade).
 */
export async function openShifts(
  db: Executor,
  companyId: string,
  options: { fromDate: string; toDate?: string; employeeIds?: readonly string[] },
): Promise<Array<{ employee_id: string; date: string; open_since: Date; planned_end: Date | null }>> {
  const { rows } = await sql<{
    employee_id: string;
    date: string;
    open_since: Date;
    planned_end: Date | null;
  }>`
    select distinct on (employee_id) employee_id, date::text as date, open_since,
      -- The end of the day's published work shifts (issue 38): 4 hours past it, an open shift is a missed clock-out.
      (select max(s.ends_at) from shifts s
        where s.company_id = workdays.company_id and s.employee_id = workdays.employee_id and s.date = workdays.date
          and s.status = 'published' and s.kind = 'work') as planned_end
      from workdays
     where company_id = ${companyId} and open_since is not null and date >= ${options.fromDate}
       ${options.toDate === undefined ? sql`` : sql`and date <= ${options.toDate}`}
       ${options.employeeIds === undefined ? sql`` : sql`and employee_id = any(${options.employeeIds}::uuid[])`}
     order by employee_id, date desc`.execute(db);
  return rows;
}

/** Whether an open shift of `openShifts` is a probable missed clock-out at `now` (isMissedClockOut). */
export const isMissedOpenShift = (
  row: { open_since: Date; planned_end: Date | null },
  now: Temporal.Instant,
): boolean =>
  isMissedClockOut(
    toInstant(row.open_since),
    now,
    row.planned_end === null ? null : toInstant(row.planned_end),
  );

/**
 * Every open shift of the live companies from `fromDate` on, across tenants (the missed clock-out notifications,
 * issue 39), with the zone its times are read in. Through the partial index on open shifts (migration 0053),
 * which holds only the few rows whose shift waits for its `out`.
 */
export async function openShiftsEverywhere(db: Executor, fromDate: string) {
  const { rows } = await sql<{
    company_id: string;
    employee_id: string;
    date: string;
    open_since: Date;
    planned_end: Date | null;
    timezone: string;
  }>`
    select w.company_id, w.employee_id, w.date::text as date, w.open_since,
      (select max(s.ends_at) from shifts s
        where s.company_id = w.company_id and s.employee_id = w.employee_id and s.date = w.date
          and s.status = 'published' and s.kind = 'work') as planned_end,
      coalesce(e.timezone, c.timezone) as timezone
      from workdays w
      join companies c on c.id = w.company_id and c.sandbox_of is null
      join employees e on e.company_id = w.company_id and e.id = w.employee_id
     where w.open_since is not null and w.date >= ${fromDate}`.execute(db);
  return rows;
}

/**
 * Whether this transaction is the one node telling of missed clock-outs now: a transaction-level advisory lock,
 * tried without waiting (another node's run covers it), so that two worker nodes never both tell.
 */
export async function claimMissedClockOutRun(tx: Executor): Promise<boolean> {
  const { rows } = await sql<{ claimed: boolean }>`
    select pg_try_advisory_xact_lock(hashtextextended('missed-clock-outs', 0)) as claimed`.execute(tx);
  return rows[0]?.claimed === true;
}
