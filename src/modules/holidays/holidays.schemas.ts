import { Type } from 'typebox';
import { CalendarDate, Instant, Uuid } from '../../platform/common.schemas.ts';

export const Holiday = Type.Object({
  id: Uuid(),
  date: CalendarDate(),
  name: Type.String(),
  created_at: Instant(),
  updated_at: Instant(),
});

export const CreateHolidayBody = Type.Object(
  { date: CalendarDate(), name: Type.String({ minLength: 1, maxLength: 200 }) },
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
