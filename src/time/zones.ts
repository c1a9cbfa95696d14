/** True for a time zone the runtime's Temporal knows (IANA names, case-insensitive; fixed offsets are refused). */
export function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name)) return name === 'UTC' ? 'UTC' : null;
  try {
    return Temporal.Now.zonedDateTimeISO(name).timeZoneId;
  } catch {
    return null;
  }
}

/** The instant a local date ('YYYY-MM-DD') starts in a time zone (or in the zone the date had). */
export function startOfDate(date: string, timeZone: Zones): Temporal.Instant {
  return Temporal.PlainDate.from(date)
    .toZonedDateTime({ timeZone: zoneOn(timeZone, date) })
    .toInstant();
}

export function localDate(instant: Temporal.Instant, timeZone: Zones): Temporal.PlainDate {
  return instant.toZonedDateTimeISO(zoneAt(timeZone, instant)).toPlainDate();
}

/** An employee's own zone, else the company's: all of the employee's day boundaries are in it. */
export function employeeTimeZone(employee: { timezone: string | null }, companyTimeZone: string): string {
  return employee.timezone ?? companyTimeZone;
}

/**
 * A time zone that changed over time (docs/time-rules.md, "Time zones are effective-dated"): each period's zone
 * applies from its first local date on. An instant belongs to the period that had started by then, a period
 * starting at the first instant of its first date in its own zone; a date to the period holding it.
 */
export class ZoneTimeline {
  readonly periods: ReadonlyArray<{ from: string; zone: string; start: Temporal.Instant | null }>;

  /** `periods` in date order; the first one applies to every earlier date too. */
  constructor(periods: ReadonlyArray<{ from: string; zone: string }>) {
    if (periods.length === 0) throw new Error('a zone timeline needs a period');
    this.periods = periods.map((period, index) => ({
      ...period,
      start:
        index === 0 ? null : Temporal.PlainDate.from(period.from).toZonedDateTime(period.zone).toInstant(),
    }));
  }

  /** The zone of a local date. */
  on(date: string): string {
    let zone = (this.periods[0] as { zone: string }).zone;
    for (const period of this.periods) if (period.from <= date) zone = period.zone;
    return zone;
  }

  /** The zone of an instant. */
  at(instant: Temporal.Instant): string {
    let zone = (this.periods[0] as { zone: string }).zone;
    for (const period of this.periods) {
      if (period.start === null || Temporal.Instant.compare(period.start, instant) <= 0) zone = period.zone;
    }
    return zone;
  }

  /** The zones of a date range, each with the first date of the range it applies from. */
  within(from: string, to: string): Array<{ from: string; zone: string }> {
    const found = [{ from, zone: this.on(from) }];
    for (const period of this.periods) {
      if (period.from > from && period.from <= to && period.zone !== found[found.length - 1]?.zone) {
        found.push({ from: period.from, zone: period.zone });
      }
    }
    return found;
  }
}

/** One zone, or a timeline of zones: what every day boundary of an employee is computed in. */
export type Zones = string | ZoneTimeline;

/** The zone of a local date. */
export function zoneOn(zones: Zones, date: string): string {
  return typeof zones === 'string' ? zones : zones.on(date);
}

/** The zone of an instant. */
export function zoneAt(zones: Zones, instant: Temporal.Instant): string {
  return typeof zones === 'string' ? zones : zones.at(instant);
}

/**
 * The zones an employee's days follow, from the recorded periods (db/time-zones.ts): the employee's own where
 * they have one (a period without a zone follows the company again), else the company's. Without any period, the
 * current zones: one zone for every date.
 */
export function employeeZones(
  current: { employee: string | null; company: string },
  periods: {
    company: ReadonlyArray<{ from: string; zone: string }>;
    employee: ReadonlyArray<{ from: string; zone: string | null }>;
  },
): Zones {
  if (periods.company.length === 0 && periods.employee.length === 0)
    return current.employee ?? current.company;
  const company = periods.company.length > 0 ? new ZoneTimeline(periods.company) : null;
  const companyOn = (date: string) => (company ? company.on(date) : current.company);
  const employeeOn = (date: string): string | null | undefined => {
    if (periods.employee.length === 0) return current.employee;
    let zone: string | null | undefined = periods.employee[0]?.zone;
    for (const period of periods.employee) if (period.from <= date) zone = period.zone;
    return zone;
  };
  const dates = [
    ...new Set(['0001-01-01', ...periods.company.map((p) => p.from), ...periods.employee.map((p) => p.from)]),
  ].sort();
  const merged: Array<{ from: string; zone: string }> = [];
  for (const date of dates) {
    const zone = employeeOn(date) ?? companyOn(date);
    if (merged[merged.length - 1]?.zone !== zone) merged.push({ from: date, zone });
  }
  return merged.length === 1 ? (merged[0] as { zone: string }).zone : new ZoneTimeline(merged);
}
