import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';

export const PRESENCE_STATES = ['in', 'break', 'out', 'absent', 'missing', 'off'] as const;

const Minutes = (description: string) => Type.Integer({ description });

/** The dashboard's home page: today at a glance (docs/dashboard.md). */
export const Today = named(
  'DashboardToday',
  Type.Object({
    now: Instant('The service clock’s now.'),
    date: CalendarDate('Today in the company’s time zone.'),
    time_zone: Type.String({ description: 'The company’s time zone, in which `date` and the month are.' }),
    people: Type.Array(
      Type.Object({
        employee_id: Uuid(),
        name: Type.String(),
        state: Type.Enum(PRESENCE_STATES, {
          description:
            '`in` (clocked in, breaks ended), `break`, `out` (clocked out today), `absent` (an approved absence today), `missing` (expected today, not clocked in yet), `off` (not expected today).',
        }),
        since: Nullable(Instant('The check-in the state comes from (within the last 24 hours).')),
        absence_type: Nullable(Type.String({ description: 'The absence’s label, when absent.' })),
        expected_minutes: Minutes('Scheduled today under the contract (0 on a holiday or an absence).'),
      }),
    ),
    counts: Type.Record(Type.String(), Type.Integer(), { description: 'People per state.' }),
    pending: Type.Object({
      absences: Type.Integer({ description: 'Absence requests to decide.' }),
      corrections: Type.Integer({ description: 'Check-in corrections waiting for the company’s approval.' }),
    }),
    problems: Type.Array(
      Type.Object({
        employee_id: Uuid(),
        name: Type.String(),
        date: CalendarDate(),
        incomplete_shifts: Type.Integer(),
        anomalies: Type.Integer({ description: 'Ignored clock events.' }),
        late_records: Type.Integer({ description: 'Check-ins recorded after the late-record threshold.' }),
      }),
      { description: 'Problem days of the last 14 days, latest first (at most 50).' },
    ),
    month: Type.Object({
      month: Type.String({ description: 'YYYY-MM' }),
      worked_minutes: Minutes('Worked on the closed workdays of the month so far, every employee.'),
      expected_minutes: Minutes('Expected on those days.'),
      overtime_minutes: Minutes('Overtime on those days.'),
      night_minutes: Minutes('Night time on those days.'),
    }),
  }),
);
