import { sql } from 'kysely';
import type { Db } from './database.ts';

/**
 * What the operator's gauges read across tenants (platform/metrics.ts, issue 37): the companies that use the API
 * most this month, and the health of the webhook endpoints. Both scan small tables (one counter row per active
 * company and month; one row per endpoint), and /metrics reads them at most once a minute.
 */

/** The `limit` companies with the most requests counted toward this month's quota, with what sets their quota. */
export async function topCompanyUsage(
  db: Db,
  month: string,
  limit: number,
): Promise<Array<{ company_id: string; requests: number; sandbox: boolean; active_employees: number }>> {
  const { rows } = await sql<{
    company_id: string;
    requests: number;
    sandbox: boolean;
    active_employees: number;
  }>`
    select q.company_id, q.request_count as requests, c.sandbox_of is not null as sandbox,
           c.active_employee_count as active_employees
      from quota_usage q join companies c on c.id = q.company_id
     where q.month = ${month}::date
     order by q.request_count desc, q.company_id
     limit ${limit}`.execute(db);
  return rows;
}

/** An endpoint's health: active, active but failing, disabled after failures, disabled by hand. */
export const ENDPOINT_HEALTH = ['active', 'failing', 'disabled_failures', 'disabled_manual'] as const;

/** Webhook endpoints by health (ENDPOINT_HEALTH). */
export async function endpointHealth(
  db: Db,
): Promise<Array<{ state: (typeof ENDPOINT_HEALTH)[number]; endpoints: number }>> {
  const { rows } = await sql<{ state: (typeof ENDPOINT_HEALTH)[number]; endpoints: number }>`
    select case when status = 'active' and failing_since is null then 'active'
                when status = 'active' then 'failing'
                when disabled_reason = 'consecutive_failures' then 'disabled_failures'
                else 'disabled_manual' end as state,
           count(*)::int as endpoints
      from webhook_endpoints
     group by 1`.execute(db);
  return rows;
}
