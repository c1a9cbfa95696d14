import { Type } from 'typebox';
import { CreateApiKeyBody } from '../modules/api-keys/api-keys.schemas.ts';
import { Company, UpdateCompanyBody } from '../modules/companies/companies.schemas.ts';
import { EmployeeStatus } from '../modules/employees/employees.schemas.ts';
import { Uuid } from '../platform/common.schemas.ts';
import { PageQuery } from '../platform/pagination.ts';

const Language = (options: { description?: string } = {}) =>
  Type.Union([Type.Literal('es'), Type.Literal('en')], options);

export const SessionView = Type.Object({
  admin: Type.Object({
    id: Uuid(),
    email: Type.String(),
    language: Type.Union([Language(), Type.Null()], {
      description: "The dashboard's language the administrator chose; null: the company's default.",
    }),
  }),
  language: Language({
    description:
      "The language the dashboard speaks: the administrator's choice, else Spanish for a company whose time zone is in Spain, else English.",
  }),
  company: Company,
  csrf_token: Type.String({ description: 'Send it back as X-CSRF-Token on every state-changing call.' }),
});

export const UpdateMeBody = Type.Object(
  {
    language: Type.Union([Language(), Type.Null()], {
      description: "The dashboard's language for this administrator; null: the company's default.",
    }),
  },
  { additionalProperties: false },
);

const Usage = Type.Object({ used: Type.Integer(), quota: Type.Integer() });

export const SettingsView = Type.Object({
  company: Company,
  usage: Type.Object({
    month: Type.String({ description: 'YYYY-MM (UTC), the quota month.' }),
    live: Usage,
    test: Type.Union([Usage, Type.Null()]),
  }),
  rate_limits: Type.Object({ live: Type.Integer(), test: Type.Integer() }),
});

/**
 * The settings an administrator changes: the addon, the company's legal identity for the registry, when recording
 * started and after how long a check-in counts as recorded late.
 */
export const UpdateSettingsBody = Type.Object(
  {
    addon_enabled: Type.Optional(Type.Boolean()),
    legal_name: UpdateCompanyBody.properties.legal_name,
    tax_id: UpdateCompanyBody.properties.tax_id,
    tracking_start_date: UpdateCompanyBody.properties.tracking_start_date,
    late_record_hours: UpdateCompanyBody.properties.late_record_hours,
    registry_policy: UpdateCompanyBody.properties.registry_policy,
  },
  { additionalProperties: false, minProperties: 1 },
);

/** Issuance from the dashboard: the mode is the live/test switch's, so the body has no `mode`. */
export const DashboardCreateKeyBody = Type.Object(
  {
    scopes: CreateApiKeyBody.properties.scopes,
    name: CreateApiKeyBody.properties.name,
    expires_in_days: CreateApiKeyBody.properties.expires_in_days,
    kind: CreateApiKeyBody.properties.kind,
  },
  { additionalProperties: false },
);

export const EmployeeSearchQuery = Type.Object(
  {
    ...PageQuery,
    q: Type.Optional(Type.String({ maxLength: 100 })),
    status: Type.Optional(EmployeeStatus),
  },
  { additionalProperties: false },
);

/** What every dashboard operation declares: its OpenAPI tag and its surface (a session, not an API key). */
export const DASHBOARD_OPERATION = { tag: 'Dashboard', surface: 'dashboard' } as const;
