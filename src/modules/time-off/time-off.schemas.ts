import { Type } from 'typebox';
import { CalendarDate, Nullable } from '../../platform/common.schemas.ts';
import { AbsenceTypeRef } from '../absence-types/absence-types.schemas.ts';
import { Absence } from '../absences/absences.schemas.ts';
import { Holiday } from '../holidays/holidays.schemas.ts';
import { VacationBalance } from '../vacation-balances/vacation-balances.schemas.ts';

/** What a worker sends to ask for time off: the public request without the employee (always the worker). */
export const WorkerAbsenceBody = Type.Object(
  {
    type: Type.String({ minLength: 1, maxLength: 64, description: 'An absence type key, e.g. vacation.' }),
    start_date: CalendarDate(),
    end_date: CalendarDate('Inclusive; on or after start_date.'),
    half_day: Type.Optional(Type.Boolean({ description: 'Only when start_date equals end_date.' })),
    note: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  },
  { additionalProperties: false },
);

export const TimeOffQuery = Type.Object(
  { year: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100 })) },
  { additionalProperties: false },
);

/** "Mis ausencias": the worker's year of time off. */
export const TimeOffView = Type.Object({
  year: Type.Integer(),
  today: CalendarDate('The worker’s today, which the balance is as of.'),
  /** The vacation balance of the year (the only type with an entitlement); null when not employed that year. */
  balance: Nullable(VacationBalance),
  absences: Type.Array(Absence, {
    description:
      'The worker’s absences that end in the year or later (a request for next year too), latest first.',
  }),
  holidays: Type.Array(Holiday, {
    description: 'The holidays of the worker’s calendar that year and the next.',
  }),
  types: Type.Array(AbsenceTypeRef, { description: 'The types the worker may ask for.' }),
});

export const TimeOffPreview = Type.Object({
  days_count: Type.Number({
    description: 'The working days the request would count in the worker’s calendar.',
  }),
  remaining_days_after: Nullable(
    Type.Number({ description: 'For vacation: the year’s remaining days once it is requested.' }),
  ),
});
