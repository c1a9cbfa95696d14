import type { Insertable } from 'kysely';
import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { withinReach } from '../../db/reach.ts';
import type { ShiftsTable } from '../../db/schema.ts';
import { zonesOf } from '../../db/time-zones.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { companySyncList, type Page, type SyncQuery } from '../../platform/pagination.ts';
import type { CompanyScope, ReachScope, TenantScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import {
  datesDecided,
  MAX_PLANNED_SHIFT_MINUTES,
  plannedWorkMinutes,
  shiftInstants,
  spanMinutes,
} from '../../time/planned-shifts.ts';
import { localDate, type Zones } from '../../time/zones.ts';
import type { PendingEvent } from '../events/events.service.ts';
import { notify } from '../notifications/notifications.service.ts';
import { type DaysTouched, writeDays } from '../workdays/write-days.ts';
import {
  deleteShiftRows,
  employeesForShifts,
  findShift,
  findShiftsByIds,
  insertShifts,
  locationIdsAmong,
  markShiftsSeen,
  publishDrafts,
  queueShiftNotices,
  type ShiftRow,
  selectShifts,
  shiftsOfEmployees,
  shiftsSeenAt,
  takeDueShiftNotices,
  templatesAmong,
} from './shifts.repo.ts';
import type { CreateShiftBody, Shift, UpdateShiftBody } from './shifts.schemas.ts';

export type ShiftView = Static<typeof Shift>;
export type ShiftInput = Static<typeof CreateShiftBody>;

export const toShiftView = (row: ShiftRow): ShiftView => ({
  id: row.id,
  employee_id: row.employee_id,
  date: row.date,
  start: row.start_time,
  end: row.end_time,
  break_minutes: row.break_minutes,
  planned_minutes: row.planned_minutes,
  location_id: row.location_id,
  work_mode: row.work_mode,
  kind: row.kind,
  status: row.status,
  note: row.note,
  template_id: row.template_id,
  published_at: row.published_at === null ? null : formatInstant(row.published_at),
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

/** One shift to place: a new one, or (with `replaces`) the new state of an existing one. */
export type Placement = { input: ShiftInput; replaces?: ShiftRow | undefined };

type PlaceOptions = {
  /** How a field of placement i is named in a 422: `end` for one shift, `shifts/3/end` in a bulk. */
  field: (index: number, name: string) => string;
};

const isPlanned = (row: { status: string } | undefined) => row?.status === 'published';

/** 409: the past does not change (a shift of, or to, a date that has passed), each field named. */
const pastShiftConflict = (fields: Record<string, string>) =>
  new ApiError('conflict', 'A shift of a date that has passed cannot change.', {
    errors: Object.fromEntries(Object.entries(fields).map(([key, message]) => [key, [message]])),
  });

/** A worker is told of a change a short while after it, so that a planner's round of changes is one message. */
export const NOTICE_DELAY_SECONDS = 120;
const noticeDue = (now: Temporal.Instant) => toDate(now.add({ seconds: NOTICE_DELAY_SECONDS }));

/**
 * Places shifts inside the owner of day writes (write-days.ts), holding the row locks of every employee they
 * name: checks each against the rules of docs/time-rules.md ("Planned shifts"), then writes them all or none.
 * A date that has passed (in the employee's zone) cannot take or lose a shift (409); an employee not employed on
 * the date, an unknown work centre or template, a break as long as the shift, or two shifts of one employee that
 * overlap (the new ones among themselves, or with those kept) is 422, every problem listed by its field. The
 * days of published shifts (before and after) are touched, so their expected minutes are recomputed, and a
 * sealed date refuses the whole write.
 */
async function placeShifts(
  tx: Executor,
  tenant: TenantScope,
  now: Temporal.Instant,
  placements: readonly Placement[],
  options: PlaceOptions,
): Promise<{ rows: ShiftRow[]; touched: DaysTouched[]; events: PendingEvent[] }> {
  if (placements.length === 0) return { rows: [], touched: [], events: [] };
  const { companyId } = tenant;
  const at = toDate(now);
  const employeeIds = [...new Set(placements.map((placement) => placement.input.employee_id))];
  const employees = new Map(
    (await employeesForShifts(tx, companyId, employeeIds)).map((employee) => [employee.id, employee]),
  );
  const zones = new Map<string, Zones>();
  for (const employee of employees.values()) {
    zones.set(employee.id, await zonesOf(tx, companyId, employee, tenant.timezone));
  }
  const locations = await locationIdsAmong(
    tx,
    companyId,
    placements.flatMap((placement) => placement.input.location_id ?? []),
  );
  const templates = new Set(
    (
      await templatesAmong(
        tx,
        companyId,
        placements.flatMap((placement) => placement.input.template_id ?? []),
      )
    ).map((template) => template.id),
  );

  // Each placed shift's instants, in its employee's zone of its date (none for an unknown employee).
  const instants = placements.map(({ input }) => {
    const zone = zones.get(input.employee_id);
    return zone === undefined ? null : shiftInstants(input, zone);
  });
  const errors: Record<string, string> = {};
  const past: Record<string, string> = {};
  const todayOf = (employeeId: string) => localDate(now, zones.get(employeeId) ?? tenant.timezone).toString();
  placements.forEach(({ input, replaces }, index) => {
    const field = (name: string) => options.field(index, name);
    const employee = employees.get(input.employee_id);
    const placed = instants[index];
    if (!employee || !placed) {
      errors[field('employee_id')] = 'is not an employee of this company';
      return;
    }
    const today = todayOf(employee.id);
    if (input.date < today) past[field('date')] = 'has passed: its shifts no longer change';
    if (replaces && replaces.date < today) past[field('id')] = 'is a shift of a date that has passed';
    if (
      input.date < employee.hire_date ||
      (employee.termination_date && input.date > employee.termination_date)
    ) {
      errors[field('date')] = 'is not a date of the employee’s employment';
    }
    if (input.location_id && !locations.has(input.location_id)) {
      errors[field('location_id')] = 'is not a location of this company';
    }
    if (input.template_id && !templates.has(input.template_id)) {
      errors[field('template_id')] = 'is not a shift template of this company';
    }
    const span = spanMinutes(placed);
    if (span > MAX_PLANNED_SHIFT_MINUTES) errors[field('end')] = 'makes the shift longer than 24 hours';
    if ((input.break_minutes ?? 0) >= span) errors[field('break_minutes')] = 'must be shorter than the shift';
  });
  if (Object.keys(past).length > 0) throw pastShiftConflict(past);

  // Overlaps: each employee's shifts kept (not replaced) near the placed dates, and the placed ones.
  const replaced = new Set(placements.flatMap((placement) => placement.replaces?.id ?? []));
  const dates = placements.map((placement) => placement.input.date).sort();
  const around = (date: string | undefined, days: number) =>
    Temporal.PlainDate.from(date as string)
      .add({ days })
      .toString();
  const kept = (
    await shiftsOfEmployees(tx, companyId, employeeIds, {
      from: around(dates[0], -1),
      to: around(dates[dates.length - 1], 1),
    })
  ).filter((row) => !replaced.has(row.id));
  type Interval = { index: number | null; employeeId: string; starts: number; ends: number };
  const interval = (
    employeeId: string,
    span: { startsAt: Temporal.Instant; endsAt: Temporal.Instant },
    index: number | null,
  ): Interval => ({
    index,
    employeeId,
    starts: span.startsAt.epochMilliseconds,
    ends: span.endsAt.epochMilliseconds,
  });
  const intervals: Interval[] = kept.map((row) =>
    interval(
      row.employee_id,
      shiftInstants(
        { date: row.date, start: row.start_time, end: row.end_time },
        zones.get(row.employee_id) as Zones,
      ),
      null,
    ),
  );
  placements.forEach(({ input }, index) => {
    const placed = instants[index];
    if (placed) intervals.push(interval(input.employee_id, placed, index));
  });
  intervals.sort((a, b) => a.employeeId.localeCompare(b.employeeId) || a.starts - b.starts);
  for (let i = 1; i < intervals.length; i += 1) {
    const previous = intervals[i - 1] as Interval;
    const current = intervals[i] as Interval;
    if (previous.employeeId !== current.employeeId || current.starts >= previous.ends) continue;
    for (const index of [previous.index, current.index]) {
      if (index !== null) errors[options.field(index, 'start')] = 'overlaps another shift of the employee';
    }
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);

  // Write: the replaced rows go, the placed ones come (a replacement keeps its id and creation).
  await deleteShiftRows(tx, companyId, [...replaced]);
  const rows: Array<Insertable<ShiftsTable>> = placements.map(({ input, replaces }, index) => {
    const status = input.status ?? 'draft';
    const placed = instants[index] as NonNullable<(typeof instants)[number]>;
    const shift = { break_minutes: input.break_minutes ?? 0, kind: input.kind ?? 'work' };
    return {
      company_id: companyId,
      id: replaces?.id ?? newId(),
      employee_id: input.employee_id,
      date: input.date,
      start_time: input.start,
      end_time: input.end,
      break_minutes: shift.break_minutes,
      planned_minutes: plannedWorkMinutes(shift, spanMinutes(placed)),
      location_id: input.location_id ?? null,
      work_mode: input.work_mode ?? null,
      kind: shift.kind,
      status,
      note: input.note ?? null,
      template_id: input.template_id ?? null,
      ends_at: toDate(placed.endsAt),
      published_at:
        status === 'published' ? (isPlanned(replaces) ? (replaces?.published_at ?? at) : at) : null,
      created_at: replaces?.created_at ?? at,
      updated_at: at,
    };
  });
  await insertShifts(tx, rows);

  const events: PendingEvent[] = [];
  const touchedDates = new Map<string, Set<string>>();
  const touch = (employeeId: string, shift: { date: string; kind: 'work' | 'on_call' }) => {
    const dates = touchedDates.get(employeeId) ?? new Set();
    const { from, to } = datesDecided(shift);
    touchedDates.set(employeeId, dates.add(from).add(to));
  };
  placements.forEach(({ replaces }, index) => {
    const row = rows[index] as Insertable<ShiftsTable> & { id: string };
    const data = { shift_id: row.id, employee_id: row.employee_id, date: row.date };
    if (isPlanned(replaces) && replaces) touch(replaces.employee_id, replaces);
    if (row.status === 'published') touch(row.employee_id, row);
    if (row.status === 'published' && !isPlanned(replaces)) events.push({ type: 'shift.published', data });
    else if (isPlanned(replaces)) events.push({ type: 'shift.updated', data });
  });
  await queueShiftNotices(
    tx,
    companyId,
    events.map((event) => (event.data as { employee_id: string }).employee_id),
    noticeDue(now),
  );
  return {
    rows: rows.map(({ company_id: _, ...row }) => row as ShiftRow),
    touched: touchedRanges(touchedDates),
    events,
  };
}

/** One range per employee, from their first to their last touched date. */
function touchedRanges(dates: ReadonlyMap<string, ReadonlySet<string>>): DaysTouched[] {
  return [...dates].map(([employeeId, set]) => {
    const sorted = [...set].sort();
    return { employeeId, from: sorted[0] as string, to: sorted[sorted.length - 1] as string };
  });
}

type ShiftDeps = Pick<AppDeps, 'db' | 'clock'>;

export async function createShift(
  deps: ShiftDeps,
  tenant: TenantScope,
  input: ShiftInput,
): Promise<ShiftView> {
  const rows = await writeDays(
    deps,
    tenant,
    [input.employee_id],
    async (tx, now) => {
      const placed = await placeShifts(tx, tenant, now, [{ input }], { field: (_, name) => name });
      return { ...placed, result: placed.rows };
    },
    { what: 'this shift' },
  );
  return toShiftView(rows[0] as ShiftRow);
}

/**
 * Creates or replaces up to 5,000 shifts in one transaction: all or none. An item with `id` replaces that shift;
 * every problem is listed by the item's index (`shifts/3/end`).
 */
export async function bulkShifts(
  deps: ShiftDeps,
  tenant: TenantScope,
  items: ReadonlyArray<ShiftInput & { id?: string | undefined }>,
): Promise<{ ids: string[] }> {
  const employees = new Set(items.map((item) => item.employee_id));
  const ids = items.flatMap((item) => item.id ?? []);
  // The replaced shifts' own employees are locked too (a replacement may move a shift to another employee).
  for (const row of await findShiftsByIds(deps.db, tenant.companyId, ids)) employees.add(row.employee_id);
  const rows = await writeDays(
    deps,
    tenant,
    [...employees],
    async (tx, now) => {
      const existing = new Map(
        (await findShiftsByIds(tx, tenant.companyId, ids)).map((row) => [row.id, row]),
      );
      const errors: Record<string, string> = {};
      const seen = new Set<string>();
      items.forEach((item, index) => {
        if (item.id === undefined) return;
        if (!existing.has(item.id)) errors[`shifts/${index}/id`] = 'is not a shift of this company';
        if (seen.has(item.id)) errors[`shifts/${index}/id`] = 'is replaced twice in this request';
        seen.add(item.id);
      });
      if (Object.keys(errors).length > 0) throw invalid(errors);
      const placements = items.map(({ id, ...input }) => ({
        input,
        replaces: id === undefined ? undefined : existing.get(id),
      }));
      const placed = await placeShifts(tx, tenant, now, placements, {
        field: (index, name) => `shifts/${index}/${name}`,
      });
      return { ...placed, result: placed.rows };
    },
    { what: 'these shifts' },
  );
  return { ids: rows.map((row) => row.id) };
}

/** Changes a shift (not of a date that has passed; 409). */
export async function updateShift(
  deps: ShiftDeps,
  tenant: TenantScope,
  id: string,
  changes: Static<typeof UpdateShiftBody>,
): Promise<ShiftView> {
  const current = await findShift(deps.db, tenant.companyId, id);
  if (!current) throw notFound('Shift');
  const rows = await writeDays(
    deps,
    tenant,
    [current.employee_id],
    async (tx, now) => {
      const row = await findShift(tx, tenant.companyId, id);
      if (!row) throw notFound('Shift');
      const input: ShiftInput = {
        employee_id: row.employee_id,
        date: changes.date ?? row.date,
        start: changes.start ?? row.start_time,
        end: changes.end ?? row.end_time,
        break_minutes: changes.break_minutes ?? row.break_minutes,
        location_id: changes.location_id === undefined ? row.location_id : changes.location_id,
        work_mode: changes.work_mode === undefined ? row.work_mode : changes.work_mode,
        kind: changes.kind ?? row.kind,
        status: changes.status ?? row.status,
        note: changes.note === undefined ? row.note : changes.note,
        template_id: row.template_id,
      };
      const placed = await placeShifts(tx, tenant, now, [{ input, replaces: row }], {
        field: (_, name) => name,
      });
      return { ...placed, result: placed.rows };
    },
    { what: 'this shift' },
  );
  return toShiftView(rows[0] as ShiftRow);
}

/** Deletes a shift (not of a date that has passed; 409); a published one's day is planned again without it. */
export async function deleteShift(deps: ShiftDeps, tenant: TenantScope, id: string): Promise<void> {
  const current = await findShift(deps.db, tenant.companyId, id);
  if (!current) throw notFound('Shift');
  await writeDays(
    deps,
    tenant,
    [current.employee_id],
    async (tx, now) => {
      const row = await findShift(tx, tenant.companyId, id);
      if (!row) throw notFound('Shift');
      const [employee] = await employeesForShifts(tx, tenant.companyId, [row.employee_id]);
      const zones = await zonesOf(
        tx,
        tenant.companyId,
        { id: row.employee_id, timezone: employee?.timezone ?? null },
        tenant.timezone,
      );
      if (row.date < localDate(now, zones).toString()) {
        throw pastShiftConflict({ id: 'is a shift of a date that has passed' });
      }
      await deleteShiftRows(tx, tenant.companyId, [id]);
      const published = isPlanned(row);
      if (published) await queueShiftNotices(tx, tenant.companyId, [row.employee_id], noticeDue(now));
      return {
        result: null,
        touched: published ? [{ employeeId: row.employee_id, ...datesDecided(row) }] : [],
        events: published
          ? [{ type: 'shift.deleted', data: { shift_id: id, employee_id: row.employee_id, date: row.date } }]
          : [],
      };
    },
    { what: 'deleting this shift' },
  );
}

/**
 * Publishes the drafts of a range (at most 62 days), of some employees or all: they become the workers' and plan
 * their days' expected minutes. Drafts of dates that have passed in the company's zone stay drafts.
 */
export async function publishShifts(
  deps: ShiftDeps,
  tenant: TenantScope,
  body: { from: string; to: string; employee_ids?: string[] | undefined },
): Promise<{ published: number }> {
  if (body.to < body.from) throw invalid({ to: 'must be on or after from' });
  if (Temporal.PlainDate.from(body.from).until(body.to).days > 62) {
    throw invalid({ to: 'must be at most 62 days after from' });
  }
  const published = await writeDays(
    deps,
    tenant,
    body.employee_ids ?? 'all',
    async (tx, now) => {
      const today = localDate(now, tenant.timezone).toString();
      const from = body.from < today ? today : body.from;
      if (body.to < from) return { result: 0, touched: [], events: [] };
      const rows = await publishDrafts(
        tx,
        tenant.companyId,
        { from, to: body.to, employeeIds: body.employee_ids },
        toDate(now),
      );
      const dates = new Map<string, Set<string>>();
      for (const row of rows) {
        const { from, to } = datesDecided(row);
        dates.set(row.employee_id, (dates.get(row.employee_id) ?? new Set()).add(from).add(to));
      }
      await queueShiftNotices(tx, tenant.companyId, [...dates.keys()], noticeDue(now));
      return {
        result: rows.length,
        touched: touchedRanges(dates),
        events: rows.map(
          (row): PendingEvent => ({
            type: 'shift.published',
            data: { shift_id: row.id, employee_id: row.employee_id, date: row.date },
          }),
        ),
      };
    },
    { what: 'publishing these shifts' },
  );
  return { published };
}

export async function getShift(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<ShiftView> {
  const row = await findShift(deps.db, tenant.companyId, id);
  if (!row) throw notFound('Shift');
  return toShiftView(row);
}

export type ShiftFilters = {
  employee_id?: string | undefined;
  location_id?: string | undefined;
  status?: 'draft' | 'published' | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

export async function listShifts(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: ReachScope,
  query: SyncQuery & ShiftFilters,
): Promise<Page<ShiftView>> {
  let select = withinReach(selectShifts(deps.db, tenant.companyId), tenant, 'shifts.employee_id');
  if (query.employee_id) select = select.where('employee_id', '=', query.employee_id);
  if (query.location_id) select = select.where('location_id', '=', query.location_id);
  if (query.status) select = select.where('status', '=', query.status);
  if (query.from) select = select.where('date', '>=', query.from);
  if (query.to) select = select.where('date', '<=', query.to);
  const listing = `shifts|employee=${query.employee_id ?? ''}|location=${query.location_id ?? ''}|status=${query.status ?? ''}|from=${query.from ?? ''}|to=${query.to ?? ''}`;
  return await companySyncList(deps, tenant.companyId, select, { listing, query }, toShiftView);
}

export { placeShifts };

/**
 * The worker's own published shifts in the portal ("Mis turnos": by default this week and next), and how many
 * were published or changed since they last looked (a badge).
 */
export async function workerShifts(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: TenantScope,
  employeeId: string,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<{ from: string; to: string; data: ShiftView[]; unseen: number }> {
  const today = localDate(deps.clock.now(), tenant.timezone);
  const monday = today.subtract({ days: today.dayOfWeek - 1 });
  const from = range.from ?? monday.toString();
  const to = range.to ?? monday.add({ days: 13 }).toString();
  if (to < from) throw invalid({ to: 'must be on or after from' });
  if (Temporal.PlainDate.from(from).until(to).days > 62)
    throw invalid({ to: 'must be at most 62 days after from' });
  const rows = await shiftsOfEmployees(deps.db, tenant.companyId, [employeeId], { from, to }, 'published');
  const seen = await shiftsSeenAt(deps.db, tenant.companyId, employeeId);
  const unseen = rows.filter(
    (row) => row.date >= today.toString() && (seen === null || row.updated_at.getTime() > seen.getTime()),
  ).length;
  return { from, to, data: rows.map(toShiftView), unseen };
}

/** The worker looked at their shifts: the badge starts again from now. */
export async function markWorkerShiftsSeen(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: TenantScope,
  employeeId: string,
): Promise<void> {
  await markShiftsSeen(deps.db, tenant.companyId, employeeId, toDate(deps.clock.now()));
}

/**
 * Tells each worker whose published shifts changed (docs/time-rules.md, "Planned shifts"), a short while after the
 * planner's last change of a round: a `shifts_published` notification listing their published shifts of the next
 * two weeks, in their inbox and, through the notifications' e-mail job, by e-mail in their language (issue 39
 * folded the shift e-mails into the one notification model). Returns how many workers it took.
 */
export async function tellShiftChanges(deps: Pick<AppDeps, 'db' | 'clock'>, limit = 20): Promise<number> {
  const { db, clock } = deps;
  const now = clock.now();
  return await db.transaction().execute(async (tx) => {
    const due = await takeDueShiftNotices(tx, toDate(now), limit);
    for (const worker of due) {
      const today = localDate(now, worker.timezone ?? worker.company_timezone);
      const until = today.add({ days: 13 });
      const shifts = await shiftsOfEmployees(
        tx,
        worker.company_id,
        [worker.id],
        { from: today.toString(), to: until.toString() },
        'published',
      );
      await notify(tx, worker.company_id, toDate(now), [
        {
          kind: 'shifts_published',
          to: [{ type: 'employee', id: worker.id }],
          data: {
            start_date: today.toString(),
            end_date: until.toString(),
            shifts: shifts.map((shift) => ({
              date: shift.date,
              start: shift.start_time,
              end: shift.end_time,
              on_call: shift.kind === 'on_call',
            })),
          },
          screen: 'shifts',
        },
      ]);
    }
    return due.length;
  });
}
