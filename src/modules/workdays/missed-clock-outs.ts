import type { Tx } from '../../db/database.ts';
import { claimMissedClockOutRun, isMissedOpenShift, openShiftsEverywhere } from '../../db/open-shifts.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { type Clock, toDate, toInstant } from '../../time/clock.ts';
import { approversOf, nameOf, notify } from '../notifications/notifications.service.ts';

/** A worker is told an hour after the end of their published shift (issue 39). */
const WORKER_AFTER_PLANNED_END_HOURS = 1;
/** The approvers are told in the morning, from this hour in the worker's zone. */
const MORNING_HOUR = 8;
/** How far back an open shift is looked for: a few days (older ones are on the Today view). */
const LOOK_BACK_DAYS = 3;

/**
 * Tells of probable missed clock-outs (issue 39, docs/time-rules.md "Missed clock-outs"), a job of the worker role:
 * - the worker, once per open shift: an hour after the end of the published work shift it started in, or, with
 *   no such shift, once the shift is a probable missed clock-out (open 16 hours);
 * - the people who can correct it (owners, admins, the worker's team leads), the next morning from 08:00: one
 *   notification a day listing the workers whose shift of an earlier day is still open.
 * Returns how many notifications it considered.
 */
export async function tellMissedClockOuts(deps: Pick<AppDeps, 'db' | 'clock'>): Promise<number> {
  return await deps.db.transaction().execute(async (db) => {
    if (!(await claimMissedClockOutRun(db))) return 0;
    return await tellUnderClaim(db, deps.clock);
  });
}

async function tellUnderClaim(db: Tx, clock: Clock): Promise<number> {
  const now = clock.now();
  const at = toDate(now);
  const fromDate = now.toZonedDateTimeISO('UTC').toPlainDate().subtract({ days: LOOK_BACK_DAYS }).toString();
  const rows = await openShiftsEverywhere(db, fromDate);
  const morning = new Map<string, { companyId: string; today: string; employees: string[] }>();
  for (const row of rows) {
    const since = toInstant(row.open_since);
    const plannedEnd =
      row.planned_end && row.planned_end > row.open_since ? toInstant(row.planned_end) : null;
    const due =
      plannedEnd !== null
        ? Temporal.Instant.compare(plannedEnd.add({ hours: WORKER_AFTER_PLANNED_END_HOURS }), now) <= 0
        : isMissedOpenShift(row, now);
    if (!due) continue;
    const local = since.toZonedDateTimeISO(row.timezone);
    await notify(db, row.company_id, at, [
      {
        kind: 'missed_clock_out',
        to: [{ type: 'employee', id: row.employee_id }],
        data: {
          date: local.toPlainDate().toString(),
          time: local.toPlainTime().toString({ smallestUnit: 'minute' }),
        },
        screen: 'corrections',
        once: row.open_since.toISOString(),
      },
    ]);
    const here = now.toZonedDateTimeISO(row.timezone);
    if (
      isMissedOpenShift(row, now) &&
      row.date < here.toPlainDate().toString() &&
      here.hour >= MORNING_HOUR
    ) {
      const key = `${row.company_id}|${here.toPlainDate()}`;
      const entry = morning.get(key) ?? {
        companyId: row.company_id,
        today: here.toPlainDate().toString(),
        employees: [],
      };
      entry.employees.push(row.employee_id);
      morning.set(key, entry);
    }
  }
  for (const { companyId, today, employees } of morning.values()) {
    const byApprover = new Map<string, string[]>();
    for (const employeeId of employees) {
      const name = await nameOf(db, companyId, employeeId);
      for (const approver of await approversOf(db, companyId, employeeId)) {
        byApprover.set(approver, [...(byApprover.get(approver) ?? []), name]);
      }
    }
    for (const [approver, names] of byApprover) {
      await notify(db, companyId, at, [
        {
          kind: 'missed_clock_outs',
          to: [{ type: 'admin', id: approver }],
          data: { count: names.length, names: names.sort() },
          screen: 'home',
          once: today,
        },
      ]);
    }
  }
  return rows.length;
}
