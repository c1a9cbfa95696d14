import type { Static } from 'typebox';
import { contractsOf } from '../../db/employees.ts';
import { isMissedOpenShift, OPEN_SHIFT_DAYS, openShifts } from '../../db/open-shifts.ts';
import type { AppDeps } from '../../platform/deps.ts';
import type { ReachScope, TenantScope } from '../../platform/tenant.ts';
import { toDate, toInstant } from '../../time/clock.ts';
import { contractMinutes } from '../../time/contract.ts';
import { shiftInstants } from '../../time/planned-shifts.ts';
import { localDate } from '../../time/zones.ts';
import { listWorkSummaries } from '../work-summaries/work-summaries.service.ts';
import { openComplianceAlerts } from '../workdays/compliance-alerts.ts';
import { findHolidays, holidayCalendars } from '../workdays/workdays.repo.ts';
import {
  absenceDaysByType,
  absencesOn,
  employeesOn,
  latestCheckIns,
  pendingCounts,
  problemDays,
  publishedShiftsOn,
  weekTotals,
} from './today.repo.ts';
import { type Charts, PRESENCE_STATES, type Today } from './today.schemas.ts';

export type TodayView = Static<typeof Today>;
export type ChartsView = Static<typeof Charts>;
type State = (typeof PRESENCE_STATES)[number];

/** How far back a check-in still says where someone's day stands: a night shift started yesterday evening. */
const PRESENCE_HOURS = 24;
const PROBLEM_DAYS = 14;
const MAX_PROBLEMS = 50;

/** From the start of the first to the end of the last of today's work shifts; null without any. */
function plannedSpan(work: ReadonlyArray<{ startsAt: Temporal.Instant; endsAt: Temporal.Instant }>) {
  const [first, ...rest] = work;
  if (!first) return null;
  let { startsAt: start, endsAt: end } = first;
  for (const shift of rest) {
    if (Temporal.Instant.compare(shift.startsAt, start) < 0) start = shift.startsAt;
    if (Temporal.Instant.compare(shift.endsAt, end) > 0) end = shift.endsAt;
  }
  return { start, end };
}

/**
 * The dashboard's home page: who is in now, on a break, out, absent, or expected and not in yet; what waits for
 * the company; the problem days of the last two weeks; the month so far. "Now" is the service clock's, "today"
 * the company's date (docs/dashboard.md).
 */
export async function today(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: TenantScope & ReachScope,
): Promise<TodayView> {
  const { db, clock } = deps;
  const now = clock.now();
  const date = localDate(now, tenant.timezone).toString();
  const employees = await employeesOn(db, tenant, date);
  const latest = new Map(
    (
      await latestCheckIns(
        db,
        tenant.companyId,
        new Date(now.subtract({ hours: PRESENCE_HOURS }).epochMilliseconds),
        new Date(now.epochMilliseconds),
      )
    ).map((row) => [row.employee_id, row]),
  );
  const absent = new Map(
    (await absencesOn(db, tenant.companyId, date)).map((row) => [row.employee_id, row.label]),
  );
  const holidaysAt = holidayCalendars(await findHolidays(db, tenant.companyId, date, date));
  const contracts = await contractsOf(
    db,
    tenant.companyId,
    employees.map((employee) => employee.id),
  );
  const startOfToday = Temporal.PlainDate.from(date).toZonedDateTime(tenant.timezone).toInstant();
  // Open shifts of the last two weeks: a shift open 16 hours or more is a probable missed clock-out (issue 38).
  const open = new Map(
    (
      await openShifts(db, tenant.companyId, {
        fromDate: Temporal.PlainDate.from(date).subtract({ days: OPEN_SHIFT_DAYS }).toString(),
      })
    ).map((row) => [row.employee_id, row]),
  );
  const names = new Map(employees.map((row) => [row.id, `${row.first_name} ${row.last_name}`]));
  // Today's published shifts plan who is expected and from when (issue 38).
  const shiftsOf = new Map<string, Awaited<ReturnType<typeof publishedShiftsOn>>>();
  for (const row of await publishedShiftsOn(db, tenant.companyId, date)) {
    shiftsOf.set(row.employee_id, [...(shiftsOf.get(row.employee_id) ?? []), row]);
  }
  const people = employees.map((employee) => {
    const last = latest.get(employee.id);
    const periods = contracts.get(employee.id);
    const absence = absent.get(employee.id) ?? null;
    const holiday = holidaysAt(employee.location_id).has(date);
    const planned = shiftsOf.get(employee.id) ?? [];
    const work = planned
      .filter((shift) => shift.kind === 'work')
      .map((shift) =>
        shiftInstants(
          { date, start: shift.start_time, end: shift.end_time },
          employee.timezone ?? tenant.timezone,
        ),
      );
    const shift = plannedSpan(work);
    const expected =
      absence !== null
        ? 0
        : planned.length > 0
          ? planned.reduce((sum, row) => sum + row.planned_minutes, 0)
          : holiday || !periods
            ? 0
            : contractMinutes(periods, Temporal.PlainDate.from(date));
    const lastAt = last ? toInstant(last.timestamp) : null;
    const clockedToday = lastAt !== null && Temporal.Instant.compare(lastAt, startOfToday) >= 0;
    const openRow = open.get(employee.id);
    const openSince = openRow ? toInstant(openRow.open_since) : null;
    let state: State;
    let since: Temporal.Instant | null = null;
    if (openRow && openSince !== null && isMissedOpenShift(openRow, now)) {
      // Never "working now": the shift is shown by its `in`, until a correction adds its `out`.
      state = 'missed_clock_out';
      since = openSince;
    } else if (last && (last.type === 'in' || last.type === 'break_end')) {
      state = 'in';
      since = openSince ?? lastAt;
    } else if (last && last.type === 'break_start') {
      state = 'break';
      since = lastAt;
    } else if (absence !== null) state = 'absent';
    else if (clockedToday) {
      state = 'out';
      since = lastAt;
    } else if (shift !== null && Temporal.Instant.compare(now, shift.start) < 0) {
      // A published shift later today: not expected yet (a night shift in the morning).
      state = 'scheduled';
    } else state = expected > 0 ? 'missing' : 'off';
    return {
      employee_id: employee.id,
      name: names.get(employee.id) as string,
      state,
      since: since === null ? null : toDate(since).toISOString(),
      absence_type: absence,
      expected_minutes: expected,
      shift:
        shift === null
          ? null
          : { start: toDate(shift.start).toISOString(), end: toDate(shift.end).toISOString() },
    };
  });
  const counts = Object.fromEntries(PRESENCE_STATES.map((state) => [state, 0]));
  for (const person of people) counts[person.state] = (counts[person.state] ?? 0) + 1;

  const from = Temporal.PlainDate.from(date).subtract({ days: PROBLEM_DAYS }).toString();
  const problems = await problemDays(
    db,
    tenant,
    {
      from,
      to: date,
      fromInstant: new Date(Temporal.PlainDate.from(from).toZonedDateTime(tenant.timezone).epochMilliseconds),
      toInstant: new Date(now.epochMilliseconds),
      timezone: tenant.timezone,
    },
    MAX_PROBLEMS,
  );
  return {
    now: now.toString({ smallestUnit: 'second' }),
    date,
    time_zone: tenant.timezone,
    people,
    counts,
    pending: await pendingCounts(db, tenant),
    problems: problems.map((row) => ({ ...row, name: names.get(row.employee_id) ?? row.employee_id })),
    alerts: await openComplianceAlerts(db, tenant, from),
    month: await monthSoFar(deps, tenant, date),
  };
}

