import { type Zones, zoneOn } from './zones.ts';

/**
 * Planned shifts (issue 38): a shift is dated, with local start and end times in the employee's zone of that
 * date; an end at or before the start ends the next day (a night shift, 22:00–06:00). Its planned minutes are
 * the real length between its two instants (so a night across the October clock change lasts an hour longer)
 * less its break. These functions are pure: the service and consolidation share them.
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

/** A shift's length in whole minutes, start to end, before its break. */
export function shiftSpanMinutes(shift: Pick<PlannedShift, 'date' | 'start' | 'end'>, zones: Zones): number {
  const { startsAt, endsAt } = shiftInstants(shift, zones);
  return Math.floor(startsAt.until(endsAt).total('minutes'));
}

/** The minutes of work a shift plans: its span less its break; an on-call shift plans none (availability). */
export function plannedWorkMinutes(shift: PlannedShift, zones: Zones): number {
  if (shift.kind !== 'work') return 0;
  return Math.max(0, shiftSpanMinutes(shift, zones) - shift.break_minutes);
}

/** Whether two shifts' intervals share any instant (touching ends do not overlap). */
export function shiftsOverlap(
  a: Pick<PlannedShift, 'date' | 'start' | 'end'>,
  b: Pick<PlannedShift, 'date' | 'start' | 'end'>,
  zones: Zones,
): boolean {
  const x = shiftInstants(a, zones);
  const y = shiftInstants(b, zones);
  return (
    Temporal.Instant.compare(x.startsAt, y.endsAt) < 0 && Temporal.Instant.compare(y.startsAt, x.endsAt) < 0
  );
}

/** The planned work minutes of each date that has published shifts (the date of a shift is its start's). */
export function plannedMinutesByDate(shifts: readonly PlannedShift[], zones: Zones): Map<string, number> {
  const byDate = new Map<string, number>();
  for (const shift of shifts) {
    byDate.set(shift.date, (byDate.get(shift.date) ?? 0) + plannedWorkMinutes(shift, zones));
  }
  return byDate;
}
