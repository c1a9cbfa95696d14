import type { Static } from 'typebox';
import type { Db } from '../../db/database.ts';
import { contractsOf } from '../../db/employees.ts';
import { isMissedOpenShift, openShifts } from '../../db/open-shifts.ts';

import type { AppDeps } from '../../platform/deps.ts';
import { invalid } from '../../platform/errors.ts';
import { DEFAULT_LIMIT, type Page, pageOf } from '../../platform/pagination.ts';
import type { ReachScope, TenantScope } from '../../platform/tenant.ts';
import { yearRangeProblem } from '../../time/calendar.ts';
import { formatInstant } from '../../time/clock.ts';
import { periodOn, weeklyMinutesOf } from '../../time/contract.ts';
import {
  bankedBeforeRows,
  dayFigures,
  type Figures,
  monthFigures,
  monthStart,
  settledMonthFigures,
  yearFigures,
} from './work-summaries.repo.ts';
import type { WorkSummary } from './work-summaries.schemas.ts';

export type WorkSummaryView = Static<typeof WorkSummary>;

export type ListWorkSummariesQuery = {
  period: 'day' | 'month' | 'year';
  from: string;
  to: string;
  employee_id?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  updated_since?: string | undefined;
};

/**
 * The first month whose rollup (workday_months) may differ from the read-time rule: months that ended at least
 * three days ago (UTC) are settled for every zone, and are read from their rollup.
 */
function firstUnsettledMonth(now: Temporal.Instant): string {
  const cutoff = now.toZonedDateTimeISO('UTC').toPlainDate().subtract({ days: 2 });
  return `${cutoff.toString().slice(0, 7)}-01`;
}

function validateRange(query: ListWorkSummariesQuery): void {
  const problem = yearRangeProblem(query.from, query.to);
  if (problem !== null) throw invalid({ 'query.to': problem });
}

/**
 * Rows per employee and period, paged by the key (employee_id, period_start). Day rows are the stored workdays
 * of the range; month rows aggregate them per calendar month for every employee employed in that month. Minute
 * fields count closed workdays only; the banked balance is the opening balance plus every closed workday from the
 * tracking start (docs/registry.md).
 */
export async function listWorkSummaries(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: TenantScope & ReachScope,
  query: ListWorkSummariesQuery,
): Promise<Page<WorkSummaryView>> {
  const { db, clock, cursors: codec } = deps;
  validateRange(query);
  const listing = `work-summaries|${query.period}|${query.from}|${query.to}|${query.employee_id ?? ''}`;
  const after = query.cursor ? (codec.decode(listing, query.cursor, 2) as [string, string]) : null;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const instant = clock.now();
  const now = new Date(instant.epochMilliseconds);
  const settledUntil = firstUnsettledMonth(instant);
  const read = {
    companyId: tenant.companyId,
    timezone: tenant.timezone,
    from: query.from,
    to: query.to,
    employeeId: query.employee_id,
    unitIds: tenant.reach?.unitIds,
    after,
    limit: limit + 1,
    now,
    settledUntil,
  };
  const rows =
    query.period === 'day'
      ? await dayFigures(db, read)
      : query.period === 'year'
        ? await yearFigures(db, read)
        : monthStart(query.to) < settledUntil
          ? // Every month of the range is settled: one rollup row per employee and month (the payroll case).
            await settledMonthFigures(db, read)
          : await monthFigures(db, read);

  const { data: page, meta } = pageOf(rows, {
    codec,
    listing,
    limit,
    keyOf: (row) => [row.employee_id, row.period_start],
  });
  const banked = page.every((row) => row.banked_through !== undefined)
    ? new Map<string, number>()
    : await bankedBefore(db, tenant, instant, page);
  // Each employee's open shift within the page's periods, if it is a probable missed clock-out: shown on the
  // period that holds its day.
  const missed = new Map(
    (
      await openShifts(db, tenant.companyId, {
        fromDate: page.reduce(
          (first, row) => (row.period_start < first ? row.period_start : first),
          query.from,
        ),
        toDate: page.reduce((last, row) => (row.period_end > last ? row.period_end : last), query.to),
        employeeIds: [...new Set(page.map((row) => row.employee_id))],
      })
    )
      .filter((row) => isMissedOpenShift(row, instant))
      .map((row) => [row.employee_id, row]),
  );
  // The contract terms each row prints: those in force on its last day (docs/time-rules.md, "Part-time").
  const contracts = await contractsOf(db, tenant.companyId, [...new Set(page.map((row) => row.employee_id))]);
  const termsOn = (employeeId: string, date: string) => {
    const periods = contracts.get(employeeId);
    if (!periods) throw new Error(`employee ${employeeId} has no contract period`);
    const period = periodOn(periods, date);
    return {
      contract_type: period.contract_type,
      weekly_minutes: weeklyMinutesOf(period, period.work_schedule),
      part_time_percentage: period.contract_type === 'part_time' ? period.part_time_percentage : null,
    };
  };
  const data = page.map((row): WorkSummaryView => {
    const balance = row.worked - row.expected;
    const running = row.banked_through ?? (banked.get(row.employee_id) ?? 0) + row.banked;
    banked.set(row.employee_id, running);
    return {
      employee_id: row.employee_id,
      period_start: row.period_start,
      period_end: row.period_end,
      worked_minutes: row.worked,
      break_minutes: row.breaks,
      night_minutes: row.night,
      overtime_minutes: row.overtime,
      complementary_minutes: row.complementary,
      overtime_counted_minutes: row.counted_overtime,
      holiday_worked_minutes: row.holiday_worked,
      on_call_worked_minutes: row.on_call_worked,
      expected_minutes: row.expected,
      balance_minutes: balance,
      banked_hours_balance_minutes: running,
      absences_minutes: row.absences,
      source_days: row.source_days,
      incomplete_days: row.incomplete_days,
      anomalies: row.anomalies,
      conflict_days: row.conflict_days,
      ...missedIn(missed.get(row.employee_id), row),
      ...termsOn(row.employee_id, row.period_end),
    };
  });
  return { data, meta };
}

/** Whether a row's period holds the employee's missed clock-out, and its `in`. */
function missedIn(
  open: { date: string; open_since: Date } | undefined,
  row: { period_start: string; period_end: string },
): { missing_clock_out: boolean; missing_clock_out_since: string | null } {
  const inPeriod = open !== undefined && open.date >= row.period_start && open.date <= row.period_end;
  return {
    missing_clock_out: inPeriod,
    missing_clock_out_since: inPeriod ? formatInstant(open.open_since) : null,
  };
}

/**
 * The banked balance of each employee on the page before its first row: the sum of worked − expected over its
 * closed workdays before that date. The page's rows of an employee are consecutive periods, so adding their
 * balances in order gives each row's cumulative figure.
 */
async function bankedBefore(
  db: Db,
  tenant: TenantScope,
  now: Temporal.Instant,
  page: Figures[],
): Promise<Map<string, number>> {
  const first = new Map<string, { before: string; zone: string }>();
  for (const row of page) {
    if (!first.has(row.employee_id)) first.set(row.employee_id, { before: row.period_start, zone: row.zone });
  }
  if (first.size === 0) return new Map();
  const rows = await bankedBeforeRows(db, tenant.companyId, {
    now: new Date(now.epochMilliseconds),
    settledUntil: firstUnsettledMonth(now),
    firsts: [...first.entries()].map(([employeeId, value]) => ({ employeeId, ...value })),
  });
  return new Map(rows.map((row) => [row.employee_id, row.banked]));
}
