import type { Db } from '../db/database.ts';
import { getCompany } from '../modules/companies/companies.service.ts';
import { monthlyQuota, RATE_LIMIT_PER_MINUTE } from '../platform/service-state.ts';
import type { Clock } from '../time/clock.ts';

/** The integration settings screen: the company, this month's quota use per tenant, and the rate limits. */
export async function integrationSettings(db: Db, clock: Clock, companyId: string) {
  const company = await getCompany(db, companyId);
  const sandbox = company.sandbox_company_id ? await getCompany(db, company.sandbox_company_id) : null;
  // The quota month is the UTC month, as counted by jornada_admit_request (platform/auth.ts).
  const month = clock.now().toZonedDateTimeISO('UTC').toPlainDate().toPlainYearMonth().toString();
  const used = async (tenantId: string) => {
    const row = await db
      .selectFrom('quota_usage')
      .select('request_count')
      .where('company_id', '=', tenantId)
      .where('month', '=', `${month}-01`)
      .executeTakeFirst();
    return Number(row?.request_count ?? 0);
  };
  return {
    company,
    usage: {
      month,
      live: { used: await used(company.id), quota: monthlyQuota('live', company.active_employees) },
      test: sandbox
        ? { used: await used(sandbox.id), quota: monthlyQuota('test', sandbox.active_employees) }
        : null,
    },
    rate_limits: { ...RATE_LIMIT_PER_MINUTE },
  };
}
