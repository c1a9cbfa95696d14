/**
 * The legal-limit rules (issue 38, docs/time-rules.md "Legal limits"): an employee's closed shifts in, findings
 * out, one per employee, date and rule. Pure and deterministic, so the rules are property-tested against a slow
 * reference (test/unit/time/compliance.property.test.ts).
 *
 * Shifts belong to the local date of their `in` (a night shift across midnight is one workday, as everywhere in
 * the engine). Work is a shift's span less its breaks. Every instant and date is read in the employee's zone.
 */
import {
  BEGINNING_OF_TIME,
  type ClockEvent,
  type Interval,
  interpretShifts,
  type Shift,
  shiftSeconds,
} from './engine.ts';
import { localDate, type Zones, zoneOn } from './zones.ts';

export type ComplianceRule =
  | 'daily_hours'
  | 'rest_between_workdays'
  | 'continuous_work_without_break'
  | 'weekly_rest'
  | 'night_work_average'
  | 'outside_schedule'
  | 'complementary_limit'
  | 'overtime_yearly_warning'
  | 'overtime_yearly_cap';

export type ComplianceFinding = {
  /** The workday concerned; for weekly_rest, the Sunday that ends the week. */
  date: string;
  rule: ComplianceRule;
  /** The measure that broke the limit, in minutes (worked, rested, continuous, longest rest, average). */
  minutes: number;
  /** The limit, in minutes. */
  limit: number;
  /** The article of the Estatuto de los Trabajadores. */
  law: string;
};

/** The limits, in minutes, and where they come from (docs/time-rules.md). */
export const LIMITS = {
  /** ET 34.3: no more than nine ordinary hours of effective work a day (unless a collective agreement says). */
  dailyMinutes: 9 * 60,
  /** ET 34.3: at least twelve hours between the end of a workday and the start of the next. */
  restBetweenWorkdays: 12 * 60,
  /** ET 34.4: a break of at least fifteen minutes when continuous work exceeds six hours. */
  continuousWork: 6 * 60,
  minimumBreak: 15,
  /** ET 37.1: a day and a half of uninterrupted rest a week. */
  weeklyRest: 36 * 60,
  /** ET 36.1: a night worker averages no more than eight hours a day over fifteen days. */
  nightAverage: 8 * 60,
  /** ET 36.1: a night worker works at least three hours of the day's work at night (22:00–06:00). */
  nightWorkerNightMinutes: 3 * 60,
  nightReferenceDays: 15,
  /** Remote work outside the day's published shifts beyond this is flagged (the right to disconnect). */
  outsideSchedule: 15,
} as const;

export const LAW: Record<ComplianceRule, string> = {
  daily_hours: 'ET art. 34.3',
  rest_between_workdays: 'ET art. 34.3',
  continuous_work_without_break: 'ET art. 34.4',
  weekly_rest: 'ET art. 37.1',
  night_work_average: 'ET art. 36.1',
  outside_schedule: 'LOPDGDD art. 88',
  complementary_limit: 'ET art. 12.5',
  overtime_yearly_warning: 'ET art. 35.2',
  overtime_yearly_cap: 'ET art. 35.2',
};

/** ET 35.2: at most eighty hours of overtime a year; a warning when seventy are reached. */
export const OVERTIME_YEARLY = { warning: 70 * 60, cap: 80 * 60 } as const;

/** A closed shift (an `in` and its `out`) with its breaks. */
export type ClosedShift = Pick<Shift, 'start' | 'breaks'> & { end: Temporal.Instant };

/** A local date's shifts, their work intervals in order, and its worked and night minutes. */
type Workday = { date: string; shifts: ClosedShift[]; intervals: Interval[]; worked: number; night: number };

const minutesBetween = (from: Temporal.Instant, to: Temporal.Instant) => to.since(from).total('seconds') / 60;
const compare = Temporal.Instant.compare;

/** The work intervals of a shift: its span less its breaks, in order. */
function workIntervals(shift: ClosedShift): Interval[] {
  const intervals: Interval[] = [];
  let cursor = shift.start;
  for (const pause of [...shift.breaks].sort((a, b) => compare(a.start, b.start))) {
    if (compare(pause.start, cursor) > 0) intervals.push({ start: cursor, end: pause.start });
    if (compare(pause.end, cursor) > 0) cursor = pause.end;
  }
  if (compare(shift.end, cursor) > 0) intervals.push({ start: cursor, end: shift.end });
  return intervals;
}

