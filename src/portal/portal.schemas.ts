import { Type } from 'typebox';
import { CheckIn, CheckInType, WorkMode } from '../modules/check-ins/check-ins.schemas.ts';
import { CORRECTION_STATUSES } from '../modules/corrections/corrections.schemas.ts';
import { EmployeeStatus } from '../modules/employees/employees.schemas.ts';
import { CalendarDate, Instant, Nullable, TimeZoneName, Uuid } from '../platform/common.schemas.ts';
import { PageQuery } from '../platform/pagination.ts';

export const PORTAL_OPERATION = { tag: 'Portal', surface: 'dashboard' } as const;

export const AcceptInvitationBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 200, description: '12 characters or more.' }),
  },
  { additionalProperties: false },
);

export const PortalSessionView = Type.Object({
  csrf_token: Type.String({ description: 'Send it back as X-CSRF-Token on every state-changing call.' }),
});

export const MeView = Type.Object({
  employee: Type.Object({
    id: Uuid(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    status: EmployeeStatus,
    hire_date: CalendarDate(),
    termination_date: Nullable(CalendarDate()),
    timezone: TimeZoneName('The zone the worker’s days are counted in.'),
    can_clock: Type.Boolean({ description: 'False once the employment has ended: records stay readable.' }),
  }),
  company: Type.Object({ name: Type.String() }),
  last_check_in: Nullable(CheckIn),
  access_resets: Type.Array(Type.Object({ at: Instant(), by_type: Type.String() }), {
    description: 'Each reset of the worker’s login by the company, oldest first.',
  }),
  csrf_token: Type.String(),
});

export const PortalCheckInBody = Type.Object(
  { type: CheckInType, work_mode: Type.Optional(WorkMode) },
  { additionalProperties: false },
);

export const DateRangeQuery = Type.Object(
  {
    ...PageQuery,
    from: CalendarDate('First local date.'),
    to: CalendarDate('Last local date (inclusive), at most a year after from.'),
  },
  { additionalProperties: false },
);

export const PortalCorrectionsQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(Type.Enum(CORRECTION_STATUSES)) },
  { additionalProperties: false },
);
