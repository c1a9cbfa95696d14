import { Type } from 'typebox';
import { Instant, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

export const CHECK_IN_TYPES = ['in', 'out', 'break_start', 'break_end'] as const;

export const CheckInType = Type.Enum(CHECK_IN_TYPES, {
  description: '`in` opens a shift, `out` closes it; `break_start` and `break_end` mark a break inside it.',
});

export const CheckIn = named(
  'CheckIn',
  Type.Object({
    id: Uuid(),
    employee_id: Uuid(),
    type: CheckInType,
    timestamp: Instant('When the event happened, at one-second resolution.'),
    source: Type.Enum(['api', 'dashboard', 'kiosk', 'import'], {
      description: 'Where the check-in was recorded; the API records `api`. Extensible.',
    }),
    created_at: Instant(),
    updated_at: Instant('Check-ins are immutable: equal to created_at.'),
  }),
);

export const CreateCheckInBody = named(
  'CreateCheckInBody',
  Type.Object(
    {
      employee_id: Uuid('An employee of this company.'),
      type: CheckInType,
      timestamp: Instant(
        'ISO 8601 instant with an offset. Fractional seconds are truncated. At most 5 minutes in the future, not before the hire date, not after the termination date.',
      ),
    },
    { additionalProperties: false },
  ),
);

export const ListCheckInsQuery = named(
  'ListCheckInsQuery',
  Type.Object(
    {
      ...PageQuery,
      ...UpdatedSinceQuery,
      employee_id: Type.Optional(Uuid()),
      from: Type.Optional(Instant('Only check-ins with timestamp at or after this instant.')),
      to: Type.Optional(Instant('Only check-ins with timestamp before this instant.')),
    },
    { additionalProperties: false },
  ),
);
