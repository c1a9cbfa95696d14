/** A holiday's scope (migration 0047): from the shipped calendar (national, regional) or the company's own. */
export type HolidayScope = 'national' | 'regional' | 'local' | 'company';

/**
 * Whose calendar a holiday is in: a work centre's holiday, its employees'; a holiday without a centre, everyone's,
 * except a regional one (drawn from the company's default region, migration 0047), which is the calendar of the
 * employees without a centre only (a centre has its own region's).
 */
export type HolidayAudience = { location_id: string | null; scope: HolidayScope };

/** The employees a holiday's audience names: one centre's, those without a centre, or (null) everyone. */
export function audienceLocation(holiday: HolidayAudience): { locationId: string | null } | null {
  if (holiday.location_id !== null) return { locationId: holiday.location_id };
  return holiday.scope === 'regional' ? { locationId: null } : null;
}

/** Whether a holiday is in the calendar of an employee of a work centre (null: none). */
export function inCalendarOf(holiday: HolidayAudience, locationId: string | null): boolean {
  const audience = audienceLocation(holiday);
  return audience === null || audience.locationId === locationId;
}
