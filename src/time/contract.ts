/**
 * Effective-dated contracts (docs/registry.md, Contracts are effective-dated). Pure: an employee's contract is
 * its periods in effective_from order; a period holds from its effective_from until the next one starts, and the
 * first also covers any date before it (a hire date moved earlier keeps the first values).
 */
import { daysInRange, scheduledMinutes } from './calendar.ts';

export type ContractType = 'full_time' | 'part_time';

/**
 * A contract period's part-time terms (ET art. 12; docs/time-rules.md, "Part-time"). `weekly_minutes` null is the
 * sum of the period's work_schedule; a part-time period always has its percentage of a comparable full-time
 * worker's hours, and may have an agreed limit of complementary hours (null: 30 %).
 */
export type ContractTerms = {
  contract_type: ContractType;
  weekly_minutes: number | null;
  part_time_percentage: number | null;
  complementary_limit_percentage: number | null;
  /** How the period's overtime is compensated (ET 35.1): paid, or with rest (time off); null: the company's. */
  overtime_compensation: 'paid' | 'time_off' | null;
};

export const FULL_TIME: ContractTerms = {
  contract_type: 'full_time',
  weekly_minutes: null,
  part_time_percentage: null,
  complementary_limit_percentage: null,
  overtime_compensation: null,
};

/** ET 34.1: forty hours a week is the longest ordinary week; a part-time percentage given by no one is of it. */
export const FULL_TIME_WEEKLY_MINUTES = 40 * 60;
/** ET 12.5.c: agreed complementary hours may not exceed 30 % of the contract's ordinary hours. */
export const DEFAULT_COMPLEMENTARY_LIMIT_PERCENTAGE = 30;

export type ContractPeriod = ContractTerms & {
  effective_from: string;
  work_schedule: readonly number[];
  vacation_days_per_year: number;
};

/** The contracted minutes of a week: the terms' weekly_minutes, or the schedule's sum. */
export const weeklyMinutesOf = (terms: ContractTerms, schedule: readonly number[]): number =>
  terms.weekly_minutes ?? schedule.reduce((sum, minutes) => sum + minutes, 0);

/**
 * The terms a change gives a period whose terms were `base` (a field left out keeps the base's), or the field
 * errors that refuse it. Full-time has no percentage and no complementary limit (switching to it drops them);
 * a part-time period's percentage is, when not given, the base's, or its weekly minutes over a 40-hour week.
 */
export function changedTerms(
  base: ContractTerms,
  input: Partial<ContractTerms>,
  schedule: readonly number[],
): { terms: ContractTerms } | { errors: Record<string, string> } {
  const type = input.contract_type ?? base.contract_type;
  const weekly = input.weekly_minutes !== undefined ? input.weekly_minutes : base.weekly_minutes;
  const compensation =
    input.overtime_compensation !== undefined ? input.overtime_compensation : base.overtime_compensation;
  if (type === 'full_time') {
    const errors: Record<string, string> = {};
    for (const field of ['part_time_percentage', 'complementary_limit_percentage'] as const) {
      if (input[field] !== undefined && input[field] !== null)
        errors[field] = 'applies to a part_time contract only';
    }
    if (Object.keys(errors).length > 0) return { errors };
    return { terms: { ...FULL_TIME, weekly_minutes: weekly, overtime_compensation: compensation } };
  }
  const given =
    input.part_time_percentage ?? (base.contract_type === 'part_time' ? base.part_time_percentage : null);
  const derived =
    Math.round(
      (weeklyMinutesOf({ ...base, weekly_minutes: weekly }, schedule) * 10_000) / FULL_TIME_WEEKLY_MINUTES,
    ) / 100;
  const percentage = given ?? derived;
  if (!(percentage > 0 && percentage < 100)) {
    return {
      errors: {
        part_time_percentage: 'is required for part_time when the week is 40 hours or more',
      },
    };
  }
  return {
    terms: {
      contract_type: 'part_time',
      weekly_minutes: weekly,
      part_time_percentage: percentage,
      complementary_limit_percentage:
        input.complementary_limit_percentage !== undefined
          ? input.complementary_limit_percentage
          : base.contract_type === 'part_time'
            ? base.complementary_limit_percentage
            : null,
      overtime_compensation: compensation,
    },
  };
}

/** Whether two periods' terms are the same. */
export const sameTerms = (a: ContractTerms, b: ContractTerms): boolean =>
  a.contract_type === b.contract_type &&
  a.weekly_minutes === b.weekly_minutes &&
  a.part_time_percentage === b.part_time_percentage &&
  a.complementary_limit_percentage === b.complementary_limit_percentage &&
  a.overtime_compensation === b.overtime_compensation;

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
