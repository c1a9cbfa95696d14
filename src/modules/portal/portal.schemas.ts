import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, TimeZoneName, Uuid } from '../../platform/common.schemas.ts';
import { CheckIn } from '../check-ins/check-ins.schemas.ts';
import { EmployeeStatus } from '../employees/employees.schemas.ts';

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
  open_shift: Nullable(
    Type.Object(
      {
        since: Instant('Its `in`.'),
        date: CalendarDate('The workday it belongs to (the date of its `in`).'),
        missed_clock_out: Type.Boolean({
          description:
            'Open 16 hours or more: a probable missed clock-out. The worker asks for a correction adding its `out`; a new `in` starts a new workday.',
        }),
      },
      { description: 'The worker’s shift still waiting for its `out` (of the last two weeks), if any.' },
    ),
  ),
  access_resets: Type.Array(Type.Object({ at: Instant(), by_type: Type.String() }), {
    description: 'Each reset of the worker’s login by the company, oldest first.',
  }),
  location_capture: Type.Enum(['off', 'at_punch'], {
    type: 'string',
    description:
      'Whether the worker’s work centre asks for the position when they punch (after the notice; docs/privacy.md).',
  }),
  work_centre: Nullable(Type.String({ description: 'The worker’s work centre, named in the notice.' })),
  csrf_token: Type.String(),
});