function workdaysOf(shifts: readonly ClosedShift[], zones: Zones): Workday[] {
  const byDate = new Map<string, Workday>();
  for (const shift of [...shifts].sort((a, b) => compare(a.start, b.start))) {
    const date = localDate(shift.start, zones).toString();
    let day = byDate.get(date);
    if (!day) {
      day = { date, shifts: [], intervals: [], worked: 0, night: 0 };
      byDate.set(date, day);
    }
    const figures = shiftSeconds({ ...shift, status: 'closed' }, zones);
    day.shifts.push(shift);
    day.intervals.push(...workIntervals(shift));
    day.worked += figures.worked / 60;
    day.night += figures.night / 60;
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** The longest stretch of work with no break of fifteen minutes or more, in minutes (short gaps included). */
function longestContinuousWork(day: Workday): number {
  let longest = 0;
  let stretchStart: Temporal.Instant | null = null;
  let stretchEnd: Temporal.Instant | null = null;
  for (const interval of day.intervals) {
    if (
      stretchStart === null ||
      stretchEnd === null ||
      minutesBetween(stretchEnd, interval.start) >= LIMITS.minimumBreak
    ) {
      stretchStart = interval.start;
    }
    stretchEnd = interval.end;
    longest = Math.max(longest, minutesBetween(stretchStart, stretchEnd));
  }
  return longest;
}

/** Monday of the ISO week of a date. */
function mondayOf(date: Temporal.PlainDate): Temporal.PlainDate {
  return date.subtract({ days: date.dayOfWeek - 1 });
}

/**
 * The findings of one employee's closed shifts for the dates `from`..`to` (inclusive). Pass the shifts of the
 * fifteen days before `from` and the day after `to` too: the rest, weekly and night rules look across them.
 */
export function complianceFindings(
  shifts: readonly ClosedShift[],
  zones: Zones,
  range: { from: string; to: string },
): ComplianceFinding[] {
  const inRange = (date: string) => date >= range.from && date <= range.to;
  const findings: ComplianceFinding[] = [];
  const add = (date: string, rule: ComplianceRule, minutes: number, limit: number) =>
    findings.push({ date, rule, minutes: Math.round(minutes), limit, law: LAW[rule] });
  const days = workdaysOf(shifts, zones);

  for (const [index, day] of days.entries()) {
    if (!inRange(day.date)) continue;
    if (day.worked > LIMITS.dailyMinutes) add(day.date, 'daily_hours', day.worked, LIMITS.dailyMinutes);
    const previous = days[index - 1];
    if (previous) {
      const lastEnd = previous.shifts.reduce(
        (end, shift) => (compare(shift.end, end) > 0 ? shift.end : end),
        previous.shifts[0]?.end as Temporal.Instant,
      );
      const rest = minutesBetween(lastEnd, day.shifts[0]?.start as Temporal.Instant);
      if (rest < LIMITS.restBetweenWorkdays)
        add(day.date, 'rest_between_workdays', Math.max(0, rest), LIMITS.restBetweenWorkdays);
    }
    const continuous = longestContinuousWork(day);
    if (continuous > LIMITS.continuousWork) {
      add(day.date, 'continuous_work_without_break', continuous, LIMITS.continuousWork);
    }
  }

  // Weekly rest: every week (Monday to Sunday, local) whose Sunday is in the range needs a rest of 36 hours in
  // it; rests are the gaps between work intervals, unbounded before the first and after the last. A rest that
  // starts on Saturday and runs into Monday is that week's; the next week counts it from Monday 00:00 only.
  const intervals = days.flatMap((day) => day.intervals).sort((a, b) => compare(a.start, b.start));
  const rests: Array<{ start: Temporal.Instant | null; end: Temporal.Instant | null }> = [];
  let freeSince: Temporal.Instant | null = null;
  for (const interval of intervals) {
    if (freeSince === null || compare(interval.start, freeSince) > 0)
      rests.push({ start: freeSince, end: interval.start });
    if (freeSince === null || compare(interval.end, freeSince) > 0) freeSince = interval.end;
  }
  rests.push({ start: freeSince, end: null });
  if (intervals.length > 0) {
    for (
      let monday = mondayOf(Temporal.PlainDate.from(range.from));
      Temporal.PlainDate.compare(monday, Temporal.PlainDate.from(range.to)) <= 0;
      monday = monday.add({ days: 7 })
    ) {
      const sunday = monday.add({ days: 6 }).toString();
      if (!inRange(sunday)) continue;
      const weekStart = monday.toZonedDateTime({ timeZone: zoneOn(zones, monday.toString()) }).toInstant();
      const next = monday.add({ days: 7 });
      const weekEnd = next.toZonedDateTime({ timeZone: zoneOn(zones, next.toString()) }).toInstant();
      let longest = 0;
      for (const rest of rests) {
        if (rest.start !== null && compare(rest.start, weekEnd) >= 0) continue;
        if (rest.end !== null && compare(rest.end, weekStart) <= 0) continue;
        // A rest that starts in the week counts whole (it may run on into the next); one that started before
        // counts from Monday 00:00 only, so that one weekend never covers two weeks.
        const from = rest.start === null || compare(rest.start, weekStart) < 0 ? weekStart : rest.start;
        longest =
          rest.end === null ? Number.POSITIVE_INFINITY : Math.max(longest, minutesBetween(from, rest.end));
      }
      if (longest < LIMITS.weeklyRest) add(sunday, 'weekly_rest', longest, LIMITS.weeklyRest);
    }
  }

  // Night work: on a date whose fifteen days (it and the fourteen before) are mostly night workdays (three hours
  // or more at night), the average work of those workdays may not exceed eight hours.
  const byDate = new Map(days.map((day) => [day.date, day]));
  for (const day of days) {
    if (!inRange(day.date)) continue;
    const window: Workday[] = [];
    const end = Temporal.PlainDate.from(day.date);
    for (let offset = 0; offset < LIMITS.nightReferenceDays; offset++) {
      const worked = byDate.get(end.subtract({ days: offset }).toString());
      if (worked) window.push(worked);
    }
    const nightDays = window.filter((each) => each.night >= LIMITS.nightWorkerNightMinutes).length;
    if (nightDays * 2 <= window.length) continue;
    const average = window.reduce((sum, each) => sum + each.worked, 0) / window.length;
    if (average > LIMITS.nightAverage) add(day.date, 'night_work_average', average, LIMITS.nightAverage);
  }
  return findings.sort((a, b) => a.date.localeCompare(b.date) || a.rule.localeCompare(b.rule));
}

/**
 * The findings of an employee's counted clock events (the engine reads them into shifts; a shift without its
 * `out` is left out, as its day counts no time). Give the events of the fifteen days before `from` too.
 */
export function complianceFindingsOfEvents(
  events: readonly ClockEvent[],
  zones: Zones,
  range: { from: string; to: string },
): ComplianceFinding[] {
  const closed = interpretShifts(events, BEGINNING_OF_TIME).shifts.filter(
    (shift): shift is Shift & { end: Temporal.Instant } => shift.status === 'closed' && shift.end !== null,
  );
  return complianceFindings(closed, zones, range);
}

/**
 * Remote work recorded outside the planned shifts (the right to digital disconnection, Ley Orgánica 3/2018 art. 88;
 * ET art. 20 bis): for each date in the range with published work shifts, the minutes of its remote shifts (those
 * whose `in` was recorded as remote) that fall outside every planned shift of that date, when they pass 15. A date
 * without a planned shift is not judged: without a plan there is no schedule to be outside of.
 */
export function outsideScheduleFindings(
  remoteShifts: readonly ClosedShift[],
  planned: ReadonlyArray<{ date: string; startsAt: Temporal.Instant; endsAt: Temporal.Instant }>,
  zones: Zones,
  range: { from: string; to: string },
): ComplianceFinding[] {
  const findings: ComplianceFinding[] = [];
  for (const day of workdaysOf(remoteShifts, zones)) {
    if (day.date < range.from || day.date > range.to) continue;
    // The date's plan as disjoint intervals (published shifts do not overlap, but the rule does not rely on it).
    const plans: Interval[] = [];
    for (const plan of planned
      .filter((item) => item.date === day.date)
      .sort((a, b) => compare(a.startsAt, b.startsAt))) {
      const last = plans.at(-1);
      if (last && compare(plan.startsAt, last.end) <= 0) {
        if (compare(plan.endsAt, last.end) > 0) last.end = plan.endsAt;
      } else plans.push({ start: plan.startsAt, end: plan.endsAt });
    }
    if (plans.length === 0) continue;
    let outside = 0;
    for (const interval of day.intervals) {
      let inside = 0;
      for (const plan of plans) {
        const start = compare(interval.start, plan.start) > 0 ? interval.start : plan.start;
        const end = compare(interval.end, plan.end) < 0 ? interval.end : plan.end;
        if (compare(end, start) > 0) inside += minutesBetween(start, end);
      }
      outside += minutesBetween(interval.start, interval.end) - inside;
    }
    if (outside > LIMITS.outsideSchedule) {
      findings.push({
        date: day.date,
        rule: 'outside_schedule',
        minutes: Math.round(outside),
        limit: LIMITS.outsideSchedule,
        law: LAW.outside_schedule,
      });
    }
  }
  return findings;
}

/** The remote shifts of an employee's counted events: the closed shifts whose `in` was recorded as remote. */
export function remoteShiftsOfEvents(
  events: ReadonlyArray<ClockEvent & { remote?: boolean }>,
): ClosedShift[] {
  const remoteIns = new Set(
    events.filter((event) => event.type === 'in' && event.remote).map((event) => event.at.epochMilliseconds),
  );
  return interpretShifts(events, BEGINNING_OF_TIME).shifts.filter(
    (shift): shift is Shift & { end: Temporal.Instant } =>
      shift.status === 'closed' && shift.end !== null && remoteIns.has(shift.start.epochMilliseconds),
  );
}

/** A settled day of a part-time contract period, as the complementary limit reads it. */
export type PartTimeDay = {
  date: string;
  /** Minutes worked beyond the day's expected ones (0 until the day is closed). */
  complementary: number;
  /** The day's contracted minutes: its expected minutes before absences (0 on a holiday or a rest day). */
  contracted: number;
  /** The period's agreed limit, % of its contracted minutes; null: ET 12.5.c's 30. */
  limitPercentage: number | null;
};

/**
 * The complementary limit (ET art. 12.5.c): a part-timer's complementary minutes of a calendar month may not pass
 * the agreed share of the month's contracted minutes (each day's contracted minutes times its period's limit, so
 * a change of contract mid-month counts each part at its own terms). The finding is dated on the day the month's
 * running total first passes the limit, with that total. Days of several months may be given together.
 */
export function complementaryLimitFindings(
  days: readonly PartTimeDay[],
  defaultPercentage: number,
): ComplianceFinding[] {
  const findings: ComplianceFinding[] = [];
  const months = new Map<string, PartTimeDay[]>();
  for (const day of days) {
    const month = day.date.slice(0, 7);
    months.set(month, [...(months.get(month) ?? []), day]);
  }
  for (const monthDays of months.values()) {
    const sorted = [...monthDays].sort((a, b) => a.date.localeCompare(b.date));
    // Summed in whole hundredths of a minute, so that no floating-point remainder moves the limit by a minute.
    const hundredths = sorted.reduce(
      (sum, day) => sum + day.contracted * (day.limitPercentage ?? defaultPercentage),
      0,
    );
    const limit = Math.floor(hundredths / 100);
    let total = 0;
    for (const day of sorted) {
      total += day.complementary;
      if (total > limit) {
        findings.push({
          date: day.date,
          rule: 'complementary_limit',
          minutes: total,
          limit,
          law: LAW.complementary_limit,
        });
        break;
      }
    }
  }
  return findings.sort((a, b) => a.date.localeCompare(b.date));
}

/**
 * The yearly overtime cap (ET art. 35.2): the overtime a calendar year counts (paid overtime; overtime compensated
 * with rest does not count) may not pass eighty hours. A warning is dated on the day the year's running total
 * reaches seventy hours, the cap's finding on the day it passes eighty, each with that total. Days of several
 * years may be given together.
 */
export function overtimeCapFindings(
  days: ReadonlyArray<{ date: string; counted: number }>,
): ComplianceFinding[] {
  const findings: ComplianceFinding[] = [];
  const totals = new Map<string, number>();
  const found = new Set<string>();
  for (const day of [...days].sort((a, b) => a.date.localeCompare(b.date))) {
    const year = day.date.slice(0, 4);
    const total = (totals.get(year) ?? 0) + day.counted;
    totals.set(year, total);
    const reached = (rule: ComplianceRule, limit: number, over: boolean) => {
      if (!over || found.has(`${year}|${rule}`)) return;
      found.add(`${year}|${rule}`);
      findings.push({ date: day.date, rule, minutes: total, limit, law: LAW[rule] });
    };
    reached('overtime_yearly_warning', OVERTIME_YEARLY.warning, total >= OVERTIME_YEARLY.warning);
    reached('overtime_yearly_cap', OVERTIME_YEARLY.cap, total > OVERTIME_YEARLY.cap);
  }
  return findings;
}
