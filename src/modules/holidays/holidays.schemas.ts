import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';

export const HolidayScope = Type.Enum(['national', 'regional', 'local', 'company'], {
  type: 'string',
  description:
    'national: a holiday of all of Spain; regional: of the work centre’s autonomous community (both from the calendar Jornada ships, applied by region); local: one of the work centre’s own (fiestas locales); company: one the company added for everyone. Extensible.',
});

export const Holiday = named(
  'Holiday',
  Type.Object(
    {
      id: Uuid(),
      date: CalendarDate(),
      name: Type.String({ description: 'Its name in Spanish.' }),
      name_local: Nullable(
        Type.String({ description: 'Its name in the region’s co-official language, where it has one.' }),
      ),
      scope: HolidayScope,
      location_id: Nullable(
        Uuid(
          'The work centre whose holiday it is (its employees only); null: the whole company (a regional one: the employees without a work centre).',
        ),
      ),
      created_at: Instant(),
      updated_at: Instant(),
    },
    {
      examples: [
        {
          id: '0195d2a0-7c41-7e2b-9a55-3c1f0b6d2e10',
          date: '2026-09-11',
          name: 'Día de Cataluña',
          name_local: 'Diada de Catalunya',
          scope: 'regional',
          location_id: '0195d2a0-7c41-7e2b-9a55-3c1f0b6d2e11',
          created_at: '2026-01-02T08:00:00Z',
          updated_at: '2026-01-02T08:00:00Z',
        },
      ],
    },
  ),
);

export const YearHolidaysQuery = named(
  'YearHolidaysQuery',
  Type.Object(
    {
      year: Type.Integer({ minimum: 2000, maximum: 2100, description: 'The calendar year.' }),
      location_id: Type.Optional(
        Uuid(
          'A work centre: the holidays of its employees’ calendar. Left out: every holiday of the company.',
        ),
      ),
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
