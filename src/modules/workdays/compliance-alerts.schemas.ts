import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

export const COMPLIANCE_RULES = [
  'daily_hours',
  'rest_between_workdays',
  'continuous_work_without_break',
  'weekly_rest',
  'night_work_average',
] as const;

const Rule = Type.Enum(COMPLIANCE_RULES, {
  type: 'string',
  description:
    'daily_hours: more than 9 hours of work in a day (ET 34.3). rest_between_workdays: less than 12 hours between the end of a workday and the start of the next (34.3). continuous_work_without_break: more than 6 hours of work without a 15-minute break (34.4). weekly_rest: a week without 36 hours of uninterrupted rest (37.1). night_work_average: a night worker over 8 hours a day on average over 15 days (36.1). Extensible.',
});

export const ComplianceAlert = named(
  'ComplianceAlert',
  Type.Object(
    {
      id: Uuid(),
      employee_id: Uuid(),
      date: CalendarDate('The workday concerned; for weekly_rest, the Sunday that ends the week.'),
      rule: Rule,
      detail: Type.Object({
        minutes: Type.Integer({ description: 'The measure that broke the limit, in minutes.' }),
        limit_minutes: Type.Integer({ description: 'The limit, in minutes.' }),
      }),
      status: Type.Enum(['open', 'acknowledged'], { type: 'string' }),
      law: Type.String({ description: 'The article of the Estatuto de los Trabajadores.' }),
      acknowledged_at: Nullable(Instant()),
      created_at: Instant(),
      updated_at: Instant(),
    },
    {
      examples: [
        {
          id: '0195d2a0-7c41-7e2b-9a55-3c1f0b6d2e30',
          employee_id: '0195d2a0-7c41-7e2b-9a55-3c1f0b6d2e21',
          date: '2026-12-15',
          rule: 'rest_between_workdays',
          detail: { minutes: 510, limit_minutes: 720 },
          status: 'open',
          law: 'ET art. 34.3',
          acknowledged_at: null,
          created_at: '2026-12-15T16:05:00Z',
          updated_at: '2026-12-15T16:05:00Z',
        },
      ],
    },
  ),
);

export const ListComplianceAlertsQuery = named(
  'ListComplianceAlertsQuery',
  Type.Object(
    {
      ...PageQuery,
      ...UpdatedSinceQuery,
      employee_id: Type.Optional(Uuid()),
      rule: Type.Optional(Rule),
      status: Type.Optional(Type.Enum(['open', 'acknowledged'], { type: 'string' })),
      from: Type.Optional(CalendarDate('First date.')),
      to: Type.Optional(CalendarDate('Last date, inclusive.')),
    },
    { additionalProperties: false },
  ),
);
