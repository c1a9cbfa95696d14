/**
 * The time engine: clock events in, workday figures out. Pure (no I/O, no clock reads), so every rule in
 * docs/time-rules.md is a function of its arguments and can be property-tested.
 *
 * All day boundaries and the night window are local to the employee's time zone, computed with Temporal, so DST
 * days of 23 and 25 hours come out right.
 */
import { localDate, type Zones, zoneOn } from './zones.ts';

export type ClockEventType = 'in' | 'out' | 'break_start' | 'break_end';
export type ClockEvent = { type: ClockEventType; at: Temporal.Instant };

/** A shift still open this long after its `in` is incomplete. */
export const MAX_SHIFT_SECONDS = 24 * 60 * 60;
/**
 * A shift still open this long after its `in` is a probable missed clock-out (issue 38; docs/time-rules.md): the
 * Today view and the portal say so instead of "working since". Nothing closes it: only a correction adds its `out`.
 */
export const MISSED_CLOCK_OUT_SECONDS = 16 * 60 * 60;

/** A shift still open this long after the end of its published shift is a probable missed clock-out (issue 38). */
export const MISSED_AFTER_PLANNED_END_SECONDS = 4 * 60 * 60;

/**
 * Whether a shift open since `openSince` is a probable missed clock-out at `now`: 16 hours after its `in`, or 4
 * hours past the end of the published shift of its day (`plannedEnd`) when it started before that end.
 */
export function isMissedClockOut(
  openSince: Temporal.Instant,
  now: Temporal.Instant,
  plannedEnd: Temporal.Instant | null = null,
): boolean {
  if (now.since(openSince).total('seconds') >= MISSED_CLOCK_OUT_SECONDS) return true;
  return (
    plannedEnd !== null &&
    Temporal.Instant.compare(openSince, plannedEnd) < 0 &&
    now.since(plannedEnd).total('seconds') >= MISSED_AFTER_PLANNED_END_SECONDS
  );
}
/** The night window, local time (Estatuto de los Trabajadores, art. 36): 22:00 to 06:00. */
export const NIGHT_START_HOUR = 22;
export const NIGHT_END_HOUR = 6;

/**
 * Events at the same second are read in this order, so the result never depends on insertion order: a break
 * ends, then a shift ends, then the next shift starts, then a break starts.
 */
const TIE_ORDER: Record<ClockEventType, number> = { break_end: 0, out: 1, in: 2, break_start: 3 };

export function compareEvents(a: ClockEvent, b: ClockEvent): number {
  return Temporal.Instant.compare(a.at, b.at) || TIE_ORDER[a.type] - TIE_ORDER[b.type];
}

export type AnomalyKind =
  | 'out_without_shift'
  | 'break_outside_shift'
  | 'break_start_during_break'
  | 'break_end_without_break'
  | 'out_after_24_hours';

export type Interval = { start: Temporal.Instant; end: Temporal.Instant };

export type Shift = {
  start: Temporal.Instant;
  /** Set when the shift closed with an `out`. */
  end: Temporal.Instant | null;
  breaks: Interval[];
  /**
   * closed: ended by an `out` within 24 hours. incomplete: a new `in` came while it was open, or it had no `out`
   * within 24 hours and `now` is 24 hours or more after its `in`. open: no `out`, and `now` is less than 24 hours
   * after its `in` (always, when read with BEGINNING_OF_TIME).
   */
  status: 'closed' | 'incomplete' | 'open';
};

export type Anomaly = { kind: AnomalyKind; at: Temporal.Instant };

/**
 * Reads one employee's events in order and builds shifts. `now` decides only whether a shift without an `out`
 * is still open (less than 24 hours) or incomplete.
 */
