import { Type } from 'typebox';
import {
  Actor,
  CalendarDate,
  IdentityNumber,
  Instant,
  Nullable,
  named,
  TimeZoneName,
  Uuid,
} from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const DEFAULT_WORK_SCHEDULE = [480, 480, 480, 480, 480, 0, 0];
export const DEFAULT_VACATION_DAYS_PER_YEAR = 22;

const DayMinutes = Type.Integer({ minimum: 0, maximum: 1440 });

export const WorkSchedule = named(
  'WorkSchedule',
  Type.Object(
    Object.fromEntries(WEEKDAYS.map((day) => [day, DayMinutes])) as Record<
      (typeof WEEKDAYS)[number],
      typeof DayMinutes
    >,
    {
      additionalProperties: false,
      description: 'Scheduled minutes per weekday, 0 to 1440. Default: 480 Monday to Friday, 0 on weekends.',
    },
  ),
);

export const EmployeeStatus = Type.Enum(['active', 'terminated']);

/** A contract period's part-time terms (ET art. 12; docs/time-rules.md, "Part-time"). */
export const ContractType = named(
  'ContractType',
  Type.Enum(['full_time', 'part_time'], {
    description:
      "part_time (ET 12): minutes beyond a day's contracted ones are complementary_minutes, never overtime. Default full_time.",
  }),
);
export const WeeklyMinutes = named(
  'WeeklyMinutes',
  Type.Integer({
    minimum: 0,
    maximum: 10080,
    description: "Contracted minutes a week; default: work_schedule's sum.",
  }),
);
export const PartTimePercentage = named(
  'PartTimePercentage',
  Nullable(
    Type.Number({
      exclusiveMinimum: 0,
      exclusiveMaximum: 100,
      description: "part_time only: % of a full-timer's hours; default weekly_minutes over 40 h. Else null.",
    }),
  ),
);
const ComplementaryLimit = named(
  'ComplementaryLimitPercentage',
  Nullable(
    Type.Integer({
      minimum: 0,
      maximum: 90,
      description:
        "part_time only: agreed complementary minutes, % of the month's contracted (ET 12.5.c; default 30); over it is an alert. Else null.",
    }),
  ),
);
const Compensation = named(
  'OvertimeCompensationOverride',
  Nullable(
    Type.Enum(['paid', 'time_off'], {
      type: 'string',
      description: "How this period's overtime is compensated (ET 35.1); null: the company's.",
    }),
  ),
);
const contractTerms = {
  contract_type: ContractType,
  weekly_minutes: WeeklyMinutes,
  part_time_percentage: PartTimePercentage,
  complementary_limit_percentage: ComplementaryLimit,
  overtime_compensation: Compensation,
};
const writableTerms = {
  contract_type: Type.Optional(ContractType),
  weekly_minutes: Type.Optional(Nullable(WeeklyMinutes)),
  part_time_percentage: Type.Optional(PartTimePercentage),
  complementary_limit_percentage: Type.Optional(ComplementaryLimit),
  overtime_compensation: Type.Optional(Compensation),
};

