/**
 * Effective-dated contracts (docs/registry.md, Contracts are effective-dated). Pure: an employee's contract is
 * its periods in effective_from order; a period holds from its effective_from until the next one starts, and the
 * first also covers any date before it (a hire date moved earlier keeps the first values).
 */
import { daysInRange, scheduledMinutes } from './calendar.ts';

export type ContractPeriod = {
  effective_from: string;
  work_schedule: readonly number[];
  vacation_days_per_year: number;
};

/** The period in effect on a date ('YYYY-MM-DD'). */
export function periodOn(contract: readonly ContractPeriod[], date: string): ContractPeriod {
  let current = contract[0];
  if (!current) throw new Error('a contract has at least one period');
  for (const period of contract) {
    if (period.effective_from <= date) current = period;
    else break;
  }
  return current;
}

/** The scheduled minutes of a date under the contract. */
export const contractMinutes = (contract: readonly ContractPeriod[], date: Temporal.PlainDate): number =>
  scheduledMinutes(periodOn(contract, date.toString()).work_schedule, date);

/**
 * The scheduled minutes of a date while employed: 0 before the hire date and after the termination date. What an
 * absence counts (docs/time-rules.md): a vacation day after the employment has ended was not taken, and is owed
 * in the final settlement instead.
 */
export function employedMinutes(
  employee: { hire_date: string; termination_date: string | null; contract: readonly ContractPeriod[] },
  date: Temporal.PlainDate,
): number {
  const day = date.toString();
  if (day < employee.hire_date) return 0;
  if (employee.termination_date !== null && day > employee.termination_date) return 0;
  return contractMinutes(employee.contract, date);
}

/**
 * The vacation days a range of days earns: each period's yearly days prorated by the days of the range it
 * covers, over the days of the year (`yearDays`). Not rounded.
 */
export function earnedVacationDays(
  contract: readonly ContractPeriod[],
  range: { from: string; to: string },
  yearDays: number,
): number {
  let earned = 0;
  contract.forEach((period, index) => {
    const next = contract[index + 1];
    const start = index === 0 || period.effective_from < range.from ? range.from : period.effective_from;
    const endOfPeriod = next
      ? Temporal.PlainDate.from(next.effective_from).subtract({ days: 1 }).toString()
      : null;
    const end = endOfPeriod !== null && endOfPeriod < range.to ? endOfPeriod : range.to;
    if (end >= start) earned += (period.vacation_days_per_year * daysInRange(start, end)) / yearDays;
  });
  return earned;
}
