import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { CONTRACT_TERM_COLUMNS, companyTrackingStart } from '../../db/employees.ts';
import type { EmployeeContractsTable, EmployeesTable } from '../../db/schema.ts';

export {
  CONTRACT_TERM_COLUMNS,
  contractOf,
  contractsOf,
  effectiveTrackingStart,
  lockEmployees,
  selectEmployedDuring,
  termsOf,
} from '../../db/employees.ts';

/** An employee's stored columns. */
export type EmployeeColumns = Omit<
  Selectable<EmployeesTable>,
  'company_id' | 'email_key' | 'consolidated_through' | 'shifts_seen_at'
>;

/** An employee as read, with the company's tracking start (for the default of the employee's). */
export type EmployeeRow = EmployeeColumns & { company_tracking_start_date: string };

const EMPLOYEE_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'external_id',
  'status',
  'hire_date',
  'termination_date',
  'location_id',
  'unit_id',
  'timezone',
  'work_schedule',
  'vacation_days_per_year',
  ...CONTRACT_TERM_COLUMNS,
  'tracking_start_date',
  'opening_banked_minutes',
  'national_id',
  'social_security_number',
  'created_at',
  'updated_at',
] as const;

const selectEmployees = (db: Executor, companyId: string) =>
  db
    .selectFrom('employees')
    .select([...EMPLOYEE_COLUMNS, companyTrackingStart.as('company_tracking_start_date')])
    .where('company_id', '=', companyId);

export async function findEmployee(
  db: Executor,
  companyId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<EmployeeRow | undefined> {
  let query = selectEmployees(db, companyId).where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return await query.executeTakeFirst();
}

/** The employees listing's filters; `search` is a case-insensitive substring of the name, email or external id. */
export function selectEmployeesMatching(
  db: Executor,
  companyId: string,
  filters: {
    status?: 'active' | 'terminated' | undefined;
    location_id?: string | undefined;
    unit_id?: string | undefined;
    search?: string | undefined;
  },
) {
  let query = selectEmployees(db, companyId);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.search) {
    const pattern = `%${filters.search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`first_name || ' ' || last_name`, 'ilike', pattern),
        eb('email', 'ilike', pattern),
        eb('external_id', 'ilike', pattern),
      ]),
    );
  }
  if (filters.location_id !== undefined) query = query.where('location_id', '=', filters.location_id);
  if (filters.unit_id !== undefined) query = query.where('unit_id', '=', filters.unit_id);
  return query;
}

/** The id of the tenant's employee with that email key or external id, if any (the uniqueness pre-check). */
export async function findEmployeeIdBy(
  db: Executor,
  companyId: string,
  column: 'email_key' | 'external_id',
  value: string,
): Promise<{ id: string } | undefined> {
  return await db
    .selectFrom('employees')
    .select('id')
    .where('company_id', '=', companyId)
    .where(column, '=', value)
    .executeTakeFirst();
}

export async function insertEmployee(db: Executor, companyId: string, row: EmployeeColumns): Promise<void> {
  await db
    .insertInto('employees')
    .values({ company_id: companyId, ...row })
    .execute();
}

export async function updateEmployeeRow(
  db: Executor,
  companyId: string,
  id: string,
  changes: Updateable<EmployeesTable>,
): Promise<void> {
  await db
    .updateTable('employees')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/** Some employees of a tenant, with what a registry heading names: ids, names and time zone. */
export async function findEmployeesByIds(db: Executor, companyId: string, ids: string[]) {
  // No ids, no rows (PostgreSQL refuses `in ()`: a grant covering no worker answered 500, issue 35).
  if (ids.length === 0) return [];
  return await db
    .selectFrom('employees')
    .select(['id', 'external_id', 'first_name', 'last_name', 'timezone', 'location_id'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/** Some employees of a tenant with the identifiers a payroll program knows them by (issue 41). */
export async function findEmployeeIdentities(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('employees')
    .select(['id', 'external_id', 'first_name', 'last_name', 'national_id', 'social_security_number'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/** The earliest active check-in of an employee outside [start, end) (end null: open), or undefined. */
export async function activeCheckInOutside(
  db: Executor,
  companyId: string,
  employeeId: string,
  start: Date,
  end: Date | null,
) {
  return await db
    .selectFrom('check_ins')
    .select(['id', 'timestamp'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'active')
    .where((eb) =>
      end === null
        ? eb('timestamp', '<', start)
        : eb.or([eb('timestamp', '<', start), eb('timestamp', '>=', end)]),
    )
    .orderBy('timestamp')
    .limit(1)
    .executeTakeFirst();
}

/** The ids of a tenant's employees, in id order. */
export async function employeeIdsOf(db: Executor, companyId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('employees')
    .select('id')
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** A tenant's employees with their hire date, by id. */
export async function employeeHireDates(db: Executor, companyId: string) {
  return await db
    .selectFrom('employees')
    .select(['id', 'hire_date'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
}

/** A tenant's employees that follow the company's time zone (none of their own), with their hire date, by id. */
export async function employeesOnCompanyZone(db: Executor, companyId: string) {
  return await db
    .selectFrom('employees')
    .select(['id', 'hire_date'])
    .where('company_id', '=', companyId)
    .where('timezone', 'is', null)
    .orderBy('id')
    .execute();
}

/** Records a contract period; one that starts the same day is replaced (its start is still open). */
export async function upsertContractPeriod(
  db: Executor,
  row: Insertable<EmployeeContractsTable>,
): Promise<void> {
  await db
    .insertInto('employee_contracts')
    .values(row)
    .onConflict((conflict) =>
      conflict.columns(['company_id', 'employee_id', 'effective_from']).doUpdateSet({
        work_schedule: row.work_schedule,
        vacation_days_per_year: row.vacation_days_per_year,
        contract_type: row.contract_type ?? 'full_time',
        weekly_minutes: row.weekly_minutes ?? null,
        part_time_percentage: row.part_time_percentage ?? null,
        complementary_limit_percentage: row.complementary_limit_percentage ?? null,
        recorded_at: row.recorded_at,
        recorded_by_type: row.recorded_by_type,
        recorded_by_id: row.recorded_by_id,
      }),
    )
    .execute();
}

/** An employee's contract periods with who recorded each, in effective_from order. */
export async function contractHistoryRows(db: Executor, companyId: string, employeeId: string) {
  return await db
    .selectFrom('employee_contracts')
    .select([
      'effective_from',
      'work_schedule',
      'vacation_days_per_year',
      ...CONTRACT_TERM_COLUMNS,
      'recorded_at',
      'recorded_by_type',
      'recorded_by_id',
    ])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .orderBy('effective_from')
    .execute();
}
