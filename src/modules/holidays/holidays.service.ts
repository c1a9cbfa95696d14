import type { Static } from 'typebox';
import { tenantScopeOf } from '../../db/companies.ts';
import type { Executor } from '../../db/database.ts';
import { selectEmployedDuring } from '../../db/employees.ts';
import { syncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import type { CompanyScope, TenantScope } from '../../platform/tenant.ts';
import { yearRangeProblem } from '../../time/calendar.ts';
import type { Clock } from '../../time/clock.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { audienceLocation, type HolidayAudience, inCalendarOf } from '../../time/holiday-audience.ts';
import { assertMonthsOpen, sealedThrough } from '../registry/months.service.ts';
import { chainHoliday } from '../registry/registry.service.ts';
import { recountAbsenceDays } from '../workdays/absence-days.ts';
import { applyHoliday } from '../workdays/consolidation.ts';
import { type DaysTenant, lockDaysOf, settleDays } from '../workdays/write-days.ts';
import {
  deleteHolidayRow,
  findHoliday,
  type HolidayInput,
  insertHoliday,
  locationExists,
  regionsOf,
  selectHolidays,
  selectShippedHolidays,
} from './holidays.repo.ts';
import type { CreateHolidayBody, Holiday } from './holidays.schemas.ts';
import { shippedHolidays, shippedYears } from './shipped-calendar.ts';

export type HolidayView = Static<typeof Holiday>;
type Recount = (at: Date) => Promise<void>;

const toView = (row: Awaited<ReturnType<typeof selectHolidays>>[number]): HolidayView => ({
  ...row,
  // A work centre's holiday added before scopes existed (or by a node of the release before) is its local one.
  scope: row.scope === 'company' && row.location_id !== null ? 'local' : row.scope,
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

/** The absences a holiday's date recounts: those of its audience's employees (workdays.repo.ts, inCalendarOf). */
const recountScope = (holiday: HolidayAudience & { date: string }) => ({
  from: holiday.date,
  to: holiday.date,
  ...(audienceLocation(holiday) ?? {}),
});

/**
 * Adds one holiday, inside a transaction holding every employee's lock, on an open date: the workdays of its
 * audience lose their expected minutes and its chain entry is written. Undefined when that calendar already has
 * a holiday on that date. The recount it returns is called after the sync stamp (absence-days.ts).
 */
async function addHoliday(tx: Executor, companyId: string, input: HolidayInput, now: Date) {
  const recount = await recountAbsenceDays(tx, companyId, recountScope(input));
  const row = await insertHoliday(tx, companyId, input, now);
  if (!row) return undefined;
  await applyHoliday(tx, companyId, row, now);
  await chainHoliday(tx, companyId, row, 'added', now);
  return { row, recount };
}

/**
 * Removes one holiday, inside a transaction holding every employee's lock, on an open date: its date is a
 * working day again for its audience, consolidated again in the same transaction.
 */
async function removeHoliday(
  tx: Executor,
  tenant: DaysTenant,
  clock: Clock,
  holiday: HolidayAudience & { id: string; date: string; name: string },
  now: Date,
): Promise<Recount> {
  const { companyId } = tenant;
  const { date } = holiday;
  const recount = await recountAbsenceDays(tx, companyId, recountScope(holiday));
  await deleteHolidayRow(tx, companyId, holiday.id);
  await chainHoliday(tx, companyId, holiday, 'removed', now);
  const employees = (await selectEmployedDuring(tx, companyId, date, date).execute()).filter((employee) =>
    inCalendarOf(holiday, employee.location_id),
  );
  const touched = employees.map((employee) => ({ employeeId: employee.id, from: date, to: date }));
  await settleDays(
    tx,
    tenant,
    clock.now(),
    { result: null, touched, events: [] },
    { what: 'removing a holiday', records: false },
  );
  return recount;
}

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
    const added = await addHoliday(
      tx,
      companyId,
      {
        date: input.date,
        name: input.name,
        location_id: locationId,
        scope: locationId === null ? 'company' : 'local',
        name_local: null,
      },
      now,
    );
    if (!added) {
      throw invalid({
        date:
          locationId === null
            ? 'already has a holiday in this company'
            : 'already has a holiday in this work centre',
      });
    }
    // Stamped last, after every employee's day is rewritten: sync listings hold back what is stamped after a
    // running transaction's stamp (sync-stamp.ts), and a holiday over a large company takes a while.
    await added.recount(toDate(await syncStamp(tx, clock, companyId)));
    return toView(added.row);
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
  return { data: rows.map(toView) };
}

/**
 * A year's holidays: with a work centre, those of its employees' calendar (national, its region's, its local
 * ones, the company's); without, every holiday of the company that year, each naming its centre and scope.
 */
export async function listYearHolidays(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  query: { year: number; location_id?: string },
): Promise<{ data: HolidayView[] }> {
  const { db } = deps;
  const locationId = query.location_id;
  if (locationId !== undefined && !(await locationExists(db, tenant.companyId, locationId))) {
    throw invalid({ location_id: 'is not a location of this company' });
  }
  const rows = await selectHolidays(db, tenant.companyId, `${query.year}-01-01`, `${query.year}-12-31`);
  const shown = locationId === undefined ? rows : rows.filter((row) => inCalendarOf(row, locationId));
  return { data: shown.map(toView) };
}

/** A year's holidays in one employee's calendar: their work centre's (null: those of the employees without one). */
export async function calendarHolidays(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  year: number,
  locationId: string | null,
): Promise<HolidayView[]> {
  const rows = await selectHolidays(deps.db, tenant.companyId, `${year}-01-01`, `${year}-12-31`);
  return rows.filter((row) => inCalendarOf(row, locationId)).map(toView);
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
    const recount = await removeHoliday(tx, tenant, clock, holiday, now);
    await recount(toDate(await syncStamp(tx, clock, companyId))); // Stamped last, as when a holiday is added.
  });
}

