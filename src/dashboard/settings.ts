import type { Db } from '../db/database.ts';
import { companyView, loadAccount } from '../modules/companies/companies.service.ts';
import { quotaUsed } from '../platform/auth.repo.ts';
import { quotaMonth } from '../platform/auth.ts';
import { monthlyQuota, RATE_LIMIT_PER_MINUTE } from '../platform/service-state.ts';
import type { Clock } from '../time/clock.ts';

/** The integration settings screen: the company, this month's quota use per tenant, and the rate limits. */
export async function integrationSettings(db: Db, clock: Clock, companyId: string) {
  const loaded = await loadAccount(db, companyId);
  const { account, sandbox } = loaded;
  // The month the requests count toward, as jornada_admit_request counts them (platform/auth.ts).
  const month = quotaMonth(clock.now());
  const usage = async (tenant: { id: string; active_employee_count: number }, mode: 'live' | 'test') => {
    return {
      used: await quotaUsed(db, tenant.id, month),
      quota: monthlyQuota(mode, tenant.active_employee_count),
    };
  };
  return {
    company: companyView(loaded),
    usage: {
      month: month.slice(0, 7),
      live: await usage(account, 'live'),
      test: sandbox ? await usage(sandbox, 'test') : null,
    },
    rate_limits: { ...RATE_LIMIT_PER_MINUTE },
  };
}
