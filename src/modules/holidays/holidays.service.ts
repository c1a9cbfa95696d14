import type { Static } from 'typebox';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid } from '../../platform/errors.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { yearRangeProblem } from '../../time/calendar.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { lockEmployees } from '../employees/employees.service.ts';
import { assertMonthsOpen } from '../registry/months.service.ts';
import { applyHoliday } from '../workdays/consolidation.ts';
import { insertHoliday, selectHolidays } from './holidays.repo.ts';
import type { CreateHolidayBody, Holiday } from './holidays.schemas.ts';

export type HolidayView = Static<typeof Holiday>;

/** A company holiday; the workdays of that date lose their expected minutes in the same transaction. */
export async function createHoliday(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  input: Static<typeof CreateHolidayBody>,
): Promise<HolidayView> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const now = toDate(clock.now());
  return await db.transaction().execute(async (tx) => {
    // A holiday rewrites a day of every employee: it takes every employee's row lock first, in id order, like
    // any writer of an employee's days (docs/architecture.md, Lock order).
    await lockEmployees(tx, companyId);
    await assertMonthsOpen(tx, companyId, { from: input.date, to: input.date }, 'a holiday on that date');
    const row = await insertHoliday(tx, companyId, input, now);
    if (!row) throw invalid({ date: 'already has a holiday in this company' });
    await applyHoliday(tx, companyId, row.date, now);
    return { ...row, created_at: formatInstant(row.created_at), updated_at: formatInstant(row.updated_at) };
  });
}

/** The company's holidays in a range of at most a year (422 otherwise), by date. */
export async function listHolidays(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  range: { from: string; to: string },
): Promise<{ data: HolidayView[] }> {
  const problem = yearRangeProblem(range.from, range.to);
  if (problem) throw invalid({ to: problem });
  const rows = await selectHolidays(deps.db, tenant.companyId, range.from, range.to);
  return {
    data: rows.map((row) => ({
      ...row,
      created_at: formatInstant(row.created_at),
      updated_at: formatInstant(row.updated_at),
    })),
  };
}