export function interpretShifts(
  events: readonly ClockEvent[],
  now: Temporal.Instant,
): { shifts: Shift[]; anomalies: Anomaly[] } {
  const sorted = [...events].sort(compareEvents);
  const shifts: Shift[] = [];
  const anomalies: Anomaly[] = [];
  let open: { start: Temporal.Instant; breaks: Interval[]; breakStart: Temporal.Instant | null } | null =
    null;

  const expired = (shift: { start: Temporal.Instant }, at: Temporal.Instant) =>
    at.since(shift.start).total('seconds') >= MAX_SHIFT_SECONDS;
  // A shift with no out is incomplete once 24 hours have passed, judged against `now` whether or not later
  // events exist, so the result is the same in every insertion order (the stored table relies on this).
  const endWithoutOut = (superseded: boolean) => {
    if (open) {
      const status = superseded || expired(open, now) ? 'incomplete' : 'open';
      shifts.push({ start: open.start, end: null, breaks: open.breaks, status });
    }
    open = null;
  };

  for (const event of sorted) {
    if (open && expired(open, event.at)) {
      endWithoutOut(false);
      if (event.type === 'out') {
        anomalies.push({ kind: 'out_after_24_hours', at: event.at });
        continue;
      }
    }
    switch (event.type) {
      case 'in':
        endWithoutOut(true);
        open = { start: event.at, breaks: [], breakStart: null };
        break;
      case 'out':
        if (!open) {
          anomalies.push({ kind: 'out_without_shift', at: event.at });
          break;
        }
        if (open.breakStart) open.breaks.push({ start: open.breakStart, end: event.at });
        shifts.push({ start: open.start, end: event.at, breaks: open.breaks, status: 'closed' });
        open = null;
        break;
      case 'break_start':
        if (!open) anomalies.push({ kind: 'break_outside_shift', at: event.at });
        else if (open.breakStart) anomalies.push({ kind: 'break_start_during_break', at: event.at });
        else open.breakStart = event.at;
        break;
      case 'break_end':
        if (!open) anomalies.push({ kind: 'break_outside_shift', at: event.at });
        else if (!open.breakStart) anomalies.push({ kind: 'break_end_without_break', at: event.at });
        else {
          open.breaks.push({ start: open.breakStart, end: event.at });
          open.breakStart = null;
        }
        break;
    }
  }
  endWithoutOut(false);
  return { shifts, anomalies };
}

function seconds(interval: Interval): number {
  return interval.end.since(interval.start).total('seconds');
}

function overlapSeconds(a: Interval, b: Interval): number {
  const start = Temporal.Instant.compare(a.start, b.start) >= 0 ? a.start : b.start;
  const end = Temporal.Instant.compare(a.end, b.end) <= 0 ? a.end : b.end;
  return Temporal.Instant.compare(end, start) > 0 ? end.since(start).total('seconds') : 0;
}

/** The night windows (22:00–06:00 local) that can touch an interval. */
function nightWindows(interval: Interval, zones: Zones): Interval[] {
  const first = localDate(interval.start, zones).subtract({ days: 1 });
  const last = localDate(interval.end, zones);
  const windows: Interval[] = [];
  for (let day = first; Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) {
    // Each night is in the zone of the date it starts on.
    const timeZone = zoneOn(zones, day.toString());
    const start = day.toZonedDateTime({ timeZone, plainTime: { hour: NIGHT_START_HOUR } }).toInstant();
    const end = day
      .add({ days: 1 })
      .toZonedDateTime({ timeZone, plainTime: { hour: NIGHT_END_HOUR } })
      .toInstant();
    windows.push({ start, end });
  }
  return windows;
}

/** The seconds worked (the span less its breaks) within windows that do not overlap one another. */
function workedWithin(whole: Interval, breaks: readonly Interval[], windows: readonly Interval[]): number {
  let within = 0;
  for (const window of windows) {
    within += overlapSeconds(whole, window);
    for (const pause of breaks) within -= overlapSeconds(pause, window);
  }
  return within;
}

/**
 * The seconds of a closed shift: span, breaks, worked (span minus breaks), worked at night, and worked within
 * the employee's published on-call shifts (`onCall`, which never overlap one another: issue 38).
 */
