import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { contractOf, effectiveTrackingStart } from '../../db/employees.ts';
import type { WorkdaysTable } from '../../db/schema.ts';
import { eachDate } from '../../time/calendar.ts';
import { contractMinutes } from '../../time/contract.ts';
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
import {
  approvedAbsenceSpans,
  clearExpectedOn,
  type DateRange,
  findClockEvents,
  findHolidayDates,
  lockEmployeeCalendar,
  refreshMonths,
  replaceWorkdays,
  setConsolidatedThrough,
} from './workdays.repo.ts';

export type { DateRange } from './workdays.repo.ts';

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
  const employee = await lockEmployeeCalendar(tx, companyId, employeeId);
  if (!employee) return;
  const zone = employeeTimeZone(employee, companyTimeZone);
  const trackingStart = effectiveTrackingStart(employee);
  const contract = await contractOf(tx, companyId, employeeId);
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
  const checkIns = await findClockEvents(
    tx,
    companyId,
    employeeId,
    new Date(windowStart.epochMilliseconds),
    new Date(windowEnd.epochMilliseconds),
  );
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

  const holidays = new Set(await findHolidayDates(tx, companyId, range.from, range.to, employee.location_id));
  const absences = await approvedAbsenceSpans(tx, companyId, employeeId, range);

  const rows: Array<Insertable<WorkdaysTable>> = [];
  for (const plainDate of eachDate(range.from, range.to)) {
    const date = plainDate.toString();
    const covering = absences.find((absence) => absence.start_date <= date && absence.end_date >= date);
    const calendar: DayCalendar = {
      scheduledMinutes: contractMinutes(contract, plainDate),
      holiday: holidays.has(date),
      employed:
        date >= employee.hire_date &&
        (employee.termination_date === null || date <= employee.termination_date),
      tracked: date >= trackingStart,
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
      tracked: date >= trackingStart,
      incomplete_shifts: day?.incompleteShifts ?? 0,
      open_since: day?.openSince ? new Date(day.openSince.epochMilliseconds) : null,
      consolidated_at: now,
    });
  }

  await replaceWorkdays(tx, companyId, employeeId, range, rows);
  await refreshMonths(tx, companyId, employeeId, range);
  if (employee.consolidated_through === null || employee.consolidated_through < range.to) {
    await setConsolidatedThrough(tx, companyId, employeeId, range.to);
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
export async function applyHoliday(
  tx: Executor,
  companyId: string,
  holiday: { date: string; location_id: string | null },
  now: Date,
): Promise<void> {
  const { date } = holiday;
  await clearExpectedOn(tx, companyId, date, holiday.location_id, now);
  await refreshMonths(tx, companyId, null, { from: date, to: date });
}

export { refreshMonths } from './workdays.repo.ts';
