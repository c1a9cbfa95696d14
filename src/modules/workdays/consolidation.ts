import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { contractOf, effectiveTrackingStart } from '../../db/employees.ts';
import type { WorkdaysTable } from '../../db/schema.ts';
import { zonesOf } from '../../db/time-zones.ts';
import { addDays, eachDate } from '../../time/calendar.ts';
import { contractMinutes, periodOn } from '../../time/contract.ts';
import {
  activityByDate,
  BEGINNING_OF_TIME,
  type ClockEvent,
  conflictDates,
  type DayCalendar,
  expectedMinutes,
  localDateOf,
  MAX_SHIFT_SECONDS,
  type RecordedEvent,
  workday,
} from '../../time/engine.ts';
import { shiftInstants } from '../../time/planned-shifts.ts';
import { startOfDate, type Zones, zoneAt } from '../../time/zones.ts';
import { closedMonthConflict, sealedThrough, sealingMonth } from '../registry/months.service.ts';
import {
  approvedAbsenceSpans,
  clearExpectedOn,
  compensationPeriods,
  type DateRange,
  fillOnCallMinutes,
  findClockEvents,
  findHolidayDates,
  forceMajeureDates,
  type HolidayAudience,
  lockEmployeeCalendar,
  publishedShiftMinutes,
  publishedShiftTimes,
  refreshMonths,
  replaceWorkdays,
  setConsolidatedThrough,
  storedWorkdays,
  unsettledOnCallDates,
  WORKDAY_FIGURES,
} from './workdays.repo.ts';

export type { DateRange } from './workdays.repo.ts';

/** Calendar days are materialised through the end of the year after the consolidation's "now". */
export function horizon(now: Temporal.Instant, timeZone: Zones): string {
  return `${now.toZonedDateTimeISO(zoneAt(timeZone, now)).year + 1}-12-31`;
}

/** The dates whose figures a check-in at `at` can change: shifts it can join start at most 24 hours apart. */
export function datesAround(at: Temporal.Instant, timeZone: Zones): DateRange {
  return {
    from: localDateOf(at.subtract({ seconds: MAX_SHIFT_SECONDS }), timeZone),
    to: localDateOf(at.add({ seconds: MAX_SHIFT_SECONDS }), timeZone),
  };
}

/**
 * The check-ins of an employee between two instants that count for the registry, in order: every active one,
 * but under worker_consent a record the worker did not make counts only once they accept it.
 */
export async function countedEvents(
  db: Executor,
  companyId: string,
  employeeId: string,
  policy: string,
  window: { from: Date; to: Date },
): Promise<RecordedEvent[]> {
  const consent = policy === 'worker_consent';
  const counted: RecordedEvent[] = [];
  for (const row of await findClockEvents(db, companyId, employeeId, window.from, window.to)) {
    if (consent && !row.own && row.response !== 'accepted') continue;
    counted.push({
      type: row.type,
      at: Temporal.Instant.fromEpochMilliseconds(row.timestamp.getTime()),
      own: row.own,
      disputed: row.response === 'rejected',
      remote: row.work_mode === 'remote',
    });
  }
  return counted;
}

/**
 * The workdays of an employee's date range as the source rows give them now (check-ins, holidays, approved
 * absences, the contract and the employment), without storing them: what consolidation stores, and what
 * verification compares the stored figures with. Null for an unknown employee or an empty range.
 */
