import { isOwnRecord } from '../../db/check-ins.ts';
import type { Db } from '../../db/database.ts';
import { zonesOf } from '../../db/time-zones.ts';
import type { CursorCodec } from '../../platform/pagination.ts';
import type { TenantScope } from '../../platform/tenant.ts';
import { eachDate, monthRange } from '../../time/calendar.ts';
import type { Clock } from '../../time/clock.ts';
import { type ClockEvent, interpretShifts, localDateOf } from '../../time/engine.ts';
import { localDateTimeText } from '../../time/local-text.ts';
import { employeeTimeZone, startOfDate, type Zones, zoneAt } from '../../time/zones.ts';
import { approvedAbsencesOf } from '../absences/absences.repo.ts';
import { findCheckInMarks, streamCheckInsWithEmployees } from '../check-ins/check-ins.repo.ts';
import { findEmployeesByIds } from '../employees/employees.repo.ts';
import { listWorkSummaries, type WorkSummaryView } from '../work-summaries/work-summaries.service.ts';
import { findHolidays, holidayCalendars } from '../workdays/workdays.repo.ts';
import type { Column, Row } from './file-writers.ts';

/** The rows of each report type, read with flat memory: a database cursor, or pages of bounded size. */

export const CHECK_INS_EXPORT_COLUMNS: Column[] = [
  { key: 'check_in_id', kind: 'text', width: 38 },
  { key: 'employee_id', kind: 'text', width: 38 },
  { key: 'external_id', kind: 'text' },
  { key: 'employee_name', kind: 'text', width: 28 },
  { key: 'type', kind: 'text', width: 12 },
  { key: 'timestamp_utc', kind: 'instant', width: 20 },
  { key: 'local_time', kind: 'local', width: 20 },
  { key: 'source', kind: 'text', width: 10 },
  { key: 'status', kind: 'text', width: 8 },
  { key: 'late', kind: 'boolean', width: 6 },
  { key: 'correction_id', kind: 'text', width: 38 },
  { key: 'voided_by_correction_id', kind: 'text', width: 38 },
  // Added for the unalterable registry (issue 34), after the columns above: who recorded each check-in and
  // when, whether it is the worker's own record, and the worker's answer to one someone else made.
  { key: 'recorded_by_type', kind: 'text', width: 10 },
  { key: 'recorded_by_id', kind: 'text', width: 38 },
  { key: 'key_kind', kind: 'text', width: 12 },
  { key: 'recorded_at_utc', kind: 'instant', width: 20 },
  { key: 'worker_confirmed', kind: 'boolean', width: 8 },
  { key: 'worker_response', kind: 'text', width: 10 },
  // Added for offline punches (issue 40): made on a device without a connection, with the device's clock.
  { key: 'recorded_offline', kind: 'boolean', width: 8 },
  { key: 'device_time_utc', kind: 'instant', width: 20 },
];

/**
 * Rows per fetch of a report's cursor. Small on purpose: the database session that sends them runs at normal
 * priority while the report process waits at the lowest, so each fetch is a burst of work that can delay a request
 * sharing the machine; 250 rows keep that burst under a millisecond (2,000 rows: the API's p99 during an XLSX
 * export rose to 2.0–2.1× its p99 at rest; 250: 1.3–1.5×, and the exports took no longer). See
 * docs/performance.md.
 */
const CURSOR_CHUNK = 250;

const localTime = (instant: Temporal.Instant, zone: Zones) =>
  instant.toZonedDateTimeISO(zoneAt(zone, instant)).toPlainTime().toString({ smallestUnit: 'minute' });

/**
 * check_ins_export: every check-in of the tenant from `from` to `to` (dates in the company's time zone,
 * inclusive), ordered by employee and timestamp, streamed from a cursor. Local time is the employee's zone. Voided
 * check-ins stay in the export, marked (status, and the correction that voided them): the registry hides nothing.
 */