export function shiftSeconds(
  shift: Shift,
  timeZone: Zones,
  onCall: readonly Interval[] = [],
): { span: number; breaks: number; worked: number; night: number; onCall: number } {
  if (!shift.end) throw new Error('only a closed shift has figures');
  const span = seconds({ start: shift.start, end: shift.end });
  const breaks = shift.breaks.reduce((sum, interval) => sum + seconds(interval), 0);
  const whole = { start: shift.start, end: shift.end };
  return {
    span,
    breaks,
    worked: span - breaks,
    night: workedWithin(whole, shift.breaks, nightWindows(whole, timeZone)),
    onCall: workedWithin(whole, shift.breaks, onCall),
  };
}

/** What one local date's shifts add up to, before the calendar (schedule, holidays, absences) is applied. */
export type DayActivity = {
  date: string;
  workedSeconds: number;
  breakSeconds: number;
  nightSeconds: number;
  /** Worked within published on-call shifts (availability that became work: reported apart, issue 38). */
  onCallSeconds: number;
  /** Shifts owned by the date (their `in` is on it). */
  shifts: number;
  incompleteShifts: number;
  openShifts: number;
  /** The start of the date's open shift (no out yet), if any. */
  openSince: Temporal.Instant | null;
  anomalies: number;
};

const emptyActivity = (date: string): DayActivity => ({
  date,
  workedSeconds: 0,
  breakSeconds: 0,
  nightSeconds: 0,
  onCallSeconds: 0,
  shifts: 0,
  incompleteShifts: 0,
  openShifts: 0,
  openSince: null,
  anomalies: 0,
});

/** The local date of an instant, as 'YYYY-MM-DD'. */
export function localDateOf(instant: Temporal.Instant, timeZone: Zones): string {
  return localDate(instant, timeZone).toString();
}

/**
 * Groups an employee's shifts and anomalies by local date: a shift belongs to the date of its `in` (a night
 * shift across midnight belongs to the day it started); an anomaly to the date of its event.
 */
export function activityByDate(
  events: readonly ClockEvent[],
  timeZone: Zones,
  now: Temporal.Instant,
  onCall: readonly Interval[] = [],
): Map<string, DayActivity> {
  const { shifts, anomalies } = interpretShifts(events, now);
  const days = new Map<string, DayActivity>();
  const day = (date: string) => {
    let activity = days.get(date);
    if (!activity) {
      activity = emptyActivity(date);
      days.set(date, activity);
    }
    return activity;
  };
  for (const shift of shifts) {
    const activity = day(localDateOf(shift.start, timeZone));
    activity.shifts += 1;
    if (shift.status === 'incomplete') activity.incompleteShifts += 1;
    else if (shift.status === 'open') {
      activity.openShifts += 1;
      activity.openSince = shift.start;
    } else {
      const figures = shiftSeconds(shift, timeZone, onCall);
      activity.workedSeconds += figures.worked;
      activity.breakSeconds += figures.breaks;
      activity.nightSeconds += figures.night;
      activity.onCallSeconds += figures.onCall;
    }
  }
  for (const anomaly of anomalies) day(localDateOf(anomaly.at, timeZone)).anomalies += 1;
  return days;
}

/**
 * An instant before any event: read with it, a trailing shift without an `out` is always `open` (never expired),
 * so stored figures do not depend on when they were computed. Expiry is applied when reading.
 */
export const BEGINNING_OF_TIME = Temporal.Instant.fromEpochMilliseconds(-8_640_000_000_000_000);

/** The calendar facts of one employee's date. */
export type DayCalendar = {
  /** work_schedule minutes for the date's weekday. */
  scheduledMinutes: number;
  /**
   * The work minutes of the date's published shifts (issue 38), which replace the weekly schedule's; null or
   * absent: the date has no published shift. A published shift on a holiday is a worked holiday: it is expected.
   */
  plannedMinutes?: number | null;
  holiday: boolean;
  /** Between hire_date and termination_date, inclusive. */
  employed: boolean;
  /** On or after the employee's tracking start: before it nothing is expected (docs/registry.md). */
  tracked: boolean;
  /** An approved absence covering the date: a whole day, or a half day. */
  absence: 'none' | 'full' | 'half';
  /**
   * Under a part-time contract period (ET art. 12): minutes beyond the day's expected ones are complementary
   * (ET 12.5), never overtime, which a part-timer may not work (ET 12.4.c).
   */
  partTime?: boolean;
};

