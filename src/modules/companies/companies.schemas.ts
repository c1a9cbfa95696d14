import { Type } from 'typebox';
import {
  CalendarDate,
  IdentityNumber,
  Instant,
  Nullable,
  Region,
  TimeZoneName,
  Uuid,
} from '../../platform/common.schemas.ts';

const CompanyStatus = Type.Union([
  Type.Literal('active'),
  Type.Literal('suspended'),
  Type.Literal('archived'),
]);
const SubscriptionStatus = Type.Union([
  Type.Literal('active'),
  Type.Literal('trialing'),
  Type.Literal('trial_expired'),
  Type.Literal('suspended'),
  Type.Literal('canceled'),
  Type.Literal('expired'),
  Type.Literal('none'),
]);
const CarryOverExpiry = Type.String({
  pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
  description: 'MM-DD',
});

/** The registry policy (docs/registry.md, "Records the worker did not make"): chosen once, never undone. */
export const RegistryPolicy = Type.Enum(['marked', 'worker_consent'], {
  type: 'string',
  description:
    'marked: records the worker did not make count, marked. worker_consent: they count once the worker accepts them (chosen once, for good).',
});

/** How overtime is compensated (ET 35.1; docs/time-rules.md, "Overtime"). */
export const OvertimeCompensation = Type.Enum(['paid', 'time_off'], {
  type: 'string',
  description:
    'time_off (the default): overtime goes to the banked balance, to be taken as rest. paid: it is paid and counts towards the 80-hour yearly cap (ET 35.2).',
});

export const Company = Type.Object({
  id: Uuid(),
  name: Type.String(),
  timezone: Type.String(),
  sandbox: Type.Boolean({ description: 'True for the sandbox tenant of a company.' }),
  sandbox_company_id: Nullable(Uuid('The sandbox tenant of a live company.')),
  sandbox_of: Nullable(Uuid('For a sandbox: the live company it belongs to.')),
  seats: Type.Integer(),
  active_employees: Type.Integer(),
  default_expiration_days: Nullable(Type.Integer()),
  max_active_keys: Type.Integer(),
  company_status: CompanyStatus,
  subscription_status: SubscriptionStatus,
  addon_enabled: Type.Boolean(),
  service_active: Type.Boolean(),
  vacation_carry_over_max_days: Type.Number(),
  vacation_carry_over_expiry: Type.String(),
  late_record_hours: Type.Integer({
    description: 'A check-in recorded more than this many hours after its timestamp is marked late.',
  }),
  registry_policy: RegistryPolicy,
  overtime_compensation: OvertimeCompensation,
  tracking_start_date: CalendarDate(
    'When the company started recording in Jornada: before it no minutes are expected and the banked balance does not run. Defaults to the day the company was created.',
  ),
  legal_name: Nullable(
    Type.String({ description: 'The registered name (razón social) on the registry documents.' }),
  ),
  tax_id: Nullable(Type.String({ description: 'The CIF or NIF, normalized (capitals, no separators).' })),
  default_region: Nullable(
    Region(
      'The autonomous community (ISO 3166-2) of its work centres without a region of their own and of its employees without a work centre: their national and regional holidays.',
    ),
  ),
  created_at: Instant(),
  updated_at: Instant(),
});

export const CreateCompanyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    timezone: Type.Optional(TimeZoneName()),
    seats: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    tracking_start_date: Type.Optional(
      CalendarDate(
        'When the company starts recording in Jornada; defaults to today in its time zone. Earlier for a company that brings its history.',
      ),
    ),
    legal_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    tax_id: Type.Optional(
      Nullable(IdentityNumber('CIF, or NIF (DNI/NIE) of a self-employed employer; checked.')),
    ),
    default_region: Type.Optional(
      Nullable(
        Region(
          'The region of its work centres without their own and of its employees without a centre: their national and regional holidays come with it.',
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

export const UpdateCompanyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    timezone: Type.Optional(TimeZoneName()),
    timezone_effective_from: Type.Optional(
      CalendarDate(
        'With timezone: the first day the new zone applies (default: today); earlier days keep theirs. Not in or before a closed month (409), not after today (422).',
      ),
    ),
    seats: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    company_status: Type.Optional(CompanyStatus),
    subscription_status: Type.Optional(SubscriptionStatus),
    addon_enabled: Type.Optional(Type.Boolean()),
    default_expiration_days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 3650 }))),
    max_active_keys: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    vacation_carry_over_max_days: Type.Optional(Type.Number({ minimum: 0, maximum: 365, multipleOf: 0.5 })),
    vacation_carry_over_expiry: Type.Optional(CarryOverExpiry),
    late_record_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 8760 })),
    registry_policy: Type.Optional(RegistryPolicy),
    overtime_compensation: Type.Optional(OvertimeCompensation),
    default_region: Type.Optional(
      Nullable(
        Region(
          'Sets the region of the work centres without their own and of the employees without a centre: their national and regional holidays are applied in the open period (null: none).',
        ),
      ),
    ),
    tracking_start_date: Type.Optional(
      CalendarDate(
        'Set it earlier to migrate a history: the employees without their own tracking start are recomputed between the old and the new date (409 if that touches a closed month).',
      ),
    ),
    legal_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    tax_id: Type.Optional(
      Nullable(IdentityNumber('CIF, or NIF (DNI/NIE) of a self-employed employer; checked.')),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
