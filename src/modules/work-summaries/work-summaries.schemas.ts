import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';
import { DeprecatedUpdatedSinceQuery, PageQuery } from '../../platform/pagination.ts';
import { ContractType, PartTimePercentage, WeeklyMinutes } from '../employees/employees.schemas.ts';

const Minutes = (description: string) => Type.Integer({ description });

export const WorkSummary = named(
  'WorkSummary',
  Type.Object({
    employee_id: Uuid(),
    period_start: CalendarDate('First day of the period.'),
    period_end: CalendarDate('Last day of the period.'),
    worked_minutes: Minutes('Effective time worked on closed workdays: shifts less breaks.'),
    break_minutes: Minutes('Break time on closed workdays.'),
    night_minutes: Minutes('Worked minutes between 22:00 and 06:00 local, breaks excluded.'),
    overtime_minutes: Minutes('The sum over closed full-time workdays of max(0, worked − expected).'),
    complementary_minutes: Minutes(
      'Horas complementarias (ET 12.5): the same sum over closed part-time workdays, never in overtime_minutes.',
    ),
    holiday_worked_minutes: Minutes(
      "Worked minutes on holidays of the employee's calendar (planned or not), within worked_minutes.",
    ),
    on_call_worked_minutes: Minutes(
      'Worked minutes within published on-call shifts (availability that became work), within worked_minutes.',
    ),
    overtime_counted_minutes: Minutes(
      "The overtime ET 35.2's 80-hour yearly cap counts: paid, not compensated with time off (which is banked).",
    ),
    expected_minutes: Minutes(
      'Scheduled minutes of the closed workdays, after holidays and approved absences.',
    ),
    balance_minutes: Minutes('worked − expected (can be negative).'),
    banked_hours_balance_minutes: Minutes(
      "The employee's opening_banked_minutes plus the balance of every closed workday from the tracking start through period_end.",
    ),
    absences_minutes: Minutes('Scheduled minutes removed by approved absences on closed workdays.'),
    source_days: Type.Integer({ description: 'The number of closed workdays aggregated into the row.' }),
    incomplete_days: Type.Integer({
      description: 'Days with an incomplete shift (left out of every minute field so payroll can see them).',
    }),
    anomalies: Type.Integer({
      description: 'Ignored clock events (e.g. an out with no open shift) in the period.',
    }),
    conflict_days: Type.Integer({
      description:
        "Days whose records conflict (the worker's own ignored beside another's, or one disputed), until corrected.",
    }),
    missing_clock_out: Type.Boolean({
      description:
        'The period holds a shift open 16 h after its `in`, or 4 h past its published end: a probable missed clock-out. Its day is incomplete and counts no time until a correction adds the `out`.',
    }),
    missing_clock_out_since: Nullable(Instant('The `in` of that open shift.')),
    // The contract terms in force on period_end (a day row: that day's).
    contract_type: ContractType,
    weekly_minutes: WeeklyMinutes,
    part_time_percentage: PartTimePercentage,
  }),
);

export const ListWorkSummariesQuery = named(
  'ListWorkSummariesQuery',
  Type.Object(
    {
      period: Type.Enum(['day', 'month', 'year'], {
        description: 'One row per employee and day, calendar month or calendar year.',
      }),
      from: CalendarDate('First date of the range.'),
      to: CalendarDate('Last date of the range: on or after from, at most one year after it.'),
      employee_id: Type.Optional(Uuid()),
      ...PageQuery,
      ...DeprecatedUpdatedSinceQuery,
    },
    { additionalProperties: false },
  ),
);
