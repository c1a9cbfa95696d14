import type { Executor } from '../../db/database.ts';

/** A tenant's employees employed at some time in [first, last] (optionally one), for keyset paging by id. */
export function selectEmployedDuring(
  db: Executor,
  companyId: string,
  first: string,
  last: string,
  employeeId?: string | undefined,
) {
  let query = db
    .selectFrom('employees')
    .select(['id', 'hire_date', 'termination_date', 'vacation_days_per_year', 'work_schedule'])
    .where('company_id', '=', companyId)
    .where('hire_date', '<=', last)
    .where((eb) => eb.or([eb('termination_date', 'is', null), eb('termination_date', '>=', first)]));
  if (employeeId !== undefined) query = query.where('id', '=', employeeId);
  return query;
}
