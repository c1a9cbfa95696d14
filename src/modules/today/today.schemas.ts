import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';

export const PRESENCE_STATES = [
  'in',
  'break',
  'missed_clock_out',
  'out',
  'absent',
  'missing',
  'scheduled',
  'off',
] as const;

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
            '`in` (clocked in, breaks ended), `break`, `missed_clock_out` (a shift open 16 hours or more after its `in`: a probable missed clock-out, which only a correction settles), `out` (clocked out today), `absent` (an approved absence today), `missing` (expected today and not clocked in yet: by the weekly schedule, or past the start of a published shift), `scheduled` (a published shift starts later today: a night shift is not expected in the morning), `off` (not expected today).',
        }),
        since: Nullable(
          Instant(
            'In and missed_clock_out: the `in` of the open shift (not a return from a break); break: its start; out: the last check-in.',
          ),
        ),
        absence_type: Nullable(Type.String({ description: 'The absence’s label, when absent.' })),
        expected_minutes: Minutes(
          'Expected today: the published shifts’ planned minutes, else the contract’s schedule (0 on a holiday without a shift, or an absence).',
        ),
        shift: Nullable(
          Type.Object({
            start: Instant('Start of today’s first published work shift.'),
            end: Instant('End of today’s last published work shift.'),
          }),
        ),
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
    alerts: Type.Array(
      Type.Object({
        id: Uuid(),
        employee_id: Uuid(),
        name: Type.String(),
        date: CalendarDate(),
        rule: Type.String(),
        detail: Type.Object({ minutes: Type.Integer(), limit_minutes: Type.Integer() }),
        law: Type.String(),
      }),
      { description: 'Open legal-limit alerts of the last 14 days, latest first (at most 50; issue 38).' },
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

/** The home page's charts: the last weeks worked against expected, the month's overtime, the year's absences. */
export const Charts = named(
  'DashboardCharts',
  Type.Object({
    weeks: Type.Array(
      Type.Object({
        week_start: CalendarDate('The Monday.'),
        worked_minutes: Minutes('Worked in the stored workdays of the week, every employee.'),
        expected_minutes: Minutes('Expected in them.'),
      }),
      { description: 'The last 8 weeks, the current one included, oldest first.' },
    ),
    overtime: Type.Array(
      Type.Object({
        employee_id: Uuid(),
        name: Type.String(),
        overtime_minutes: Minutes('This month so far.'),
      }),
      {
        description:
          'The employees with overtime this month (the work summaries’ figure), most first, at most 15.',
      },
    ),
    absences: Type.Array(Type.Object({ key: Type.String(), label: Type.String(), days: Type.Number() }), {
      description: 'Approved absence days this year, per type (absences starting in the year).',
    }),
  }),
);