/** What bringing a company's calendar in line with its regions changed. */
export type RegionalCalendarChange = { added: number; removed: number };

/**
 * Brings the company's holidays in line with its regions and the shipped calendar (data/holidays/es.json), in
 * the open period only: the national holidays of every shipped year once any region is set; each work centre's
 * region's (its own, or the company's default); and the default region's for the employees without a centre.
 * A shipped holiday no longer due (a region changed) is removed; a date that already has a holiday in that
 * calendar keeps it. `change`, when given, runs first in the same transaction (setting a region).
 */
export async function applyRegionalCalendar<T>(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  change?: (tx: Executor, stamp: Date) => Promise<T>,
): Promise<{ result: T | undefined; calendar: RegionalCalendarChange }> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  return await db.transaction().execute(async (tx) => {
    await lockDaysOf(tx, companyId, 'all');
    // Stamped first: the change's rows (a work centre's region) are in sync listings and carry the stamp.
    const stamp = toDate(await syncStamp(tx, clock, companyId));
    const result = change ? await change(tx, stamp) : undefined;
    const days = await tenantScopeOf(tx, companyId);
    if (!days) throw notFound('Company');
    const { defaultRegion, locations } = await regionsOf(tx, companyId);
    const after = (await sealedThrough(tx, companyId)) ?? '1999-12-31';
    // A shipped holiday is one row per calendar (centre or none), date and scope.
    const keyOf = (row: HolidayAudience & { date: string }) => `${row.location_id}|${row.date}|${row.scope}`;
    const due = new Map<string, HolidayInput>();
    const want = (input: HolidayInput) => {
      if (input.date > after) due.set(keyOf(input), input);
    };
    const anyRegion = defaultRegion !== null || locations.some((location) => location.region !== null);
    for (const year of anyRegion ? shippedYears() : []) {
      for (const holiday of shippedHolidays(year, null).national) {
        want({ ...holiday, name_local: null, location_id: null, scope: 'national' });
      }
      const regional = (region: string | null, locationId: string | null) => {
        for (const holiday of shippedHolidays(year, region).regional) {
          want({
            ...holiday,
            name_local: holiday.name_local ?? null,
            location_id: locationId,
            scope: 'regional',
          });
        }
      };
      regional(defaultRegion, null);
      for (const location of locations) regional(location.region ?? defaultRegion, location.id);
    }
    const calendar = { added: 0, removed: 0 };
    const recounts: Recount[] = [];
    for (const row of await selectShippedHolidays(tx, companyId, after)) {
      if (due.delete(keyOf(row))) continue;
      recounts.push(await removeHoliday(tx, days, clock, row, stamp));
      calendar.removed += 1;
    }
    for (const input of due.values()) {
      const added = await addHoliday(tx, companyId, input, stamp);
      if (!added) continue;
      recounts.push(added.recount);
      calendar.added += 1;
    }
    for (const recount of recounts) await recount(stamp);
    return { result, calendar };
  });
}