export async function* checkInsExportRows(
  db: Db,
  tenant: TenantScope,
  params: { from: string; to: string; employee_id?: string | undefined },
): AsyncIterable<Row> {
  const start = startOfDate(params.from, tenant.timezone);
  const end = startOfDate(Temporal.PlainDate.from(params.to).add({ days: 1 }).toString(), tenant.timezone);
  const rows = streamCheckInsWithEmployees(
    db,
    tenant.companyId,
    {
      from: new Date(start.epochMilliseconds),
      before: new Date(end.epochMilliseconds),
      employeeId: params.employee_id,
    },
    CURSOR_CHUNK,
  );
  for await (const row of rows) {
    yield {
      check_in_id: row.id,
      employee_id: row.employee_id,
      external_id: row.external_id,
      employee_name: `${row.first_name} ${row.last_name}`,
      type: row.type,
      timestamp_utc: row.timestamp,
      local_time: localDateTimeText(row.timestamp, employeeTimeZone(row, tenant.timezone)),
      source: row.source,
      status: row.status,
      late: row.late,
      correction_id: row.correction_id,
      voided_by_correction_id: row.voided_by_correction_id,
      recorded_by_type: row.recorded_by_type,
      recorded_by_id: row.recorded_by_id,
      key_kind: row.recorded_by_key_kind,
      recorded_at_utc: row.recorded_at,
      worker_confirmed: isOwnRecord(row),
      worker_response: row.worker_response,
      recorded_offline: row.recorded_offline,
      device_time_utc: row.device_time,
    };
  }
}

export const TIME_REGISTRY_COLUMNS: Column[] = [
  { key: 'employee_id', kind: 'text' },
  { key: 'external_id', kind: 'text' },
  { key: 'employee_name', kind: 'text' },
  { key: 'date', kind: 'text' },
  { key: 'first_in', kind: 'text' },
  { key: 'last_out', kind: 'text' },
  { key: 'shifts', kind: 'text' },
  { key: 'break_minutes', kind: 'integer' },
  { key: 'worked_minutes', kind: 'integer' },
  { key: 'expected_minutes', kind: 'integer' },
  { key: 'overtime_minutes', kind: 'integer' },
  { key: 'night_minutes', kind: 'integer' },
  { key: 'absence_type', kind: 'text' },
  { key: 'incomplete', kind: 'boolean' },
  // Added for the registry of record (issue 16); the columns above keep their meaning and order.
  { key: 'intervals', kind: 'text' },
  { key: 'worked_hhmm', kind: 'text' },
  { key: 'break_hhmm', kind: 'text' },
  { key: 'expected_hhmm', kind: 'text' },
  { key: 'overtime_hhmm', kind: 'text' },
  { key: 'night_hhmm', kind: 'text' },
  { key: 'holiday', kind: 'text' },
  { key: 'late_records', kind: 'integer' },
  { key: 'corrected', kind: 'boolean' },
  { key: 'work_mode', kind: 'text' },
  // Added for the unalterable registry (issue 34), after the columns above.
  { key: 'breaks', kind: 'text' },
  { key: 'records_by_others', kind: 'integer' },
  { key: 'disputed_records', kind: 'integer' },
  { key: 'conflict', kind: 'boolean' },
  // Added for part-time contracts (issue 38): a part-timer's extra minutes (ET 12.5), never in overtime.
  { key: 'complementary_minutes', kind: 'integer' },
  { key: 'complementary_hhmm', kind: 'text' },
  // Added for offline punches (issue 40): the day's records made on a device without a connection.
  { key: 'offline_records', kind: 'integer' },
];