const CHART_WEEKS = 8;
const TOP_OVERTIME = 15;

/** The home page's charts, in the company's calendar (docs/dashboard.md). */
export async function charts(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: TenantScope,
): Promise<ChartsView> {
  const { db, clock } = deps;
  const date = localDate(clock.now(), tenant.timezone);
  const monday = date.subtract({ days: date.dayOfWeek - 1 });
  const first = monday.subtract({ weeks: CHART_WEEKS - 1 });
  const stored = new Map(
    (await weekTotals(db, tenant.companyId, first.toString(), date.toString())).map((row) => [
      row.week_start,
      row,
    ]),
  );
  const weeks = Array.from({ length: CHART_WEEKS }, (_, index) => {
    const start = first.add({ weeks: index }).toString();
    const row = stored.get(start);
    return {
      week_start: start,
      worked_minutes: row?.worked_minutes ?? 0,
      expected_minutes: row?.expected_minutes ?? 0,
    };
  });
  const month = await monthRows(deps, tenant, date.toString());
  const names = new Map(
    (await employeesOn(db, { companyId: tenant.companyId }, date.toString())).map((row) => [
      row.id,
      `${row.first_name} ${row.last_name}`,
    ]),
  );
  const overtime = month
    .filter((row) => row.overtime_minutes > 0)
    .sort((a, b) => b.overtime_minutes - a.overtime_minutes)
    .slice(0, TOP_OVERTIME)
    .map((row) => ({
      employee_id: row.employee_id,
      name: names.get(row.employee_id) ?? row.employee_id,
      overtime_minutes: row.overtime_minutes,
    }));
  const absences = (
    await absenceDaysByType(db, tenant.companyId, `${date.year}-01-01`, `${date.year}-12-31`)
  ).map((row) => ({ key: row.key, label: row.label, days: Number(row.days) }));
  return { weeks, overtime, absences };
}

/** Every employee's month row for the month of `date`, up to it (the work summaries' own figures). */
async function monthRows(deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>, tenant: TenantScope, date: string) {
  const rows = [];
  let cursor: string | undefined;
  do {
    const page = await listWorkSummaries(deps, tenant, {
      period: 'month',
      from: `${date.slice(0, 7)}-01`,
      to: date,
      limit: 100,
      cursor,
    });
    rows.push(...page.data);
    cursor = page.meta.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return rows;
}

/** The month of `date` up to it, summed over every employee's month row (the work summaries' own figures). */
async function monthSoFar(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  tenant: TenantScope,
  date: string,
) {
  const totals = { worked_minutes: 0, expected_minutes: 0, overtime_minutes: 0, night_minutes: 0 };
  for (const row of await monthRows(deps, tenant, date)) {
    totals.worked_minutes += row.worked_minutes;
    totals.expected_minutes += row.expected_minutes;
    totals.overtime_minutes += row.overtime_minutes;
    totals.night_minutes += row.night_minutes;
  }
  return { month: date.slice(0, 7), ...totals };
}
