import { Type } from 'typebox';
import { CalendarDate, Instant, Nullable, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

export const COMPLIANCE_RULES = [
  'daily_hours',
  'rest_between_workdays',
  'continuous_work_without_break',
  'weekly_rest',
  'night_work_average',
  'outside_schedule',
  'complementary_limit',
  'overtime_yearly_warning',
  'overtime_yearly_cap',
] as const;

const Rule = Type.Enum(COMPLIANCE_RULES, {
  type: 'string',
  description: 'The limit broken (docs/time-rules.md, “Legal limits”); extensible.',
});

export const ComplianceAlert = named(
  'ComplianceAlert',
  Type.Object(
    {
      id: Uuid(),
      employee_id: Uuid(),
      date: CalendarDate('weekly_rest: the Sunday.'),
      rule: Rule,
      detail: Type.Object({
        minutes: Type.Integer({ description: 'The measure, in minutes.' }),
        limit_minutes: Type.Integer(),
      }),
      status: Type.Enum(['open', 'acknowledged'], { type: 'string' }),
      law: Type.String({ description: 'The article (ET: Estatuto de los Trabajadores).' }),
      acknowledged_at: Nullable(Instant()),
      created_at: Instant(),
      updated_at: Instant(),
    },
    {},
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
      from: Type.Optional(CalendarDate()),
      to: Type.Optional(CalendarDate('Inclusive.')),
    },
    { additionalProperties: false },
  ),
);
