import type { Static } from 'typebox';
import { withinReach } from '../../db/reach.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { DEFAULT_LIMIT, keysetPage, type Page } from '../../platform/pagination.ts';
import type { ReachScope, TenantScope } from '../../platform/tenant.ts';
import { type VacationAbsence, vacationBalance } from '../../time/vacation.ts';
import { localDate } from '../../time/zones.ts';
import { absencesOfType } from '../absences/absences.repo.ts';
import { findVacationPolicy } from '../companies/companies.repo.ts';
import { contractsOf, selectEmployedDuring } from '../employees/employees.repo.ts';
import { VACATION } from '../workdays/absence-days.ts';
import { findHolidays, holidayCalendars } from '../workdays/workdays.repo.ts';
import type { VacationBalance } from './vacation-balances.schemas.ts';

export type VacationBalanceView = Static<typeof VacationBalance>;

/**
 * One row per employee employed during the year, ordered by employee id (the cursor's key). Computed on read
 * from the employee, its vacation absences and the company's holidays and policy: a handful of rows per
 * employee, read through company_id-first indexes for one page of employees at a time.
 */
export async function listVacationBalances(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: TenantScope & ReachScope,
  query: {
    year: number;
    employee_id?: string | undefined;
    limit?: number | undefined;
    cursor?: string | undefined;
  },
): Promise<Page<VacationBalanceView>> {
  const { db, clock, cursors: codec } = deps;
  const first = `${query.year}-01-01`;
  const last = `${query.year}-12-31`;
  const listing = `vacation-balances|${query.year}|${query.employee_id ?? ''}`;
  const employees = withinReach(
    selectEmployedDuring(db, tenant.companyId, first, last, query.employee_id),
    tenant,
    'employees.id',
  );
  const { data: page, meta } = await keysetPage(employees, {
    codec,
    listing,
    sort: [{ column: 'id', kind: 'text' }],
    limit: query.limit ?? DEFAULT_LIMIT,
    cursor: query.cursor,
    keyOf: (employee) => [employee.id],
  });
  if (page.length === 0) return { data: [], meta };

  const absences = await absencesOfType(
    db,
    tenant.companyId,
    VACATION,
    page.map((employee) => employee.id),
    last,
  );
  const earliestHire = page.reduce(
    (min, employee) => (employee.hire_date < min ? employee.hire_date : min),
    last,
  );
  // Every holiday of the period once; each employee's calendar is the company's and their work centre's.
  const holidaysAt = holidayCalendars(
    await findHolidays(db, tenant.companyId, `${earliestHire.slice(0, 4)}-01-01`, last),
  );
  const account = await findVacationPolicy(db, tenant.accountId);
  const policy = {
    carryOverMaxDays: Number(account.vacation_carry_over_max_days),
    carryOverExpiry: account.vacation_carry_over_expiry,
  };
  const today = localDate(clock.now(), tenant.timezone).toString();
  const contracts = await contractsOf(
    db,
    tenant.companyId,
    page.map((employee) => employee.id),
  );

  const data = page.map((employee): VacationBalanceView => {
    const own: VacationAbsence[] = absences
      .filter((absence) => absence.employee_id === employee.id)
      .map((absence) => ({
        start_date: absence.start_date,
        end_date: absence.end_date,
        half_day: absence.half_day,
        status: absence.status as VacationAbsence['status'],
        days_count: Number(absence.days_count),
      }));
    const balance = vacationBalance(
      {
        hire_date: employee.hire_date,
        termination_date: employee.termination_date,
        contract: contracts.get(employee.id) ?? [],
      },
      own,
      new Set(holidaysAt(employee.location_id).keys()),
      policy,
      query.year,
      today,
    );
    return { employee_id: employee.id, ...balance };
  });
  return { data, meta };
}
