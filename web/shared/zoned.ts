/**
 * Dates and times in a time zone, for the dashboard and the portal alike: the company's (or the worker's) day,
 * never the browser's or UTC's.
 */

/** The date (YYYY-MM-DD) of an instant in a time zone. */
export const dayIn = (instant: string | Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(instant),
  );

/** Today's date (YYYY-MM-DD) in a time zone. */
export const todayIn = (timeZone: string) => dayIn(new Date(), timeZone);

/**
 * The instant of a wall-clock time (`HH:MM` on `YYYY-MM-DD`) in a time zone, as `…Z` text: the UTC guess moved
 * by the zone's offset at it, checked once more for a day whose offset changes (DST).
 */
export function instantAt(date: string, time: string, timeZone: string): string {
  const wall = Date.parse(`${date}T${time}:00Z`);
  const offsetAt = (instant: number) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
        .formatToParts(new Date(instant))
        .map((part) => [part.type, part.value]),
    );
    const local = Date.parse(
      `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}Z`,
    );
    return local - instant;
  };
  let instant = wall - offsetAt(wall);
  instant = wall - offsetAt(instant);
  return `${new Date(instant).toISOString().slice(0, 19)}Z`;
}

/** The last date (YYYY-MM-DD) of a month (YYYY-MM). */
export function lastDayOf(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, number, 0)).toISOString().slice(0, 10);
}

/** A calendar date (YYYY-MM-DD) moved by a number of days. */
export function addDays(date: string, days: number): string {
  const value = new Date(`${date}T12:00:00Z`);
  value.setUTCDate(value.getUTCDate() + days);
  return value.toISOString().slice(0, 10);
}

/** Every date (YYYY-MM-DD) of a month (YYYY-MM), in order. */
export function monthDays(month: string): string[] {
  const count = Number(lastDayOf(month).slice(8));
  return Array.from({ length: count }, (_, index) => `${month}-${String(index + 1).padStart(2, '0')}`);
}
