import { type RawBuilder, sql } from 'kysely';
import type { Executor } from './database.ts';

/**
 * Whose records a caller reaches (issue 39): null, every employee of the company (a key, an owner, an admin,
 * payroll); otherwise the employees of these units, a team lead's units with every unit below them.
 */
export type Reach = { unitIds: readonly string[] } | null;

/** A tenant that may be narrowed to some employees (a team lead's session): the listings filter by it. */
export type ReachScope = { companyId: string; reach?: Reach | undefined };

/**
 * The condition that keeps a listing within a team lead's reach: the row's employee belongs to one of the reached
 * units. `column` names the row's employee id as the query sees it (`employee_id`, `absences.employee_id`,
 * `employees.id`). Null when the caller reaches the whole company.
 */
export function reachCondition(scope: ReachScope, column: string): RawBuilder<boolean> | null {
  const reach = scope.reach;
  if (!reach) return null;
  return sql<boolean>`${sql.ref(column)} in (select e.id from employees e where e.company_id = ${scope.companyId} and e.unit_id = any(${[...reach.unitIds]}::uuid[]))`;
}

/** A listing narrowed to the caller's reach (unchanged for a caller who reaches the whole company). */
export function withinReach<Q>(query: Q, scope: ReachScope, column: string): Q {
  const condition = reachCondition(scope, column);
  return condition ? (query as unknown as { where(c: RawBuilder<boolean>): Q }).where(condition) : query;
}

/** Whether an employee of the company is within the caller's reach. */
export async function employeeInReach(db: Executor, scope: ReachScope, employeeId: string): Promise<boolean> {
  if (!scope.reach) return true;
  const row = await db
    .selectFrom('employees')
    .select('id')
    .where('company_id', '=', scope.companyId)
    .where('id', '=', employeeId)
    .where(sql<boolean>`unit_id = any(${[...scope.reach.unitIds]}::uuid[])`)
    .executeTakeFirst();
  return row !== undefined;
}

/** Units and every unit below them (a team lead's reach), read at each request. */
export async function unitsAndBelow(db: Executor, companyId: string, unitIds: readonly string[]) {
  if (unitIds.length === 0) return [];
  const rows = await sql<{ id: string }>`
    with recursive reached as (
      select id from units where company_id = ${companyId} and id = any(${[...unitIds]}::uuid[])
      union
      select u.id from units u join reached r on u.parent_id = r.id where u.company_id = ${companyId}
    )
    select id from reached
  `.execute(db);
  return rows.rows.map((row) => row.id);
}

/** The tables whose rows belong to an employee, and the column that names them. */
export type EmployeeRecordTable = 'employees' | 'check_ins' | 'absences' | 'check_in_corrections' | 'shifts';

/** The employee a record of the company belongs to (the employee itself for `employees`); undefined: none. */
export async function recordEmployee(
  db: Executor,
  companyId: string,
  table: EmployeeRecordTable,
  id: string,
): Promise<string | undefined> {
  const column = table === 'employees' ? 'id' : 'employee_id';
  const row = await sql<{ employee_id: string }>`
    select ${sql.ref(column)} as employee_id from ${sql.table(table)}
    where company_id = ${companyId} and id = ${id}::uuid
  `.execute(db);
  return row.rows[0]?.employee_id;
}
