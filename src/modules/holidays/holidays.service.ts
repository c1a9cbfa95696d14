import type { Static } from 'typebox';
import { selectEmployedDuring } from '../../db/employees.ts';
import { syncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import type { CompanyScope, TenantScope } from '../../platform/tenant.ts';
import { yearRangeProblem } from '../../time/calendar.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { locationExists } from '../locations/locations.service.ts';
import { assertMonthsOpen } from '../registry/months.service.ts';
import { chainHoliday } from '../registry/registry.service.ts';
import { recountAbsenceDays } from '../workdays/absence-days.ts';
import { applyHoliday } from '../workdays/consolidation.ts';
import { lockDaysOf, settleDays } from '../workdays/write-days.ts';
import { deleteHolidayRow, findHoliday, insertHoliday, selectHolidays } from './holidays.repo.ts';
import type { CreateHolidayBody, Holiday } from './holidays.schemas.ts';

export type HolidayView = Static<typeof Holiday>;

/**
 * A holiday of the company, or of one work centre (its employees only); the workdays of that date lose their
 * expected minutes in the same transaction.
 */
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
    // any writer of an employee's days (the owner's first step, write-days.ts).
    await lockDaysOf(tx, companyId, 'all');
    await assertMonthsOpen(tx, companyId, { from: input.date, to: input.date }, 'a holiday on that date');
    const locationId = input.location_id ?? null;
    if (locationId !== null && !(await locationExists(tx, companyId, locationId))) {
      throw invalid({ location_id: 'is not a location of this company' });
    }
    // The absences over that date count one working day less (absence-days.ts).
    const recount = await recountAbsenceDays(tx, companyId, {
      from: input.date,
      to: input.date,
      ...(locationId !== null ? { locationId } : {}),
    });
    const row = await insertHoliday(tx, companyId, input, now);
    if (!row) {
      throw invalid({
        date:
          locationId === null
            ? 'already has a holiday in this company'
            : 'already has a holiday in this work centre',
      });
    }
    await applyHoliday(tx, companyId, row, now);
    await chainHoliday(tx, companyId, row, 'added', now);
    // Stamped last, after every employee's day is rewritten: sync listings hold back what is stamped after a
    // running transaction's stamp (sync-stamp.ts), and a holiday over a large company takes a while.
    await recount(toDate(await syncStamp(tx, clock, companyId)));
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

/**
 * Removes a company holiday (a date entered by mistake): its date becomes a working day again, so every
 * employee of that date is consolidated again, in the same transaction and lock order as creating one. Refused
 * in a closed month.
 */
export async function deleteHoliday(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: TenantScope,
  id: string,
): Promise<void> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const now = toDate(clock.now());
  await db.transaction().execute(async (tx) => {
    await lockDaysOf(tx, companyId, 'all');
    const holiday = await findHoliday(tx, companyId, id);
    if (holiday === undefined) throw notFound('Holiday');
    const { date } = holiday;
    await assertMonthsOpen(tx, companyId, { from: date, to: date }, 'removing a holiday on that date');
    const recount = await recountAbsenceDays(tx, companyId, {
      from: date,
      to: date,
      ...(holiday.location_id !== null ? { locationId: holiday.location_id } : {}),
    });
    await deleteHolidayRow(tx, companyId, id);
    await chainHoliday(tx, companyId, holiday, 'removed', now);
    // A local holiday was the calendar of its work centre's employees only.
    const employees = (await selectEmployedDuring(tx, companyId, date, date).execute()).filter(
      (employee) => holiday.location_id === null || employee.location_id === holiday.location_id,
    );
    const touched = employees.map((employee) => ({ employeeId: employee.id, from: date, to: date }));
    await settleDays(
      tx,
      tenant,
      clock.now(),
      { result: null, touched, events: [] },
      { what: 'removing a holiday' },
    );
    await recount(toDate(await syncStamp(tx, clock, companyId))); // Stamped last, as when a holiday is added.
  });
}
