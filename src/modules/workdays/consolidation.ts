import { type Insertable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { WorkdaysTable } from '../../db/schema.ts';
import { eachDate, scheduledMinutes } from '../../time/calendar.ts';
import {
  activityByDate,
  BEGINNING_OF_TIME,
  type ClockEvent,
  type DayCalendar,
  expectedMinutes,
  localDateOf,
  MAX_SHIFT_SECONDS,
  workday,
} from '../../time/engine.ts';
import { employeeTimeZone, startOfDate } from '../../time/zones.ts';

export type DateRange = { from: string; to: string };

/** Calendar days are materialised through the end of the year after the consolidation's "now". */
export function horizon(now: Temporal.Instant, timeZone: string): string {
  return `${now.toZonedDateTimeISO(timeZone).year + 1}-12-31`;
}

/** The dates whose figures a check-in at `at` can change: shifts it can join start at most 24 hours apart. */
export function datesAround(at: Temporal.Instant, timeZone: string): DateRange {
  return {
    from: localDateOf(at.subtract({ seconds: MAX_SHIFT_SECONDS }), timeZone),
    to: localDateOf(at.add({ seconds: MAX_SHIFT_SECONDS }), timeZone),
  };
}

/**
 * Recomputes one employee's workdays for a date range from the source rows (check-ins, holidays, approved
 * absences, the employee's schedule and employment) and replaces the stored rows of that range. Idempotent: the
 * result depends only on the source rows. Locks the employee row, so concurrent consolidations of one employee
 * run one after the other and the last one sees every committed check-in.
 */
export async function consolidate(
  tx: Executor,
  companyId: string,
  companyTimeZone: string,
  employeeId: string,
  dates: { from: string; to: string | 'horizon' },
  now: Date,
): Promise<void> {
  const employee = await tx
    .selectFrom('employees')
    .select(['timezone', 'work_schedule', 'hire_date', 'termination_date', 'consolidated_through'])
    .where('company_id', '=', companyId)
    .where('id', '=', employeeId)
    .forUpdate()
    .executeTakeFirst();
  if (!employee) return;
  const zone = employeeTimeZone(employee, companyTimeZone);
  const range: DateRange = {
    from: dates.from,
    to: dates.to === 'horizon' ? horizonOf(employee, zone, now) : dates.to,
  };
  if (range.to < range.from) return;

  // Shifts that touch the range start at most 24 hours before it and end at most 24 hours after it.
  const windowStart = startOfDate(range.from, zone).subtract({ seconds: MAX_SHIFT_SECONDS });
  const windowEnd = startOfDate(Temporal.PlainDate.from(range.to).add({ days: 1 }).toString(), zone).add({
    seconds: MAX_SHIFT_SECONDS,
  });
  const checkIns = await tx
    .selectFrom('check_ins')
    .select(['type', 'timestamp'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('timestamp', '>=', new Date(windowStart.epochMilliseconds))
    .where('timestamp', '<', new Date(windowEnd.epochMilliseconds))
    .execute();
  const events: ClockEvent[] = checkIns.map((row) => ({
    type: row.type,
    at: Temporal.Instant.fromEpochMilliseconds(row.timestamp.getTime()),
  }));
  const activity = activityByDate(events, zone, BEGINNING_OF_TIME);
  const checkInsByDate = new Map<string, number>();
  for (const event of events) {
    const date = localDateOf(event.at, zone);
    checkInsByDate.set(date, (checkInsByDate.get(date) ?? 0) + 1);
  }

  const holidays = new Set(
    (
      await tx
        .selectFrom('holidays')
        .select('date')
        .where('company_id', '=', companyId)
        .where('date', '>=', range.from)
        .where('date', '<=', range.to)
        .execute()
    ).map((row) => row.date),
  );
  const absences = await tx
    .selectFrom('absences')
    .select(['start_date', 'end_date', 'half_day'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'approved')
    .where('start_date', '<=', range.to)
    .where('end_date', '>=', range.from)
    .execute();

  const rows: Array<Insertable<WorkdaysTable>> = [];
  for (const plainDate of eachDate(range.from, range.to)) {
    const date = plainDate.toString();
    const covering = absences.find((absence) => absence.start_date <= date && absence.end_date >= date);
    const calendar: DayCalendar = {
      scheduledMinutes: scheduledMinutes(employee.work_schedule, plainDate),
      holiday: holidays.has(date),
      employed:
        date >= employee.hire_date &&
        (employee.termination_date === null || date <= employee.termination_date),
      absence: covering ? (covering.half_day ? 'half' : 'full') : 'none',
    };
    const day = activity.get(date);
    const checkInCount = checkInsByDate.get(date) ?? 0;
    const { expected, absences: absent } = expectedMinutes(calendar);
    if (expected === 0 && absent === 0 && !day && checkInCount === 0) continue;
    const figures = workday(date, day, calendar, true, checkInCount);
    rows.push({
      company_id: companyId,
      employee_id: employeeId,
      date,
      worked_minutes: figures.workedMinutes,
      break_minutes: figures.breakMinutes,
      night_minutes: figures.nightMinutes,
      expected_minutes: figures.expectedMinutes,
      absences_minutes: figures.absencesMinutes,
      anomalies: figures.anomalies,
      check_ins: checkInCount,
      incomplete_shifts: day?.incompleteShifts ?? 0,
      open_since: day?.openSince ? new Date(day.openSince.epochMilliseconds) : null,
      consolidated_at: now,
    });
  }

  await tx
    .deleteFrom('workdays')
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('date', '>=', range.from)
    .where('date', '<=', range.to)
    .execute();
  for (let index = 0; index < rows.length; index += 1000) {
    await tx
      .insertInto('workdays')
      .values(rows.slice(index, index + 1000))
      .execute();
  }
  await refreshMonths(tx, companyId, employeeId, range);
  if (employee.consolidated_through === null || employee.consolidated_through < range.to) {
    await tx
      .updateTable('employees')
      .set({ consolidated_through: range.to })
      .where('company_id', '=', companyId)
      .where('id', '=', employeeId)
      .execute();
  }
}

/** 'horizon': through the materialised horizon, or the employee's later consolidated_through. */
function horizonOf(employee: { consolidated_through: string | null }, zone: string, now: Date): string {
  const end = horizon(Temporal.Instant.fromEpochMilliseconds(now.getTime()), zone);
  return employee.consolidated_through && employee.consolidated_through > end
    ? employee.consolidated_through
    : end;
}

/**
 * A new company holiday: on that date nobody is expected and no absence removes minutes (the engine's rule), so
 * the change is set-based across the company instead of one consolidation per employee.
 */
export async function applyHoliday(tx: Executor, companyId: string, date: string, now: Date): Promise<void> {
  await tx
    .deleteFrom('workdays')
    .where('company_id', '=', companyId)
    .where('date', '=', date)
    .where('check_ins', '=', 0)
    .execute();
  await tx
    .updateTable('workdays')
    .set({ expected_minutes: 0, absences_minutes: 0, consolidated_at: now })
    .where('company_id', '=', companyId)
    .where('date', '=', date)
    .execute();
  await refreshMonths(tx, companyId, null, { from: date, to: date });
}

const firstOfMonth = (date: string) => `${date.slice(0, 7)}-01`;

/**
 * Recomputes the monthly rollups (workday_months) of the months a date range touches, for one employee or, with
 * null, the whole company. A day counts as closed in a rollup when its stored figures say so (no incomplete
 * shift, no shift without an out); readers use rollups only for months where that equals the read-time rule.
 */
export async function refreshMonths(
  tx: Executor,
  companyId: string,
  employeeId: string | null,
  range: DateRange,
): Promise<void> {
  const from = firstOfMonth(range.from);
  const until = Temporal.PlainDate.from(firstOfMonth(range.to)).add({ months: 1 }).toString();
  let stale = tx
    .deleteFrom('workday_months')
    .where('company_id', '=', companyId)
    .where('month', '>=', from)
    .where('month', '<', until);
  if (employeeId !== null) stale = stale.where('employee_id', '=', employeeId);
  await stale.execute();
  const employee = employeeId === null ? sql`` : sql`and employee_id = ${employeeId}::uuid`;
  const settled = sql`incomplete_shifts = 0 and open_since is null`;
  await sql`
    insert into workday_months (company_id, employee_id, month, worked_minutes, break_minutes, night_minutes,
                                overtime_minutes, expected_minutes, absences_minutes, source_days,
                                incomplete_days, anomalies)
    select company_id, employee_id, date_trunc('month', date)::date,
           coalesce(sum(worked_minutes) filter (where ${settled}), 0),
           coalesce(sum(break_minutes) filter (where ${settled}), 0),
           coalesce(sum(night_minutes) filter (where ${settled}), 0),
           coalesce(sum(greatest(0, worked_minutes - expected_minutes)) filter (where ${settled}), 0),
           coalesce(sum(expected_minutes) filter (where ${settled}), 0),
           coalesce(sum(absences_minutes) filter (where ${settled}), 0),
           count(*) filter (where ${settled}),
           count(*) filter (where not (${settled})),
           sum(anomalies)
    from workdays
    where company_id = ${companyId}::uuid ${employee}
      and date >= ${from}::date and date < ${until}::date
    group by company_id, employee_id, date_trunc('month', date)`.execute(tx);
}
