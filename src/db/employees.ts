import { sql } from 'kysely';
import type { ContractPeriod, ContractTerms, ContractType } from '../time/contract.ts';
import type { Executor } from './database.ts';

// Queries on employee rows that modules on both sides of the employees module need (the registry, which the
// employees module calls, among them): here, below the modules, so that no module cycle is needed.

/**
 * Takes the row lock of every employee of a company, in id order (the one order multi-employee writers use;
 * docs/architecture.md, Lock order).
 */
export async function lockEmployees(tx: Executor, companyId: string): Promise<void> {
  await tx
    .selectFrom('employees')
    .select('id')
    .where('company_id', '=', companyId)
    .orderBy('id')
    .forUpdate()
    .execute();
}

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
    .select(['id', 'location_id', 'hire_date', 'termination_date', 'vacation_days_per_year', 'work_schedule'])
    .where('company_id', '=', companyId)
    .where('hire_date', '<=', last)
    .where((eb) => eb.or([eb('termination_date', 'is', null), eb('termination_date', '>=', first)]));
  if (employeeId !== undefined) query = query.where('id', '=', employeeId);
  return query;
}

/**
 * The company's tracking start for an employee row of the query (the account's: a sandbox follows its live
 * company), as text: a correlated lookup by primary key.
 */
export const companyTrackingStart = sql<string>`(select a.tracking_start_date::text from companies c
  join companies a on a.id = coalesce(c.sandbox_of, c.id) where c.id = employees.company_id)`;

/** The registry policy of an employee row's company (the account's), as text: a correlated lookup by key. */
export const companyRegistryPolicy = sql<
  'marked' | 'worker_consent'
>`(select a.registry_policy from companies c
  join companies a on a.id = coalesce(c.sandbox_of, c.id) where c.id = employees.company_id)`;

/**
 * The first day an employee is tracked: the later of the hire date and their own tracking start, or the
 * company's when they have none (docs/registry.md, Banked hours start when recording starts).
 */
export function effectiveTrackingStart(employee: {
  hire_date: string;
  tracking_start_date: string | null;
  company_tracking_start_date: string;
}): string {
  const start = employee.tracking_start_date ?? employee.company_tracking_start_date;
  return start > employee.hire_date ? start : employee.hire_date;
}

/** The columns of a contract period (and of the employee row, which keeps the latest) that hold its terms. */
export const CONTRACT_TERM_COLUMNS = [
  'contract_type',
  'weekly_minutes',
  'part_time_percentage',
  'complementary_limit_percentage',
  'overtime_compensation',
] as const;

/** A row's part-time terms, numbers as numbers. */
export function termsOf(row: {
  contract_type: ContractType;
  weekly_minutes: number | null;
  part_time_percentage: string | number | null;
  complementary_limit_percentage: number | null;
  overtime_compensation: 'paid' | 'time_off' | null;
}): ContractTerms {
  return {
    contract_type: row.contract_type,
    weekly_minutes: row.weekly_minutes,
    part_time_percentage: row.part_time_percentage === null ? null : Number(row.part_time_percentage),
    complementary_limit_percentage: row.complementary_limit_percentage,
    overtime_compensation: row.overtime_compensation,
  };
}

/** The contract periods of some employees of a tenant, each in effective_from order (time/contract.ts). */
export async function contractsOf(
  db: Executor,
  companyId: string,
  employeeIds: readonly string[],
): Promise<Map<string, ContractPeriod[]>> {
  const contracts = new Map<string, ContractPeriod[]>();
  if (employeeIds.length === 0) return contracts;
  const rows = await db
    .selectFrom('employee_contracts')
    .select([
      'employee_id',
      'effective_from',
      'work_schedule',
      'vacation_days_per_year',
      ...CONTRACT_TERM_COLUMNS,
    ])
    .where('company_id', '=', companyId)
    .where('employee_id', 'in', employeeIds)
    .orderBy('employee_id')
    .orderBy('effective_from')
    .execute();
  for (const row of rows) {
    const periods = contracts.get(row.employee_id) ?? [];
    periods.push({
      effective_from: row.effective_from,
      work_schedule: row.work_schedule,
      vacation_days_per_year: Number(row.vacation_days_per_year),
      ...termsOf(row),
    });
    contracts.set(row.employee_id, periods);
  }
  return contracts;
}

/** One employee's contract periods, in effective_from order. */
export async function contractOf(db: Executor, companyId: string, employeeId: string) {
  const periods = (await contractsOf(db, companyId, [employeeId])).get(employeeId);
  if (!periods) throw new Error(`employee ${employeeId} has no contract period`);
  return periods;
}
