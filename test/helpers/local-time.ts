/** The zone of most tests' companies: mainland Spain. */
export const MADRID = 'Europe/Madrid';

/** An instant given as a local date and time in a zone (Madrid unless named), as the API takes it: ISO, seconds. */
export const localInstant = (date: string, time: string, zone = MADRID): string =>
  Temporal.PlainDate.from(date)
    .toZonedDateTime({ timeZone: zone, plainTime: time })
    .toInstant()
    .toString({ smallestUnit: 'second' });
