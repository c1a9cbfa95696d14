import { type Zones, zoneOn } from './zones.ts';

/**
 * Planned shifts (issue 38): a shift is dated, with local start and end times in the employee's zone of that
 * date; an end at or before the start ends the next day (a night shift, 22:00–06:00). Its planned minutes are
 * the real length between its two instants (so a night across the October clock change lasts an hour longer)
 * less its break. These functions are pure: the shifts service, the Today view and the alerts share them.
 */
export type PlannedShift = {
  date: string;
  /** HH:MM, local. */
  start: string;
  end: string;
  break_minutes: number;
  kind: 'work' | 'on_call';
};

/** The longest a shift may last, start to end (an on-call day). */
export const MAX_PLANNED_SHIFT_MINUTES = 24 * 60;

/** The instants a shift runs between, in the employee's zone of its date. */
export function shiftInstants(
  shift: Pick<PlannedShift, 'date' | 'start' | 'end'>,
  zones: Zones,
): { startsAt: Temporal.Instant; endsAt: Temporal.Instant } {
  const zone = zoneOn(zones, shift.date);
  const date = Temporal.PlainDate.from(shift.date);
  const start = Temporal.PlainTime.from(shift.start);
  const end = Temporal.PlainTime.from(shift.end);
  const endDate = Temporal.PlainTime.compare(end, start) <= 0 ? date.add({ days: 1 }) : date;
  return {
    startsAt: date.toZonedDateTime({ timeZone: zone, plainTime: start }).toInstant(),
    endsAt: endDate.toZonedDateTime({ timeZone: zone, plainTime: end }).toInstant(),
  };
}

/** A shift's length in whole minutes, start to end, before its break (the real length, across a clock change). */
export function spanMinutes(instants: { startsAt: Temporal.Instant; endsAt: Temporal.Instant }): number {
  return Math.floor(instants.startsAt.until(instants.endsAt).total('minutes'));
}

/** The minutes of work a shift of that span plans: the span less its break; an on-call shift plans none. */
export function plannedWorkMinutes(
  shift: Pick<PlannedShift, 'kind' | 'break_minutes'>,
  span: number,
): number {
  if (shift.kind !== 'work') return 0;
  return Math.max(0, span - shift.break_minutes);
}

/**
 * The dates whose stored figures a published shift decides: a work shift its own date's expected minutes; an
 * on-call shift also the minutes worked within it by clock shifts of the day before or after (a clock shift lasts
 * at most 24 hours and belongs to the date of its `in`).
 */
export function datesDecided(shift: Pick<PlannedShift, 'date' | 'kind'>): { from: string; to: string } {
  if (shift.kind === 'work') return { from: shift.date, to: shift.date };
  const date = Temporal.PlainDate.from(shift.date);
  return { from: date.subtract({ days: 1 }).toString(), to: date.add({ days: 1 }).toString() };
}
