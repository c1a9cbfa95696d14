import { type Insertable, sql } from 'kysely';
import { absencesWithType } from '../../db/absences.ts';
import { ownRecordSql } from '../../db/check-ins.ts';
import type { Executor } from '../../db/database.ts';
import { companyRegistryPolicy, companyTrackingStart } from '../../db/employees.ts';
import type { CheckInType, WorkdaysTable } from '../../db/schema.ts';
import {
  bankedOf,
  complementaryOf,
  countedOvertimeOf,
  holidayWorkedOf,
  overtimeOf,
  settledOf,
} from '../../db/workday-figures.ts';
import { audienceLocation, type HolidayAudience, inCalendarOf } from '../../time/holiday-audience.ts';

/**
 * Claims (FOR UPDATE SKIP LOCKED, across tenants) up to `batch` employees whose materialised calendar ends before
 * `through` and who are still employed past it, with their account's time zone.
 */
export async function claimEmployeesBehind(db: Executor, through: string, batch: number) {
  const due = await sql<{ company_id: string; id: string; consolidated_through: string; timezone: string }>`
    select e.company_id, e.id, e.consolidated_through, a.timezone
    from employees e
    join companies t on t.id = e.company_id
    join companies a on a.id = coalesce(t.sandbox_of, t.id)
    where e.consolidated_through < ${through}::date
      and (e.termination_date is null or e.termination_date > e.consolidated_through)
    limit ${batch}
    for update of e skip locked`.execute(db);
  return due.rows;
}

/**
 * An employee's active clock events in [from, before), in time order (voided ones count in no figure), with
 * whether each is the worker's own record (db/check-ins.ts) and the worker's answer to one that is not.
 */
export async function findClockEvents(
  db: Executor,
  companyId: string,
  employeeId: string,
  from: Date,
  before: Date,
): Promise<
  Array<{
    type: CheckInType;
    timestamp: Date;
    own: boolean;
    response: 'accepted' | 'rejected' | null;
    work_mode: 'on_site' | 'remote' | null;
  }>
