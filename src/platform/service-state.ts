import { type RawBuilder, sql } from 'kysely';
import type { CompanyStatus, SubscriptionStatus } from '../db/schema.ts';

/** Service is active only for an active company whose subscription is active or trialing. */
export function hasActiveService(company: {
  company_status: CompanyStatus;
  subscription_status: SubscriptionStatus;
}): boolean {
  return (
    company.company_status === 'active' &&
    (company.subscription_status === 'active' || company.subscription_status === 'trialing')
  );
}

/** hasActiveService as SQL, over the account row aliased `account` (the live company of a tenant). */
export function activeServiceSql(account: string): RawBuilder<boolean> {
  const ref = (column: string) => sql.ref(`${account}.${column}`);
  return sql<boolean>`(${ref('company_status')} = 'active' and ${ref('subscription_status')} in ('active', 'trialing'))`;
}

export const RATE_LIMIT_PER_MINUTE = { live: 120, test: 30 } as const;

/** Live: 10,000 + 1,000 × active employees, capped at 100,000. Test: 5,000. */
export const MONTHLY_QUOTA = {
  test: 5_000,
  liveBase: 10_000,
  livePerEmployee: 1_000,
  liveMax: 100_000,
} as const;

export function monthlyQuota(mode: 'live' | 'test', activeEmployees: number): number {
  if (mode === 'test') return MONTHLY_QUOTA.test;
  return Math.min(
    MONTHLY_QUOTA.liveMax,
    MONTHLY_QUOTA.liveBase + MONTHLY_QUOTA.livePerEmployee * activeEmployees,
  );
}

/** The first day of the UTC month a request counts toward (the `quota_usage.month` key), YYYY-MM-01. */
export function quotaMonth(now: Temporal.Instant): string {
  return `${now.toZonedDateTimeISO('UTC').toPlainDate().toPlainYearMonth().toString()}-01`;
}
