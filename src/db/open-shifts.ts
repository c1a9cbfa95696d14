import { sql } from 'kysely';
import type { Executor } from './database.ts';

/**
 * Each employee's open shift: the latest stored day with a shift still waiting for its `out` (`workdays.open_since`,
 * its `in`), among the days from `fromDate` on. Read by the dashboard's Today view and the portal (issue 38,
 * missed clock-outs), so here below both modules. One statement by the (company_id, employee_id, date) key.
 */
export async function openShifts(
  db: Executor,
  companyId: string,
  options: { fromDate: string; employeeId?: string },
): Promise<Array<{ employee_id: string; date: string; open_since: Date }>> {
  const { rows } = await sql<{ employee_id: string; date: string; open_since: Date }>`
    select distinct on (employee_id) employee_id, date::text as date, open_since
      from workdays
     where company_id = ${companyId} and date >= ${options.fromDate} and open_since is not null
       ${options.employeeId === undefined ? sql`` : sql`and employee_id = ${options.employeeId}`}
     order by employee_id, date desc`.execute(db);
  return rows;
}