export type WorkdayStatus = 'closed' | 'incomplete' | 'pending';

/** One employee's local date, as stored in the workdays table and summed by the summaries. */
export type Workday = {
  date: string;
  status: WorkdayStatus;
  workedMinutes: number;
  breakMinutes: number;
  nightMinutes: number;
  /** Worked within published on-call shifts: part of workedMinutes, reported apart. */
  onCallMinutes: number;
  expectedMinutes: number;
  absencesMinutes: number;
  overtimeMinutes: number;
  complementaryMinutes: number;
  balanceMinutes: number;
  anomalies: number;
  checkIns: number;
};

/** expected and absences minutes of a date, from its calendar alone. */
export function expectedMinutes(calendar: DayCalendar): { expected: number; absences: number } {
  const planned = calendar.plannedMinutes ?? null;
  const off = (calendar.holiday && planned === null) || !calendar.employed || !calendar.tracked;
  const base = off ? 0 : (planned ?? calendar.scheduledMinutes);
  const expected =
    calendar.absence === 'full' ? 0 : calendar.absence === 'half' ? Math.floor(base / 2) : base;
  return { expected, absences: base - expected };
}

/**
 * The figures of one date. `isPast` is true when the date is before the employee's local today. A date with an
 * incomplete shift is incomplete and contributes no minutes; a date with an open shift, or not yet past, is
 * pending. Minutes are floored once per day from seconds.
 */
export function workday(
  date: string,
  activity: DayActivity | undefined,
  calendar: DayCalendar,
  isPast: boolean,
  checkIns = 0,
): Workday {
  const day = activity ?? emptyActivity(date);
  const status: WorkdayStatus =
    day.incompleteShifts > 0 ? 'incomplete' : day.openShifts > 0 || !isPast ? 'pending' : 'closed';
  const { expected, absences } = expectedMinutes(calendar);
  const worked = Math.floor(day.workedSeconds / 60);
  return {
    date,
    status,
    workedMinutes: worked,
    breakMinutes: Math.floor(day.breakSeconds / 60),
    nightMinutes: Math.floor(day.nightSeconds / 60),
    onCallMinutes: Math.floor(day.onCallSeconds / 60),
    expectedMinutes: expected,
    absencesMinutes: absences,
    overtimeMinutes: calendar.partTime ? 0 : Math.max(0, worked - expected),
    complementaryMinutes: calendar.partTime ? Math.max(0, worked - expected) : 0,
    balanceMinutes: worked - expected,
    anomalies: day.anomalies,
    checkIns,
  };
}

/** A clock event with what the registry knows of who made it (docs/registry.md, "Records the worker did not make"). */
export type RecordedEvent = ClockEvent & {
  /** The worker's own record (made by the worker, or by a terminal at the moment). */
  own: boolean;
  /** The worker disputes this record someone else made for them. */
  disputed: boolean;
  /** Recorded as remote work (its work_mode). */
  remote?: boolean;
};

/**
 * The local dates whose records conflict, so that a worker's own record is never silently ignored: a date with
 * a record the worker disputes, or a date holding records of the worker and of someone else on which a record is
 * ignored as an anomaly (an `out` by an integration at 13:00 leaves the worker's own `out` at 15:00 without a
 * shift). Pure: the same events give the same dates in any order.
 */
export function conflictDates(events: readonly RecordedEvent[], timeZone: Zones): Set<string> {
  const dates = new Set<string>();
  const makers = new Map<string, { own: boolean; others: boolean }>();
  for (const event of events) {
    const date = localDateOf(event.at, timeZone);
    if (event.disputed) dates.add(date);
    const seen = makers.get(date) ?? { own: false, others: false };
    if (event.own) seen.own = true;
    else seen.others = true;
    makers.set(date, seen);
  }
  const { anomalies } = interpretShifts(events, BEGINNING_OF_TIME);
  for (const anomaly of anomalies) {
    const date = localDateOf(anomaly.at, timeZone);
    const seen = makers.get(date);
    if (seen?.own && seen.others) dates.add(date);
  }
  return dates;
}
