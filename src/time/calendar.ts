/**
 * Calendar arithmetic on plain dates (no I/O). Dates are 'YYYY-MM-DD' strings at the edges and
 * Temporal.PlainDate inside; weekdays are ISO (Monday = 1), matching work_schedule's Monday-first order.
 */

/** Every date from start to end, inclusive. */
export function* eachDate(start: string, end: string): Generator<Temporal.PlainDate> {
  const last = Temporal.PlainDate.from(end);
  for (
    let day = Temporal.PlainDate.from(start);
    Temporal.PlainDate.compare(day, last) <= 0;
    day = day.add({ days: 1 })
  ) {
    yield day;
  }
}

/** Inclusive length of a date range in days. */
export function daysInRange(start: string, end: string): number {
  return Temporal.PlainDate.from(start).until(Temporal.PlainDate.from(end), { largestUnit: 'days' }).days + 1;
}

/** Scheduled minutes of a date: the schedule's entry for its weekday. */
export function scheduledMinutes(schedule: readonly number[], date: Temporal.PlainDate): number {
  return schedule[date.dayOfWeek - 1] ?? 0;
}

/**
 * The days an absence counts: the employee's scheduled working days in the range (scheduled minutes above 0, by
 * the contract in effect on each date, and not a company holiday). A half day counts 0.5 when that day is a
 * working day.
 */
export function absenceDaysCount(
  range: { start_date: string; end_date: string; half_day: boolean },
  minutesOn: (date: Temporal.PlainDate) => number,
  holidays: ReadonlySet<string>,
): number {
  let days = 0;
  for (const date of eachDate(range.start_date, range.end_date)) {
    if (minutesOn(date) > 0 && !holidays.has(date.toString())) days += 1;
  }
  return range.half_day ? days / 2 : days;
}

/** A month ('YYYY-MM') as its first and last dates, inclusive. */
export function monthRange(month: string): { from: string; to: string } {
  const first = Temporal.PlainDate.from(`${month}-01`);
  return { from: first.toString(), to: first.add({ months: 1 }).subtract({ days: 1 }).toString() };
}

/** The calendar years a date range touches, in order. */
export function yearsOf(start: string, end: string): number[] {
  const first = Temporal.PlainDate.from(start).year;
  const last = Temporal.PlainDate.from(end).year;
  return Array.from({ length: last - first + 1 }, (_, index) => first + index);
}

/**
 * Why a date range ('YYYY-MM-DD', inclusive) is not a valid range of at most one year, or null. The message names
 * the problem on `to`.
 */
export function yearRangeProblem(from: string, to: string): string | null {
  if (to < from) return 'must be on or after from';
  const limit = Temporal.PlainDate.from(from).add({ years: 1 }).toString();
  return to > limit ? `must be at most one year after from (${limit})` : null;
}

/** A calendar date (YYYY-MM-DD) moved by a number of days. */
export const addDays = (date: string, days: number) => Temporal.PlainDate.from(date).add({ days }).toString();