/** Minutes as H:MM (hours unbounded: a month's total reads 172:30). */
export const hhmm = (minutes: number) =>
  `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

/** The HH:MM columns beside a row's minute columns. */
const hhmmColumns = (figures: {
  worked_minutes: number;
  break_minutes: number;
  expected_minutes: number;
  overtime_minutes: number;
  night_minutes: number;
}) => ({
  worked_hhmm: hhmm(figures.worked_minutes),
  break_hhmm: hhmm(figures.break_minutes),
  expected_hhmm: hhmm(figures.expected_minutes),
  overtime_hhmm: hhmm(figures.overtime_minutes),
  night_hhmm: hhmm(figures.night_minutes),
});

/** The registry's totals row carries this in its `date` column. */
export const TOTALS_LABEL = 'total';

const EMPLOYEES_PER_PAGE = 100;

type RegistryEmployee = {
  id: string;
  external_id: string | null;
  first_name: string;
  last_name: string;
  timezone: string | null;
  location_id: string | null;
};

/**
 * time_registry_monthly: for each employee employed during the month, one row per calendar date, then a totals
 * row. The figures are the work-summaries day rows and month row (the same engine and stored workdays, so they
 * agree exactly); first_in, last_out and the shift list come from the engine's shifts of the date (a shift belongs
 * to the date of its `in`). Employees are read a page at a time.
 */
export async function* timeRegistryRows(
  db: Db,
  clock: Clock,
  codec: CursorCodec,
  tenant: TenantScope,
  params: { month: string; employee_id?: string | undefined },
): AsyncIterable<Row> {
  const { from, to } = monthRange(params.month);
  const now = clock.now();
  // Every holiday of the month once; each employee's are the company's and their work centre's.
  const holidaysOf = holidayCalendars(await findHolidays(db, tenant.companyId, from, to));
  let cursor: string | undefined;
  do {
    const months = await listWorkSummaries({ db, clock, cursors: codec }, tenant, {
      period: 'month',
      from,
      to,
      employee_id: params.employee_id,
      limit: EMPLOYEES_PER_PAGE,
      cursor,
    });
    const ids = months.data.map((row) => row.employee_id);
    if (ids.length > 0) {
      const employees = new Map(
        (await findEmployeesByIds(db, tenant.companyId, ids)).map((employee) => [employee.id, employee]),
      );
      for (const month of months.data) {
        const employee = employees.get(month.employee_id) as RegistryEmployee;
        const holidays = holidaysOf(employee.location_id);
        yield* employeeMonth(db, clock, codec, tenant, employee, month, { from, to, now, holidays });
      }
    }
    cursor = months.meta.next_cursor ?? undefined;
  } while (cursor !== undefined);
}

/**
 * One employee's month of the registry: its day rows and its totals row, without the identity columns (the
 * callers show whose month it is their own way).
 */
export async function employeeRegistryMonth(
  db: Db,
  clock: Clock,
  codec: CursorCodec,
  tenant: TenantScope,
  employeeId: string,
  month: string,
): Promise<{ days: Row[]; totals: Row | null }> {
  const days: Row[] = [];
  for await (const row of timeRegistryRows(db, clock, codec, tenant, { month, employee_id: employeeId })) {
    const { employee_id: _id, external_id: _external, employee_name: _name, ...figures } = row;
    days.push(figures);
  }
  const totals = days.pop() ?? null;
  return { days, totals };
}

async function* employeeMonth(
  db: Db,
  clock: Clock,
  codec: CursorCodec,
  tenant: TenantScope,
  employee: RegistryEmployee,
  month: WorkSummaryView,
  range: { from: string; to: string; now: Temporal.Instant; holidays: ReadonlyMap<string, string> },
): AsyncIterable<Row> {
  // The zones the employee's dates had (effective-dated, docs/time-rules.md): local times in the zone of the time.
  const zone = await zonesOf(db, tenant.companyId, employee, tenant.timezone);
  const days = new Map<string, WorkSummaryView>();
  const dayPage = await listWorkSummaries({ db, clock, cursors: codec }, tenant, {
    period: 'day',
    from: range.from,
    to: range.to,
    employee_id: employee.id,
    limit: 31,
  });
  for (const day of dayPage.data) days.set(day.period_start, day);

  // Shifts that start in the month: read from the day before (a shift open across midnight) to two days after.
  const readFrom = startOfDate(Temporal.PlainDate.from(range.from).subtract({ days: 1 }).toString(), zone);
  const readTo = startOfDate(Temporal.PlainDate.from(range.to).add({ days: 2 }).toString(), zone);
  // One read serves the shifts (the active check-ins) and the marks (every check-in, voided ones too).
  const checkIns = await findCheckInMarks(
    db,
    tenant.companyId,
    employee.id,
    new Date(readFrom.epochMilliseconds),
    new Date(readTo.epochMilliseconds),
  );
  const events: ClockEvent[] = checkIns
    .filter((row) => row.status === 'active')
    .map((row) => ({ type: row.type, at: Temporal.Instant.fromEpochMilliseconds(row.timestamp.getTime()) }));
  const shifts = interpretShifts(events, range.now).shifts;
  const shiftsByDate = new Map<
    string,
    { text: string[]; marked: string[]; breaks: string[]; firstIn: string | null; lastOut: string | null }
  >();
  for (const shift of shifts) {
    const date = localDateOf(shift.start, zone);
    const entry = shiftsByDate.get(date) ?? {
      text: [],
      marked: [],
      breaks: [],
      firstIn: null,
      lastOut: null,
    };
    // Each pause's start and end, as the draft decree asks the record to show them.
    for (const pause of shift.breaks)
      entry.breaks.push(`${localTime(pause.start, zone)}-${localTime(pause.end, zone)}`);
    const start = localTime(shift.start, zone);
    const end = shift.end ? localTime(shift.end, zone) : '';
    entry.text.push(`${start}-${end}`);
    // A shift's end on a later date than its start is marked, e.g. 22:00-06:30 (+1).
    const nextDay = shift.end && localDateOf(shift.end, zone) > date ? ' (+1)' : '';
    entry.marked.push(`${start}-${end}${nextDay}`);
    if (shift.status === 'closed' && shift.end) {
      entry.firstIn ??= start;
      entry.lastOut = end;
    }
    shiftsByDate.set(date, entry);
  }

  const absences = await approvedAbsencesOf(db, tenant.companyId, employee.id, range);
  type Marks = {
    late: number;
    corrected: boolean;
    modes: Set<string>;
    byOthers: number;
    disputed: number;
    offline: number;
  };
  const marks = new Map<string, Marks>();
  const marksFrom = startOfDate(range.from, zone).epochMilliseconds;
  const marksBefore = readTo.subtract({ hours: 24 }).epochMilliseconds;
  for (const mark of checkIns) {
    if (mark.timestamp.getTime() < marksFrom || mark.timestamp.getTime() >= marksBefore) continue;
    // A mark belongs to the date of the shift it falls in (the row that shows that shift), else its own date.
    const at = Temporal.Instant.fromEpochMilliseconds(mark.timestamp.getTime());
    const within = shifts.find(
      (shift) =>
        Temporal.Instant.compare(shift.start, at) <= 0 &&
        (shift.end === null || Temporal.Instant.compare(at, shift.end) <= 0),
    );
    const date = localDateOf(within ? within.start : at, zone);
    const entry = marks.get(date) ?? {
      late: 0,
      corrected: false,
      modes: new Set<string>(),
      byOthers: 0,
      disputed: 0,
      offline: 0,
    };
    if (mark.late && mark.status === 'active') entry.late += 1;
    if (mark.recorded_offline && mark.status === 'active') entry.offline += 1;
    const own = isOwnRecord(mark);
    if (!own && mark.status === 'active') entry.byOthers += 1;
    if (mark.worker_response === 'rejected' && mark.status === 'active') entry.disputed += 1;
    if (mark.work_mode && mark.status === 'active') entry.modes.add(mark.work_mode);
    if (mark.status === 'voided' || mark.correction_id !== null) entry.corrected = true;
    marks.set(date, entry);
  }

  const identity = {
    employee_id: employee.id,
    external_id: employee.external_id,
    employee_name: `${employee.first_name} ${employee.last_name}`,
  };
  for (const plainDate of eachDate(range.from, range.to)) {
    const date = plainDate.toString();
    const day = days.get(date);
    const shifts = shiftsByDate.get(date);
    yield {
      ...identity,
      date,
      first_in: shifts?.firstIn ?? null,
      last_out: shifts?.lastOut ?? null,
      shifts: shifts ? shifts.text.join(';') : null,
      break_minutes: day?.break_minutes ?? 0,
      worked_minutes: day?.worked_minutes ?? 0,
      expected_minutes: day?.expected_minutes ?? 0,
      overtime_minutes: day?.overtime_minutes ?? 0,
      night_minutes: day?.night_minutes ?? 0,
      absence_type:
        absences.find((absence) => absence.start_date <= date && absence.end_date >= date)?.key ?? null,
      incomplete: (day?.incomplete_days ?? 0) > 0,
      intervals: shifts ? shifts.marked.join('; ') : null,
      ...hhmmColumns({
        worked_minutes: day?.worked_minutes ?? 0,
        break_minutes: day?.break_minutes ?? 0,
        expected_minutes: day?.expected_minutes ?? 0,
        overtime_minutes: day?.overtime_minutes ?? 0,
        night_minutes: day?.night_minutes ?? 0,
      }),
      holiday: range.holidays.get(date) ?? null,
      late_records: marks.get(date)?.late ?? 0,
      corrected: marks.get(date)?.corrected ?? false,
      work_mode: [...(marks.get(date)?.modes ?? [])].sort().join(';') || null,
      breaks: shifts && shifts.breaks.length > 0 ? shifts.breaks.join('; ') : null,
      records_by_others: marks.get(date)?.byOthers ?? 0,
      disputed_records: marks.get(date)?.disputed ?? 0,
      conflict: (day?.conflict_days ?? 0) > 0,
      complementary_minutes: day?.complementary_minutes ?? 0,
      complementary_hhmm: hhmm(day?.complementary_minutes ?? 0),
      offline_records: marks.get(date)?.offline ?? 0,
    };
  }
  yield {
    ...identity,
    date: TOTALS_LABEL,
    first_in: null,
    last_out: null,
    shifts: null,
    break_minutes: month.break_minutes,
    worked_minutes: month.worked_minutes,
    expected_minutes: month.expected_minutes,
    overtime_minutes: month.overtime_minutes,
    night_minutes: month.night_minutes,
    absence_type: null,
    incomplete: month.incomplete_days > 0,
    intervals: null,
    ...hhmmColumns(month),
    holiday: null,
    late_records: [...marks.values()].reduce((total, mark) => total + mark.late, 0),
    corrected: [...marks.values()].some((mark) => mark.corrected),
    work_mode: null,
    breaks: null,
    records_by_others: [...marks.values()].reduce((total, mark) => total + mark.byOthers, 0),
    disputed_records: [...marks.values()].reduce((total, mark) => total + mark.disputed, 0),
    conflict: month.conflict_days > 0,
    complementary_minutes: month.complementary_minutes,
    complementary_hhmm: hhmm(month.complementary_minutes),
    offline_records: [...marks.values()].reduce((total, mark) => total + mark.offline, 0),
  };
}

const SUMMED = [
  'break_minutes',
  'worked_minutes',
  'expected_minutes',
  'overtime_minutes',
  'complementary_minutes',
  'night_minutes',
  'late_records',
  'records_by_others',
  'disputed_records',
  'offline_records',
] as const;
const ANY = ['incomplete', 'corrected', 'conflict'] as const;

/**
 * The registry rows of a date range within a month (an access grant for 15–20 October, issue 35): each
 * employee's day rows outside the range are left out, and the totals row sums the days kept, so nothing of a day
 * outside the range shows, in a line or in a total.
 */
export async function* registryRowsWithin(
  rows: AsyncIterable<Row> | Iterable<Row>,
  range: { from: string; to: string },
): AsyncIterable<Row> {
  let kept: Row[] = [];
  for await (const row of rows) {
    if (row.date !== TOTALS_LABEL) {
      const date = String(row.date);
      if (date >= range.from && date <= range.to) kept.push(row);
      continue;
    }
    const totals: Row = { ...row };
    for (const key of SUMMED) {
      if (key in row) totals[key] = kept.reduce((sum, day) => sum + Number(day[key] ?? 0), 0);
    }
    for (const key of ANY) if (key in row) totals[key] = kept.some((day) => day[key] === true);
    Object.assign(
      totals,
      hhmmColumns({
        worked_minutes: Number(totals.worked_minutes ?? 0),
        break_minutes: Number(totals.break_minutes ?? 0),
        expected_minutes: Number(totals.expected_minutes ?? 0),
        overtime_minutes: Number(totals.overtime_minutes ?? 0),
        night_minutes: Number(totals.night_minutes ?? 0),
      }),
    );
    if ('complementary_minutes' in totals)
      totals.complementary_hhmm = hhmm(Number(totals.complementary_minutes));
    yield* kept;
    yield totals;
    kept = [];
  }
}
