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
  access_resets: Type.Array(Type.Object({ at: Instant(), by_type: Type.String() }), {
    description: 'Each reset of the worker’s login by the company, oldest first.',
  }),
  csrf_token: Type.String(),
});
