import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import { notFound } from './errors.ts';
import type { Reach, ReachScope } from './tenant.ts';

/**
 * The condition that keeps a listing within a team lead's reach (issue 39): the row's employee belongs to one of
 * the reached units. `column` names the row's employee id as the query sees it (`employee_id`,
 * `absences.employee_id`, `employees.id`). Null when the caller reaches the whole company.
 */
export function reachCondition(tenant: ReachScope, column: string): RawBuilder<boolean> | null {
  const reach = tenant.reach;
  if (!reach) return null;
  return sql<boolean>`${sql.ref(column)} in (select e.id from employees e where e.company_id = ${tenant.companyId} and e.unit_id = any(${unitArray(reach)}::uuid[]))`;
}

const unitArray = (reach: NonNullable<Reach>) => `{${reach.unitIds.join(',')}}`;

/**
 * Refuses a record of an employee beyond the caller's reach as if it did not exist (404, as another company's):
 * a team lead learns nothing of the employees of other units.
 */
export async function assertInReach(
  db: Executor,
  tenant: ReachScope,
  employeeId: string,
  resource: string,
): Promise<void> {
  if (!tenant.reach) return;
  const row = await db
    .selectFrom('employees')
    .select('id')
    .where('company_id', '=', tenant.companyId)
    .where('id', '=', employeeId)
    .where(sql<boolean>`unit_id = any(${unitArray(tenant.reach)}::uuid[])`)
    .executeTakeFirst();
  if (!row) throw notFound(resource);
}

/** A listing narrowed to the caller's reach (unchanged for a caller who reaches the whole company). */
export function withinReach<Q>(query: Q, tenant: ReachScope, column: string): Q {
  const condition = reachCondition(tenant, column);
  return condition ? (query as unknown as { where(c: RawBuilder<boolean>): Q }).where(condition) : query;
}
