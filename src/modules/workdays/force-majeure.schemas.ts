import { Type } from 'typebox';
import { Actor, CalendarDate, Instant, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

/** A day whose overtime prevented or repaired damage (ET art. 35.3; docs/time-rules.md, "Overtime"). */
export const ForceMajeureDay = named(
  'ForceMajeureDay',
  Type.Object(
    {
      id: Uuid(),
      employee_id: Uuid(),
      date: CalendarDate(),
      reason: Type.String(),
      recorded_by: Actor('Who marked it.'),
      created_at: Instant(),
      updated_at: Instant(),
    },
    {
      description:
        'Overtime worked on this day to prevent or repair damage (ET 35.3): compensated as any other, it does not count towards the 80 hours a year.',
    },
  ),
);

export const CreateForceMajeureDayBody = named(
  'CreateForceMajeureDayBody',
  Type.Object(
    {
      employee_id: Uuid(),
      date: CalendarDate('Not in a closed month (409); one mark per employee and day (409).'),
      reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S', description: 'The emergency.' }),
    },
    { additionalProperties: false },
  ),
);

export const ListForceMajeureDaysQuery = Type.Object(
  { ...PageQuery, ...UpdatedSinceQuery, employee_id: Type.Optional(Uuid()) },
  { additionalProperties: false },
);
