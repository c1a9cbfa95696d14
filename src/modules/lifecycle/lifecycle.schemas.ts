import { Type } from 'typebox';
import { Company, UpdateCompanyBody } from '../companies/companies.schemas.ts';

const Usage = Type.Object({ used: Type.Integer(), quota: Type.Integer() });

/** The dashboard's settings screen: the company, this month's quota use per tenant, the rate limits. */
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
    overtime_compensation: UpdateCompanyBody.properties.overtime_compensation,
    default_region: UpdateCompanyBody.properties.default_region,
  },
  { additionalProperties: false, minProperties: 1 },
);
