/** True for a time zone the runtime's Temporal knows (IANA names, case-insensitive; fixed offsets are refused). */
export function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name)) return name === 'UTC' ? 'UTC' : null;
  try {
    return Temporal.Now.zonedDateTimeISO(name).timeZoneId;
  } catch {
    return null;
  }
}

/** The instant a local date ('YYYY-MM-DD') starts in a time zone. */
export function startOfDate(date: string, timeZone: string): Temporal.Instant {
  return Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).toInstant();
}

export function localDate(instant: Temporal.Instant, timeZone: string): Temporal.PlainDate {
  return instant.toZonedDateTimeISO(timeZone).toPlainDate();
}

/** An employee's own zone, else the company's: all of the employee's day boundaries are in it. */
export function employeeTimeZone(employee: { timezone: string | null }, companyTimeZone: string): string {
  return employee.timezone ?? companyTimeZone;
}
