import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';

export const HolidayScope = Type.Enum(['national', 'regional', 'local', 'company'], {
  type: 'string',
  description: 'national, regional: the shipped calendar’s. Extensible.',
});

export const Holiday = named(
  'Holiday',
  Type.Object({
    id: Uuid(),
    date: CalendarDate(),
    name: Type.String({ description: 'In Spanish.' }),
    name_local: Nullable(Type.String({ description: 'In the region’s co-official language.' })),
    scope: HolidayScope,
    location_id: Nullable(Uuid('Null: everyone (regional: no centre).')),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

export const HolidayYear = named('HolidayYear', Type.Object({ data: Type.Array(Holiday) }));

export const YearHolidaysQuery = named(
  'YearHolidaysQuery',
  Type.Object(
    {
      year: Type.Integer({ minimum: 2000, maximum: 2100 }),
      location_id: Type.Optional(Uuid('Its employees’ calendar.')),
    },
    { additionalProperties: false },
  ),
);

export const RegionalCalendarChange = Type.Object({
  added: Type.Integer({ description: 'Holidays added from the shipped calendar.' }),
  removed: Type.Integer({ description: 'Holidays of a region no longer due, removed.' }),
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
