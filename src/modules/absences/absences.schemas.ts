import { Type } from 'typebox';
import {
  CalendarDate,
  Instant,
  Nullable,
  NullableInstant,
  named,
  Uuid,
} from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';
import { AbsenceTypeRef } from '../absence-types/absence-types.schemas.ts';

export const ABSENCE_STATUSES = ['requested', 'approved', 'denied', 'cancelled'] as const;
export const AbsenceStatus = Type.Enum(ABSENCE_STATUSES);

/** The longest absence one request may cover. */
export const MAX_ABSENCE_DAYS = 366;

export const Absence = named(
  'Absence',
  Type.Object({
    id: Uuid(),
    employee_id: Uuid(),
    type: AbsenceTypeRef,
    start_date: CalendarDate(),
    end_date: CalendarDate('Inclusive.'),
    half_day: Type.Boolean({ description: 'Only when start_date equals end_date.' }),
    status: AbsenceStatus,
    days_count: Type.Number({
      description:
        "The employee's scheduled working days in the range, holidays of the company or work centre left out; a half day counts 0.5. Recounted (a new updated_at) when a holiday, the schedule, the work centre or the employment dates change a day in the open period; a closed month's days keep their count.",
    }),
    note: Nullable(Type.String()),
    denial_reason: Nullable(Type.String({ description: 'The reason given when the absence was denied.' })),
    decided_at: Nullable(Instant('When the absence was approved or denied.')),
    cancelled_at: NullableInstant(),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

export const CreateAbsenceBody = named(
  'CreateAbsenceBody',
  Type.Object(
    {
      employee_id: Uuid('An employee of this company.'),
      type: Type.String({ minLength: 1, maxLength: 64, description: 'An absence type key, e.g. vacation.' }),
      start_date: CalendarDate(),
      end_date: CalendarDate(`Inclusive; on or after start_date, at most ${MAX_ABSENCE_DAYS} days in all.`),
      half_day: Type.Optional(
        Type.Boolean({ default: false, description: 'Only when start_date equals end_date.' }),
      ),
      note: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    },
    { additionalProperties: false },
  ),
);

export { NoBody } from '../../platform/common.schemas.ts';

export const RejectAbsenceBody = named(
  'RejectAbsenceBody',
  Type.Object(
    { reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })) },
    { additionalProperties: false },
  ),
);

export const ListAbsencesQuery = named(
  'ListAbsencesQuery',
  Type.Object(
    {
      ...PageQuery,
      ...UpdatedSinceQuery,
      employee_id: Type.Optional(Uuid()),
      type: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'An absence type key.' })),
      status: Type.Optional(AbsenceStatus),
      from: Type.Optional(CalendarDate('With to: only absences overlapping the range from..to (inclusive).')),
      to: Type.Optional(CalendarDate()),
    },
    { additionalProperties: false },
  ),
);
