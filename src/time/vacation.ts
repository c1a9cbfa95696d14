/**
 * Vacation balances (docs/time-rules.md, "Vacation balances"). Pure: the caller supplies the employee, the
 * company policy, the vacation absences and the holidays.
 */
import { absenceDaysCount, daysInRange } from './calendar.ts';
import { type ContractPeriod, earnedVacationDays, employedMinutes } from './contract.ts';

export type VacationEmployee = {
  hire_date: string;
  termination_date: string | null;
  /** The contract periods, in effective_from order (time/contract.ts). */
  contract: readonly ContractPeriod[];
};

export type VacationAbsence = {
  start_date: string;
  end_date: string;
  half_day: boolean;
  status: 'requested' | 'approved';
  days_count: number;
};

export type VacationPolicy = { carryOverMaxDays: number; carryOverExpiry: string };

export type VacationBalance = {
  year: number;
  entitled_days: number;
  used_days: number;
  pending_days: number;
  remaining_days: number;
  carry_over_days: number;
  carry_over_expires_at: string | null;
};

const roundToHalf = (value: number) => Math.round(value * 2) / 2;
const yearStart = (year: number) => `${String(year).padStart(4, '0')}-01-01`;
const yearEnd = (year: number) => `${String(year).padStart(4, '0')}-12-31`;

/** Days employed in the year, inclusive; 0 when not employed at all. */
export function daysEmployed(employee: VacationEmployee, year: number): number {
  const from = employee.hire_date > yearStart(year) ? employee.hire_date : yearStart(year);
  const end = employee.termination_date ?? yearEnd(year);
  const to = end < yearEnd(year) ? end : yearEnd(year);
  return to < from ? 0 : daysInRange(from, to);
}

/**
 * vacation_days_per_year prorated by the days employed in the year, to the nearest 0.5; with several contract
 * periods in the year, each period's days earn at its own rate.
 */
export function entitledDays(employee: VacationEmployee, year: number): number {
  const total = daysInRange(yearStart(year), yearEnd(year));
  if (daysEmployed(employee, year) === 0) return 0;
  const from = employee.hire_date > yearStart(year) ? employee.hire_date : yearStart(year);
  const end = employee.termination_date ?? yearEnd(year);
  const to = end < yearEnd(year) ? end : yearEnd(year);
  return roundToHalf(earnedVacationDays(employee.contract, { from, to }, total));
}

/** The part of an absence's days that falls in a year; a range across the new year is split by date. */
export function daysInYear(
  absence: VacationAbsence,
  year: number,
  employee: VacationEmployee,
  holidays: ReadonlySet<string>,
): number {
  if (absence.start_date >= yearStart(year) && absence.end_date <= yearEnd(year)) return absence.days_count;
  const from = absence.start_date > yearStart(year) ? absence.start_date : yearStart(year);
  const to = absence.end_date < yearEnd(year) ? absence.end_date : yearEnd(year);
  if (to < from) return 0;
  return absenceDaysCount(
    { start_date: from, end_date: to, half_day: absence.half_day },
    (date) => employedMinutes(employee, date),
    holidays,
  );
}

/**
 * The balance of a year on `today` (in the company's zone). Carry-over is the previous year's remaining days
 * (floored at 0), capped by the policy, and counts only until this year's expiry date (MM-DD) has passed.
 */
export function vacationBalance(
  employee: VacationEmployee,
  absences: readonly VacationAbsence[],
  holidays: ReadonlySet<string>,
  policy: VacationPolicy,
  year: number,
  today: string,
): VacationBalance {
  const hireYear = Number(employee.hire_date.slice(0, 4));
  let previousRemaining = 0;
  let balance: VacationBalance | null = null;
  for (let y = Math.min(hireYear, year); y <= year; y++) {
    const sum = (status: VacationAbsence['status']) =>
      absences
        .filter((absence) => absence.status === status)
        .reduce((total, absence) => total + daysInYear(absence, y, employee, holidays), 0);
    const expiresAt = `${String(y).padStart(4, '0')}-${policy.carryOverExpiry}`;
    const carryOver =
      today > expiresAt ? 0 : Math.min(Math.max(0, previousRemaining), policy.carryOverMaxDays);
    const entitled = entitledDays(employee, y);
    const used = sum('approved');
    const pending = sum('requested');
    const remaining = entitled + carryOver - used - pending;
    balance = {
      year: y,
      entitled_days: entitled,
      used_days: used,
      pending_days: pending,
      remaining_days: remaining,
      carry_over_days: carryOver,
      carry_over_expires_at: carryOver > 0 ? expiresAt : null,
    };
    previousRemaining = remaining;
  }
  return balance as VacationBalance;
}