export async function computeWorkdays(
  tx: Executor,
  companyId: string,
  companyTimeZone: string,
  employeeId: string,
  dates: { from: string; to: string | 'horizon' },
  now: Date,
  options: { lock: boolean },
) {
  const employee = await lockEmployeeCalendar(tx, companyId, employeeId, options);
  if (!employee) return null;
  // The zones of the employee's dates: effective-dated (docs/time-rules.md), one zone until a change is recorded.
  const zone = await zonesOf(tx, companyId, { id: employeeId, timezone: employee.timezone }, companyTimeZone);
  const trackingStart = effectiveTrackingStart(employee);
  const contract = await contractOf(tx, companyId, employeeId);
  const range: DateRange = {
    from: dates.from,
    to: dates.to === 'horizon' ? horizonOf(employee, zone, now) : dates.to,
  };
  if (range.to < range.from) return null;

  // Shifts that touch the range start at most 24 hours before it and end at most 24 hours after it.
  const windowStart = startOfDate(range.from, zone).subtract({ seconds: MAX_SHIFT_SECONDS });
  const windowEnd = startOfDate(Temporal.PlainDate.from(range.to).add({ days: 1 }).toString(), zone).add({
    seconds: MAX_SHIFT_SECONDS,
  });
  const counted = await countedEvents(tx, companyId, employeeId, employee.registry_policy, {
    from: new Date(windowStart.epochMilliseconds),
    to: new Date(windowEnd.epochMilliseconds),
  });
  const events: ClockEvent[] = counted.map(({ type, at }) => ({ type, at }));
  const conflicts = conflictDates(counted, zone);
  // Published on-call shifts that clock shifts of the range can reach (a clock shift lasts at most 24 hours): the
  // minutes worked within them are reported apart (issue 38, docs/time-rules.md "On-call shifts").
  const onCall = (
    await publishedShiftTimes(
      tx,
      companyId,
      employeeId,
      { from: addDays(range.from, -2), to: addDays(range.to, 2) },
      'on_call',
    )
  ).map((shift) => {
    const instants = shiftInstants({ date: shift.date, start: shift.start_time, end: shift.end_time }, zone);
    return { start: instants.startsAt, end: instants.endsAt };
  });
  const activity = activityByDate(events, zone, BEGINNING_OF_TIME, onCall);
  const checkInsByDate = new Map<string, number>();
  for (const event of events) {
    const date = localDateOf(event.at, zone);
    checkInsByDate.set(date, (checkInsByDate.get(date) ?? 0) + 1);
  }

  const holidays = new Set(await findHolidayDates(tx, companyId, range.from, range.to, employee.location_id));
  const absences = await approvedAbsenceSpans(tx, companyId, employeeId, range);
  const planned = await publishedShiftMinutes(tx, companyId, employeeId, range);
  const compensations = await compensationPeriods(tx, companyId);
  const forceMajeure = await forceMajeureDates(tx, companyId, employeeId, range);
  // The company's compensation on a date: its period's, else time off (the default before any choice).
  const companyCompensation = (date: string) =>
    compensations.findLast((item) => item.effective_from <= date)?.compensation ?? 'time_off';

  const rows: Array<Insertable<WorkdaysTable>> = [];
  for (const plainDate of eachDate(range.from, range.to)) {
    const date = plainDate.toString();
    const period = periodOn(contract, date);
    const covering = absences.find((absence) => absence.start_date <= date && absence.end_date >= date);
    const calendar: DayCalendar = {
      scheduledMinutes: contractMinutes(contract, plainDate),
      partTime: period.contract_type === 'part_time',
      plannedMinutes: planned.get(date) ?? null,
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
      on_call_minutes: figures.onCallMinutes,
      expected_minutes: figures.expectedMinutes,
      absences_minutes: figures.absencesMinutes,
      anomalies: figures.anomalies,
      check_ins: checkInCount,
      tracked: date >= trackingStart,
      incomplete_shifts: day?.incompleteShifts ?? 0,
      open_since: day?.openSince ? new Date(day.openSince.epochMilliseconds) : null,
      conflict: conflicts.has(date),
      part_time: calendar.partTime === true,
      holiday: calendar.holiday,
      force_majeure: figures.overtimeMinutes > 0 && forceMajeure.has(date),
      // A day with overtime remembers its compensation: the contract period's, or the company's on the date
      // (docs/time-rules.md, "Overtime").
      overtime_paid:
        figures.overtimeMinutes > 0 && (period.overtime_compensation ?? companyCompensation(date)) === 'paid',
      consolidated_at: now,
    });
  }

  return { employee, range, rows };
}

/**
 * Recomputes one employee's workdays for a date range from the source rows (check-ins, holidays, approved
 * absences, the employee's schedule and employment) and replaces the stored rows of that range. Idempotent: the
 * result depends only on the source rows. Locks the employee row, so concurrent consolidations of one employee
 * run one after the other and the last one sees every committed check-in.
 *
 * A sealed date (in a closed month, or before one: docs/registry.md) keeps its stored figures: when the
 * recomputation would change one, the write is refused (409 naming the closed month) and its transaction rolls
 * back, whatever the writer checked before. Only an applied correction or the worker's answer
 * (`sealed: 'correction'`) may change them; the sealed dates they changed are returned (each one's month gets a
 * new version).
 * This is the guarantee by construction: every writer of an employee's days ends here.
 */
export async function consolidate(
  tx: Executor,
  companyId: string,
  companyTimeZone: string,
  employeeId: string,
  dates: { from: string; to: string | 'horizon' },
  now: Date,
  options: {
    sealed?: 'refuse' | 'correction';
    what?: string;
    /** Present when the writer wants every changed date (write-days.ts, DaysOptions.onChange). */
    onChange?: ((employeeId: string, dates: string[]) => void) | undefined;
  } = {},
): Promise<{ sealed: string[]; all?: string[] }> {
  const computed = await computeWorkdays(tx, companyId, companyTimeZone, employeeId, dates, now, {
    lock: true,
  });
  if (!computed) return { sealed: [] };
  const { employee, range, rows } = computed;
  const changed = await sealedDatesChanged(tx, companyId, employeeId, range, rows);
  const [first] = changed;
  if (first !== undefined && (options.sealed ?? 'refuse') === 'refuse') {
    const month = (await sealingMonth(tx, companyId, first)) ?? first;
    throw closedMonthConflict(month, options.what ?? 'this change');
  }
  // Every changed date, when the writer asks for them (write-days.ts, onChange): before the rows are replaced.
  const all = options.onChange
    ? (await differingDates(tx, companyId, employeeId, range, rows)).map((day) => day.date)
    : undefined;
  await replaceWorkdays(tx, companyId, employeeId, range, rows);
  await refreshMonths(tx, companyId, employeeId, range);
  if (employee.consolidated_through === null || employee.consolidated_through < range.to) {
    await setConsolidatedThrough(tx, companyId, employeeId, range.to);
  }
  return all === undefined ? { sealed: changed } : { sealed: changed, all };
}

