import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, Uuid } from '../../platform/common.schemas.ts';

export const Holiday = Type.Object({
  id: Uuid(),
  date: CalendarDate(),
  name: Type.String(),
  location_id: Nullable(
    Uuid('The work centre whose local holiday it is (its employees only); null: the whole company.'),
  ),
  created_at: Instant(),
  updated_at: Instant(),
});

export const CreateHolidayBody = Type.Object(
  {
    date: CalendarDate(),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    location_id: Type.Optional(
      Nullable(
        Uuid('A work centre: a local holiday of its employees only. Left out or null: the whole company.'),
      ),
    ),
  },
  { additionalProperties: false },
);

/** A range of dates, at most a year (a calendar's month, a yearly list). */
export const ListHolidaysQuery = Type.Object(
  {
    from: CalendarDate('First date.'),
    to: CalendarDate('Last date, inclusive; at most one year after from.'),
  },
  { additionalProperties: false },
);
