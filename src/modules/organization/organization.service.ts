import type { AppDeps } from '../../platform/deps.ts';
import type { Tenant } from '../../platform/tenant.ts';
import { getCompany } from '../companies/companies.service.ts';

export async function getOrganization(deps: Pick<AppDeps, 'db'>, tenant: Tenant) {
  const { db } = deps;
  const company = await getCompany(db, tenant.companyId);
  return {
    id: company.id,
    name: company.name,
    timezone: company.timezone,
    registry_policy: company.registry_policy,
    mode: tenant.mode,
    sandbox: company.sandbox,
    seats: company.seats,
    active_employees: company.active_employees,
    rate_limit_per_minute: tenant.rateLimitPerMinute,
    monthly_quota: tenant.monthlyQuota,
  };
}