/**
 * Fills, from the facts, the on-call figure of an employee's days stored before migration 0050 that could have one
 * (docs/registry.md, "Figures added after a month closed"): a figure the day did not have when its month closed,
 * so filling it changes no sealed figure; every other figure of the day stays as stored (verification still
 * compares them). Returns how many days it settled.
 */
export async function settleOnCallFigures(
  tx: Executor,
  companyId: string,
  companyTimeZone: string,
  employeeId: string,
  now: Date,
): Promise<number> {
  if (!(await lockEmployeeCalendar(tx, companyId, employeeId))) return 0;
  const dates = await unsettledOnCallDates(tx, companyId, employeeId);
  const [from] = dates;
  const to = dates.at(-1);
  if (from === undefined || to === undefined) return 0;
  const computed = await computeWorkdays(tx, companyId, companyTimeZone, employeeId, { from, to }, now, {
    lock: false,
  });
  const minutes = new Map(
    (computed?.rows ?? []).map((row) => [row.date as string, row.on_call_minutes ?? 0]),
  );
  await fillOnCallMinutes(
    tx,
    companyId,
    employeeId,
    dates.map((date) => ({ date, minutes: minutes.get(date) ?? 0 })),
  );
  await refreshMonths(tx, companyId, employeeId, { from, to });
  return dates.length;
}

const figuresText = (row: Record<string, unknown>) =>
  JSON.stringify(
    WORKDAY_FIGURES.map((column) => {
      const value = row[column];
      return value instanceof Date ? value.getTime() : (value ?? null);
    }),
  );

/** The dates of a range whose stored figures differ from `rows` (a missing row differs from a present one). */
async function differingDates(
  tx: Executor,
  companyId: string,
  employeeId: string,
  range: DateRange,
  rows: ReadonlyArray<Insertable<WorkdaysTable>>,
): Promise<Array<{ date: string; stored: string; computed: string }>> {
  const stored = new Map(
    (await storedWorkdays(tx, companyId, employeeId, range)).map((row) => [row.date, figuresText(row)]),
  );
  const computed = new Map(
    rows
      .filter((row) => row.date >= range.from && row.date <= range.to)
      .map((row) => [row.date as string, figuresText(row)]),
  );
  return [...new Set([...stored.keys(), ...computed.keys()])]
    .filter((date) => stored.get(date) !== computed.get(date))
    .sort()
    .map((date) => ({
      date,
      stored: stored.get(date) ?? 'no row',
      computed: computed.get(date) ?? 'no row',
    }));
}

/**
 * The dates of an employee's range whose stored figures are not what the facts give now (verification: figures
 * edited behind the application's back, or facts removed under them), with both versions as text
 * (`[date, worked, break, night, expected, absences, anomalies, check-ins, tracked, incomplete, open since]`).
 */
export async function storedFiguresDiffering(
  tx: Executor,
  companyId: string,
  companyTimeZone: string,
  employeeId: string,
  range: DateRange,
  now: Date,
): Promise<Array<{ date: string; stored: string; computed: string }>> {
  const computed = await computeWorkdays(tx, companyId, companyTimeZone, employeeId, range, now, {
    lock: false,
  });
  if (!computed) return [];
  return await differingDates(tx, companyId, employeeId, range, computed.rows);
}

/**
 * The sealed dates of the range (in a closed month, or before one) whose stored figures the new ones would change.
 * A day without a row has no figures to keep, and a recomputation that drops a stored row changes it.
 */
async function sealedDatesChanged(
  tx: Executor,
  companyId: string,
  employeeId: string,
  range: DateRange,
  rows: ReadonlyArray<Insertable<WorkdaysTable>>,
): Promise<string[]> {
  const through = await sealedThrough(tx, companyId);
  if (through === undefined || range.from > through) return [];
  const sealed = { from: range.from, to: range.to < through ? range.to : through };
  return (await differingDates(tx, companyId, employeeId, sealed, rows)).map((day) => day.date);
}

/** 'horizon': through the materialised horizon, or the employee's later consolidated_through. */
function horizonOf(employee: { consolidated_through: string | null }, zone: Zones, now: Date): string {
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
  holiday: HolidayAudience & { date: string },
  now: Date,
): Promise<void> {
  const { date } = holiday;
  await clearExpectedOn(tx, companyId, date, holiday, now);
  await refreshMonths(tx, companyId, null, { from: date, to: date });
}

export { refreshMonths } from './workdays.repo.ts';