> {
  return await db
    .selectFrom('check_ins')
    .select(['type', 'timestamp', ownRecordSql.as('own'), 'worker_response as response', 'work_mode'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'active')
    .where('timestamp', '>=', from)
    .where('timestamp', '<', before)
    .orderBy('timestamp')
    .execute();
}

/**
 * The holiday dates of an employee's calendar within the inclusive range: the company's, and those of the work
 * centre the employee is assigned to (null: none), by inCalendarOf.
 */
export async function findHolidayDates(
  db: Executor,
  companyId: string,
  from: string,
  to: string,
  locationId: string | null,
): Promise<string[]> {
  const rows = await db
    .selectFrom('holidays')
    .select('date')
    .distinct()
    .where('company_id', '=', companyId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .where((where) =>
      locationId === null
        ? where('location_id', 'is', null)
        : where.or([
            where.and([where('location_id', 'is', null), where('scope', '<>', 'regional')]),
            where('location_id', '=', locationId),
          ]),
    )
    .orderBy('date')
    .execute();
  return rows.map((row) => row.date);
}

/**
 * Whether any of these work centres (null: no centre) has a holiday of its own on or after a date: a centre's
 * local or regional ones, and for the employees without a centre the default region's.
 */
export async function hasLocalHolidays(
  db: Executor,
  companyId: string,
  locationIds: ReadonlyArray<string | null>,
  from: string,
): Promise<boolean> {
  const ids = locationIds.filter((id): id is string => id !== null);
  const unassigned = locationIds.includes(null);
  if (ids.length === 0 && !unassigned) return false;
  const row = await db
    .selectFrom('holidays')
    .select('id')
    .where('company_id', '=', companyId)
    .where((where) =>
      where.or([
        ...(ids.length > 0 ? [where('location_id', 'in', ids)] : []),
        ...(unassigned
          ? [where.and([where('location_id', 'is', null), where('scope', '=', 'regional')])]
          : []),
      ]),
    )
    .where('date', '>=', from)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export type HolidayRow = HolidayAudience & { date: string; name: string };

/** Every holiday of the company within the inclusive range (company-wide and local), in date order. */
export async function findHolidays(
  db: Executor,
  companyId: string,
  from: string,
  to: string,
): Promise<HolidayRow[]> {
  return await db
    .selectFrom('holidays')
    .select(['date', 'name', 'location_id', 'scope'])
    .where('company_id', '=', companyId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .orderBy('date')
    .orderBy('location_id', (order) => order.nullsFirst())
    .execute();
}

/**
 * The calendar of each work centre from a company's holidays: the company's and the centre's own, by date, with
 * their names (null: no centre, the company's only). Each centre's is made once, when first asked for.
 */
export function holidayCalendars(
  rows: readonly HolidayRow[],
): (locationId: string | null) => ReadonlyMap<string, string> {
  const calendars = new Map<string | null, Map<string, string>>();
  return (locationId) => {
    let names = calendars.get(locationId);
    if (!names) {
      names = new Map();
      for (const row of rows) {
        if (!inCalendarOf(row, locationId)) continue;
        // A company-wide holiday comes first and keeps its name.
        if (!names.has(row.date)) names.set(row.date, row.name);
      }
      calendars.set(locationId, names);
    }
    return names;
  };
}

/** The employee row consolidation reads, locked FOR UPDATE (the lock order's first step) unless only read. */
export async function lockEmployeeCalendar(
  db: Executor,
  companyId: string,
  employeeId: string,
  options: { lock: boolean } = { lock: true },
) {
  const query = db
    .selectFrom('employees')
    .select([
      'timezone',
      'location_id',
      'work_schedule',
      'hire_date',
      'termination_date',
      'consolidated_through',
      'tracking_start_date',
      companyTrackingStart.as('company_tracking_start_date'),
      companyRegistryPolicy.as('registry_policy'),
    ])
    .where('company_id', '=', companyId)
    .where('id', '=', employeeId);
  return await (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

/** The dates of an employee's range marked force majeure (ET 35.3). */
export async function forceMajeureDates(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: DateRange,
) {
  const rows = await db
    .selectFrom('force_majeure_days')
    .select('date')
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('date', '>=', range.from)
    .where('date', '<=', range.to)
    .execute();
  return new Set(rows.map((row) => row.date));
}

/** A tenant's overtime compensation periods (migration 0049), in effective_from order. */
export async function compensationPeriods(db: Executor, companyId: string) {
  return await db
    .selectFrom('overtime_compensation_periods')
    .select(['effective_from', 'compensation'])
    .where('company_id', '=', companyId)
    .orderBy('effective_from')
    .execute();
}

/** Takes the row locks of some employees of a tenant, in the order given (the caller sorts by id). */
export async function lockEmployeeRows(
  db: Executor,
  companyId: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .selectFrom('employees')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** An employee's approved absences overlapping the inclusive range (the days they cover). */
export async function approvedAbsenceSpans(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: DateRange,
) {
  return await db
    .selectFrom('absences')
    .select(['start_date', 'end_date', 'half_day'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'approved')
    .where('start_date', '<=', range.to)
    .where('end_date', '>=', range.from)
    .execute();
}

export type DateRange = { from: string; to: string };

/** The columns of a stored workday that are its figures (all but who, when consolidated). */
export const WORKDAY_FIGURES = [
  'date',
  'worked_minutes',
  'break_minutes',
  'night_minutes',
  'expected_minutes',
  'absences_minutes',
  'anomalies',
  'check_ins',
  'tracked',
  'incomplete_shifts',
  'open_since',
  'conflict',
  'part_time',
  'overtime_paid',
  'holiday',
  'force_majeure',
  'on_call_minutes',
] as const;

/** An employee's stored workday figures in an inclusive range, in date order. */
export async function storedWorkdays(db: Executor, companyId: string, employeeId: string, range: DateRange) {
  return await db
    .selectFrom('workdays')
    .select(WORKDAY_FIGURES)
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('date', '>=', range.from)
    .where('date', '<=', range.to)
    .orderBy('date')
    .execute();
}

/** Replaces an employee's stored workdays of a range with `rows` (inserted in chunks of 1,000). */
export async function replaceWorkdays(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: DateRange,
  rows: Array<Insertable<WorkdaysTable>>,
): Promise<void> {
  await db
    .deleteFrom('workdays')
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('date', '>=', range.from)
    .where('date', '<=', range.to)
    .execute();
  for (let index = 0; index < rows.length; index += 1000) {
    await db
      .insertInto('workdays')
      .values(rows.slice(index, index + 1000))
      .execute();
  }
}

export async function setConsolidatedThrough(
  db: Executor,
  companyId: string,
  employeeId: string,
  through: string,
) {
  await db
    .updateTable('employees')
    .set({ consolidated_through: through })
    .where('company_id', '=', companyId)
    .where('id', '=', employeeId)
    .execute();
}

/**
 * A new holiday's date across the company: days without check-ins lose their row, the others their expected and
 * absence minutes (on a holiday nobody is expected and no absence removes minutes).
 */
export async function clearExpectedOn(
  db: Executor,
  companyId: string,
  date: string,
  holiday: HolidayAudience,
  now: Date,
): Promise<void> {
  // A local holiday touches the employees of its work centre only (a regional one without a centre, those
  // without a centre).
  const audience = audienceLocation(holiday);
  const atLocation = (id: string | null) =>
    db
      .selectFrom('employees')
      .select('employees.id')
      .where('employees.company_id', '=', companyId)
      .where('employees.location_id', id === null ? 'is' : '=', id);
  let removed = db
    .deleteFrom('workdays')
    .where('company_id', '=', companyId)
    .where('date', '=', date)
    .where('check_ins', '=', 0);
  let cleared = db
    .updateTable('workdays')
    .set({ expected_minutes: 0, absences_minutes: 0, consolidated_at: now })
    .where('company_id', '=', companyId)
    .where('date', '=', date);
  // Every day of the audience on the date is a holiday now, a worked one too (migration 0049).
  let flagged = db
    .updateTable('workdays')
    .set({ holiday: true, consolidated_at: now })
    .where('company_id', '=', companyId)
    .where('date', '=', date);
  if (audience !== null) {
    removed = removed.where('employee_id', 'in', atLocation(audience.locationId));
    cleared = cleared.where('employee_id', 'in', atLocation(audience.locationId));
    flagged = flagged.where('employee_id', 'in', atLocation(audience.locationId));
  }
  await flagged.execute();
  // A published shift on the date makes it a worked holiday: its expected minutes stay (engine.ts).
  const planned = db
    .selectFrom('shifts')
    .select('shifts.employee_id')
    .where('shifts.company_id', '=', companyId)
    .where('shifts.date', '=', date)
    .where('shifts.status', '=', 'published');
  removed = removed.where('employee_id', 'not in', planned);
  cleared = cleared.where('employee_id', 'not in', planned);
  await removed.execute();
  await cleared.execute();
}

const firstOfMonth = (date: string) => `${date.slice(0, 7)}-01`;

/**
 * Recomputes the monthly rollups (workday_months) of the months a date range touches, for one employee or, with
 * null, the whole company. A day counts as closed in a rollup when its stored figures say so (no incomplete
 * shift, no shift without an out); readers use rollups only for months where that equals the read-time rule.
 */
export async function refreshMonths(
  db: Executor,
  companyId: string,
  employeeId: string | null,
  range: DateRange,
): Promise<void> {
  const from = firstOfMonth(range.from);
  const until = Temporal.PlainDate.from(firstOfMonth(range.to)).add({ months: 1 }).toString();
  let stale = db
    .deleteFrom('workday_months')
    .where('company_id', '=', companyId)
    .where('month', '>=', from)
    .where('month', '<', until);
  if (employeeId !== null) stale = stale.where('employee_id', '=', employeeId);
  await stale.execute();
  const employee = employeeId === null ? sql`` : sql`and employee_id = ${employeeId}::uuid`;
  const settled = settledOf(sql`workdays`);
  await sql`
    insert into workday_months (company_id, employee_id, month, worked_minutes, break_minutes, night_minutes,
                                overtime_minutes, complementary_minutes, overtime_counted_minutes,
                                holiday_worked_minutes, on_call_worked_minutes, expected_minutes,
                                absences_minutes, source_days,
                                incomplete_days, anomalies, conflict_days, banked_minutes)
    select company_id, employee_id, date_trunc('month', date)::date,
           coalesce(sum(worked_minutes) filter (where ${settled}), 0),
           coalesce(sum(break_minutes) filter (where ${settled}), 0),
           coalesce(sum(night_minutes) filter (where ${settled}), 0),
           coalesce(sum(${overtimeOf(sql`workdays`)}) filter (where ${settled}), 0),
           coalesce(sum(${complementaryOf(sql`workdays`)}) filter (where ${settled}), 0),
           coalesce(sum(${countedOvertimeOf(sql`workdays`)}) filter (where ${settled}), 0),
           coalesce(sum(${holidayWorkedOf(sql`workdays`)}) filter (where ${settled}), 0),
           coalesce(sum(on_call_minutes) filter (where ${settled}), 0),
           coalesce(sum(expected_minutes) filter (where ${settled}), 0),
           coalesce(sum(absences_minutes) filter (where ${settled}), 0),
           count(*) filter (where ${settled}),
           count(*) filter (where not (${settled})),
           sum(anomalies),
           count(*) filter (where conflict),
           coalesce(sum(${bankedOf(sql`workdays`)}) filter (where ${settled} and tracked), 0)
    from workdays
    where company_id = ${companyId}::uuid ${employee}
      and date >= ${from}::date and date < ${until}::date
    group by company_id, employee_id, date_trunc('month', date)`.execute(db);
}

/** Which requested and approved absences a change of calendar can recount (absence-days.ts). */
export type AbsenceDayScope = {
  /** The dates whose calendar changes, inclusive; always in the open period. */
  from: string;
  to: string;
  /**
   * One employee's absences; otherwise every employee's (of `locationId`'s centre when given, of the employees
   * without a centre when null).
   */
  employeeId?: string;
  locationId?: string | null;
};

/** The requested and approved absences overlapping a scope, with their type and their employee's centre. */
export async function absencesOverlapping(db: Executor, companyId: string, scope: AbsenceDayScope) {
  let query = absencesWithType(db, companyId)
    .innerJoin('employees', (join) =>
      join
        .onRef('employees.company_id', '=', 'absences.company_id')
        .onRef('employees.id', '=', 'absences.employee_id'),
    )
    .select([
      'absences.id',
      'absences.employee_id',
      'absences.status',
      'absence_types.key as type_key',
      'absences.start_date',
      'absences.end_date',
      'absences.half_day',
      'employees.location_id',
      'employees.hire_date',
      'employees.termination_date',
    ])
    .where('absences.status', 'in', ['requested', 'approved'])
    .$narrowType<{ status: 'requested' | 'approved' }>()
    .where('absences.end_date', '>=', scope.from)
    .where('absences.start_date', '<=', scope.to);
  if (scope.employeeId !== undefined) query = query.where('absences.employee_id', '=', scope.employeeId);
  if (scope.locationId !== undefined) {
    query = query.where('employees.location_id', scope.locationId === null ? 'is' : '=', scope.locationId);
  }
  return await query.orderBy('absences.id').execute();
}

/** Adds `delta` days (negative to remove) to an absence's days_count, as a change at `at`. */
export async function addAbsenceDays(
  db: Executor,
  companyId: string,
  id: string,
  delta: number,
  at: Date,
): Promise<number> {
  const row = await db
    .updateTable('absences')
    .set((eb) => ({
      days_count: sql<string>`${eb.ref('days_count')} + ${String(delta)}::numeric`,
      updated_at: at,
    }))
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returning('days_count')
    .executeTakeFirstOrThrow();
  return Number(row.days_count);
}

export { audienceLocation, type HolidayAudience, inCalendarOf };

/**
 * The planned work minutes of each date of the range that has published shifts (issue 38): their day's expected
 * minutes come from them instead of the weekly schedule (docs/time-rules.md, "Planned shifts").
 */
export async function publishedShiftMinutes(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: DateRange,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('shifts')
    .select(['date', (eb) => eb.fn.sum<string>('planned_minutes').as('minutes')])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'published')
    .where('date', '>=', range.from)
    .where('date', '<=', range.to)
    .groupBy('date')
    .execute();
  return new Map(rows.map((row) => [row.date, Number(row.minutes)]));
}

/**
 * An employee's published shifts of one kind dated within the range, with their local times: the plan remote work
 * is measured against (`work`), or the availability whose worked minutes are reported apart (`on_call`).
 */
export async function publishedShiftTimes(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: DateRange,
  kind: 'work' | 'on_call',
) {
  return await db
    .selectFrom('shifts')
    .select(['date', 'start_time', 'end_time'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'published')
    .where('kind', '=', kind)
    .where('date', '>=', range.from)
    .where('date', '<=', range.to)
    .orderBy('date')
    .execute();
}

/**
 * Employees with stored days whose on-call figure is not settled yet (migration 0050), with their tenant's zone:
 * a batch for the maintenance.
 */
export async function employeesWithUnsettledOnCall(db: Executor, batch: number) {
  const due = await sql<{ company_id: string; employee_id: string; timezone: string }>`
    select u.company_id, u.employee_id, a.timezone
    from (select distinct company_id, employee_id from workdays where on_call_minutes is null limit ${batch}) u
    join companies t on t.id = u.company_id
    join companies a on a.id = coalesce(t.sandbox_of, t.id)`.execute(db);
  return due.rows;
}

/** An employee's stored dates whose on-call figure is not settled yet, in order. */
export async function unsettledOnCallDates(db: Executor, companyId: string, employeeId: string) {
  const rows = await db
    .selectFrom('workdays')
    .select('date')
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('on_call_minutes', 'is', null)
    .orderBy('date')
    .execute();
  return rows.map((row) => row.date);
}

/** Fills the on-call figure of stored days that have none yet; no other figure changes. */
export async function fillOnCallMinutes(
  db: Executor,
  companyId: string,
  employeeId: string,
  days: ReadonlyArray<{ date: string; minutes: number }>,
): Promise<void> {
  for (const day of days) {
    await db
      .updateTable('workdays')
      .set({ on_call_minutes: day.minutes })
      .where('company_id', '=', companyId)
      .where('employee_id', '=', employeeId)
      .where('date', '=', day.date)
      .where('on_call_minutes', 'is', null)
      .execute();
  }
}