export const Employee = named(
  'Employee',
  Type.Object({
    id: Uuid(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String({ description: 'Unique per company, case-insensitively.' }),
    external_id: Nullable(Type.String({ description: "The client's own payroll id, unique per company." })),
    status: EmployeeStatus,
    hire_date: CalendarDate(),
    termination_date: Nullable(CalendarDate()),
    location_id: Nullable(Uuid()),
    unit_id: Nullable(Uuid()),
    timezone: Nullable(TimeZoneName("IANA time zone overriding the company's; null uses the company's.")),
    work_schedule: WorkSchedule,
    vacation_days_per_year: Type.Number(),
    ...contractTerms,
    tracking_start_date: CalendarDate(
      "The first day Jornada expects minutes of the employee and runs the banked balance: the later of the hire date and the employee's own tracking start, or the company's when none was set.",
    ),
    opening_banked_minutes: Type.Integer({
      description: 'The banked balance carried over at the tracking start (from the previous system).',
    }),
    national_id: Nullable(
      Type.String({ description: 'DNI or NIE, normalized. Never in a webhook; needs org:empleados:read.' }),
    ),
    social_security_number: Nullable(
      Type.String({
        description:
          'Social Security affiliation number (NAF), 12 digits. Never in a webhook; needs org:empleados:read.',
      }),
    ),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Email = Type.String({ format: 'email', maxLength: 254 });
const ExternalId = Type.String({ minLength: 1, maxLength: 100 });
const VacationDays = Type.Number({ minimum: 0, maximum: 366, multipleOf: 0.5 });

const writable = {
  first_name: Name,
  last_name: Name,
  email: Email,
  external_id: Nullable(ExternalId),
  hire_date: CalendarDate('Defaults to today in the company time zone.'),
  location_id: Nullable(Uuid('A location of this company.')),
  unit_id: Nullable(Uuid('A unit of this company.')),
  timezone: Nullable(TimeZoneName()),
  work_schedule: WorkSchedule,
  vacation_days_per_year: VacationDays,
  tracking_start_date: named(
    'EmployeeTrackingStart',
    Nullable(
      CalendarDate(
        "The employee's own tracking start; null (or left out) follows the company's. Never before the hire date in effect.",
      ),
    ),
  ),
  opening_banked_minutes: Type.Integer({
    minimum: -1_000_000,
    maximum: 1_000_000,
    description: 'The banked balance at the tracking start. Default 0.',
  }),
  national_id: named('NationalId', Nullable(IdentityNumber('DNI or NIE with its control letter; checked.'))),
  social_security_number: named(
    'SocialSecurityNumber',
    Nullable(IdentityNumber('NAF: 12 digits with the two control digits; checked.')),
  ),
};

export const CreateEmployeeBody = named(
  'CreateEmployeeBody',
  Type.Object(
    {
      first_name: writable.first_name,
      last_name: writable.last_name,
      email: writable.email,
      external_id: Type.Optional(writable.external_id),
      hire_date: Type.Optional(writable.hire_date),
      location_id: Type.Optional(writable.location_id),
      unit_id: Type.Optional(writable.unit_id),
      timezone: Type.Optional(writable.timezone),
      work_schedule: Type.Optional(writable.work_schedule),
      vacation_days_per_year: Type.Optional(
        Type.Number({ minimum: 0, maximum: 366, multipleOf: 0.5, description: 'Default 22.' }),
      ),
      ...writableTerms,
      tracking_start_date: Type.Optional(writable.tracking_start_date),
      opening_banked_minutes: Type.Optional(writable.opening_banked_minutes),
      national_id: Type.Optional(writable.national_id),
      social_security_number: Type.Optional(writable.social_security_number),
    },
    { additionalProperties: false },
  ),
);

export const UpdateEmployeeBody = named(
  'UpdateEmployeeBody',
  Type.Object(
    {
      first_name: Type.Optional(writable.first_name),
      last_name: Type.Optional(writable.last_name),
      email: Type.Optional(writable.email),
      external_id: Type.Optional(writable.external_id),
      hire_date: Type.Optional(writable.hire_date),
      termination_date: Type.Optional(
        CalendarDate('Only on a terminated employee: corrects the termination date.'),
      ),
      location_id: Type.Optional(writable.location_id),
      unit_id: Type.Optional(writable.unit_id),
      timezone: Type.Optional(writable.timezone),
      work_schedule: Type.Optional(writable.work_schedule),
      vacation_days_per_year: Type.Optional(writable.vacation_days_per_year),
      ...writableTerms,
      effective_from: Type.Optional(
        CalendarDate(
          'With work_schedule, vacation_days_per_year, the part-time terms or timezone: the first day the new values apply (default: today); earlier days keep theirs. Not in a closed month (409).',
        ),
      ),
      tracking_start_date: Type.Optional(writable.tracking_start_date),
      opening_banked_minutes: Type.Optional(writable.opening_banked_minutes),
      national_id: Type.Optional(writable.national_id),
      social_security_number: Type.Optional(writable.social_security_number),
    },
    { additionalProperties: false },
  ),
);

export const TerminateEmployeeBody = named(
  'TerminateEmployeeBody',
  Type.Object(
    {
      termination_date: Type.Optional(
        CalendarDate('The last day of employment; defaults to today in the company time zone.'),
      ),
    },
    { additionalProperties: false },
  ),
);

export const ListEmployeesQuery = named(
  'ListEmployeesQuery',
  Type.Object(
    {
      ...PageQuery,
      ...UpdatedSinceQuery,
      status: Type.Optional(EmployeeStatus),
      location_id: Type.Optional(Uuid()),
      unit_id: Type.Optional(Uuid()),
    },
    { additionalProperties: false },
  ),
);

export const ContractPeriod = named(
  'ContractPeriod',
  Type.Object({
    effective_from: CalendarDate(
      'The first day the values apply (the first period also covers any earlier day).',
    ),
    effective_to: Nullable(
      CalendarDate('The last day, the day before the next period starts; null for the last.'),
    ),
    work_schedule: WorkSchedule,
    vacation_days_per_year: Type.Number(),
    ...contractTerms,
    recorded_at: Instant('When the period was recorded (or last replaced, while its start was open).'),
    recorded_by: Actor('Who recorded it.'),
  }),
);

/** The dashboard's search of employees: by name, email or external id, and status. */
export const EmployeeSearchQuery = Type.Object(
  {
    ...PageQuery,
    q: Type.Optional(Type.String({ maxLength: 100 })),
    status: Type.Optional(EmployeeStatus),
  },
  { additionalProperties: false },
);
