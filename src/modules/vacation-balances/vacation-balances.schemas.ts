import { Type } from 'typebox';
import { CalendarDate, Nullable, named, Uuid } from '../../platform/common.schemas.ts';
import { DeprecatedUpdatedSinceQuery, PageQuery } from '../../platform/pagination.ts';

export const VacationBalance = named(
  'VacationBalance',
  Type.Object({
    employee_id: Uuid(),
    year: Type.Integer(),
    entitled_days: Type.Number({
      description: 'vacation_days_per_year prorated by the days employed in the year, to the nearest 0.5.',
    }),
    used_days: Type.Number({ description: 'Approved vacation days falling in the year.' }),
    pending_days: Type.Number({
      description: 'Requested (not yet decided) vacation days falling in the year.',
    }),
    remaining_days: Type.Number({ description: 'entitled + carry_over − used − pending.' }),
    carry_over_days: Type.Number({
      description:
        "The previous year's remaining days (at least 0), capped by the company policy, until they expire.",
    }),
    carry_over_expires_at: Nullable(
      CalendarDate('When the carried-over days expire; null when nothing carries over.'),
    ),
  }),
);

export const ListVacationBalancesQuery = named(
  'ListVacationBalancesQuery',
  Type.Object(
    {
      year: Type.Integer({ minimum: 2000, maximum: 2100 }),
      employee_id: Type.Optional(Uuid()),
      ...PageQuery,
      ...DeprecatedUpdatedSinceQuery,
    },
    { additionalProperties: false },
  ),
);
