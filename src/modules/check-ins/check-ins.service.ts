import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Static } from 'typebox';
import { isOwnRecord } from '../../db/check-ins.ts';
import type { Executor } from '../../db/database.ts';
import { isMissedOpenShift, OPEN_SHIFT_DAYS, openShifts } from '../../db/open-shifts.ts';
import { withinReach } from '../../db/reach.ts';
import type { CheckInSource, CheckInType, PunchLocation, WorkMode } from '../../db/schema.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import {
  DEFAULT_LIMIT,
  keysetPage,
  mapPage,
  type Page,
  syncPage,
  timestampKey,
} from '../../platform/pagination.ts';
import type { ActingTenant, Actor, CompanyScope, ReachScope, TenantScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { employeeTimeZone, localDate } from '../../time/zones.ts';
import { findCompany as findCompanyOf } from '../companies/companies.repo.ts';
import { DEFAULT_LATE_RECORD_HOURS } from '../companies/companies.service.ts';
import { type EmployeeRow, findEmployee } from '../employees/employees.service.ts';
import { captureOf, type PunchPosition, punchLocation } from '../locations/locations.service.ts';
import { notify } from '../notifications/notifications.service.ts';
import { approvalSignature, approvalToSign } from '../passkeys/passkeys.service.ts';
import {
  assertMonthOpenIn,
  assertMonthsOpen,
  latestSeal,
  recordMonthVersions,
} from '../registry/months.service.ts';
import {
  appendToChain,
  type ChainTip,
  canonicalJson,
  checkInFactContent,
  responseFactContent,
} from '../registry/registry.service.ts';
import { datesAround } from '../workdays/consolidation.ts';
import { writeDays } from '../workdays/write-days.ts';
import {
  apiKeyKind,
  type CheckInRow,
  findCheckIn,
  findRecordsByOthers,
  insertCheckIn,
  insertResponse,
  latestActiveCheckIn,
  selectCheckInsMatching,
  selectUnanswered,
  timestampAtOrAfter,
} from './check-ins.repo.ts';
import type { CheckIn, CreateCheckInBody } from './check-ins.schemas.ts';

export type { CheckInRow } from './check-ins.repo.ts';

/** How far ahead of the service clock a check-in may be stamped (device clock skew). */
export const FUTURE_TOLERANCE_SECONDS = 5 * 60;

export type CheckInView = Static<typeof CheckIn>;

/** How long after its timestamp a terminal's record is still the worker's own: made at the moment. */
export const TERMINAL_MOMENT_SECONDS = 10 * 60;

/**
 * Whether a check-in is the worker's own record (docs/registry.md, "Records the worker did not make"): made by
 * the worker (the portal), by a terminal key within 10 minutes of its timestamp, or added by a correction both
 * sides approved. An integration's or an administrator's record is not, whenever it was made.
 */
export function isWorkersOwn(record: {
  source: CheckInSource;
  actorType: Actor['type'];
  keyKind: 'integration' | 'terminal' | null;
  delaySeconds: number;
}): boolean {
  if (record.source === 'correction' || record.actorType === 'employee') return true;
  if (record.actorType === 'api_key') {
    return record.keyKind === 'terminal' && record.delaySeconds <= TERMINAL_MOMENT_SECONDS;
  }
  // An administrator records for the worker; `system` wrote only the records from before the registry.
  return record.actorType === 'system';
}

/** A stored row's worker_confirmed; rows from before issue 34 (null) by who recorded them (db/check-ins.ts). */
export const workerConfirmedOf = (row: CheckInRow): boolean => isOwnRecord(row);

const toView = (row: CheckInRow): CheckInView => ({
  id: row.id,
  employee_id: row.employee_id,
  type: row.type,
  timestamp: formatInstant(row.timestamp),
  source: row.source,
  work_mode: row.work_mode,
  status: row.status,
  voided_by_correction_id: row.voided_by_correction_id,
  correction_id: row.correction_id,
  late: row.late,
  device_id: row.device_id,
  location: row.location,
  recorded_offline: row.recorded_offline,
  device_time: row.device_time === null ? null : formatInstant(row.device_time),
  received_at: row.recorded_at.toISOString(),
  recorded_at: row.recorded_at.toISOString(),
  recorded_by: {
    type: row.recorded_by_type,
    id: row.recorded_by_id,
    ...(row.recorded_by_key_kind === null ? {} : { key_kind: row.recorded_by_key_kind }),
  },
  worker_confirmed: workerConfirmedOf(row),
  worker_response:
    row.worker_response === null || row.worker_responded_at === null
      ? null
      : {
          status: row.worker_response,
          reason: row.worker_response_reason,
          at: row.worker_responded_at.toISOString(),
        },
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

export async function getCheckIn(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<CheckInView> {
  const { db } = deps;
  const { companyId } = tenant;
  const row = await findCheckIn(db, companyId, id);
  if (!row) throw notFound('Check-in');
  return toView(row);
}

/** Check-ins are kept at one-second resolution, the resolution of the public instant format. */
function truncateToSecond(instant: Temporal.Instant): Temporal.Instant {
  return Temporal.Instant.fromEpochMilliseconds(Math.floor(instant.epochMilliseconds / 1000) * 1000);
}

/**
 * Why a check-in of the employee at that instant cannot be recorded (too far in the future, outside the
 * employment), or null. The same rules hold for a check-in a correction adds.
 */
export function checkInTimingError(
  employee: EmployeeRow,
  companyTimeZone: string,
  timestamp: Temporal.Instant,
  now: Temporal.Instant,
): string | null {
  if (Temporal.Instant.compare(timestamp, now.add({ seconds: FUTURE_TOLERANCE_SECONDS })) > 0) {
    return 'must not be more than 5 minutes in the future';
  }
  const day = localDate(timestamp, employeeTimeZone(employee, companyTimeZone)).toString();
  if (day < employee.hire_date) return `must not be before the employee's hire date (${employee.hire_date})`;
  if (employee.termination_date !== null && day > employee.termination_date) {
    return `must not be after the employee's termination date (${employee.termination_date})`;
  }
  return null;
}

/** A check-in as the caller states it: the instant at one-second resolution. */
export type CheckInFact = { type: CheckInType; timestamp: Temporal.Instant; work_mode: WorkMode | null };

export const parseCheckInInstant = (text: string) => truncateToSecond(Temporal.Instant.from(text));

/**
 * Stores one check-in and appends it to the employee's registry chain, in the caller's transaction and under the
 * employee's row lock. Returns null when an active check-in of the same employee, type and timestamp exists.
 * The caller re-consolidates the days and records the events.
 */
export async function storeCheckIn(
  tx: Executor,
  tenant: TenantScope,
  employeeId: string,
  fact: CheckInFact,
  record: {
    source: CheckInSource;
    actor: Actor;
    correctionId: string | null;
    /** When it was recorded. */
    now: Temporal.Instant;
    /** The write's sync stamp (`updated_at`), when it is later than `now` (a replayed month, demo-month.ts). */
    stamp?: Temporal.Instant;
    /** The operator's late threshold (JORNADA_LATE_RECORD_HOURS), which the company's may only lower. */
    lateCeilingHours: number;
    /** The kiosk it was punched on (source `kiosk`). */
    deviceId?: string;
    /** Where it was punched, as the work centre asks (locations.service.ts, punchLocation). */
    location?: PunchLocation | null;
    /** A punch sent from a device's queue: the device that signed it and its sequence there (issue 40). */
    offline?: { deviceId: string; sequence: bigint };
    /** What this transaction already read for the punches before this one (PunchBatch). */
    batch?: PunchBatch;
  },
): Promise<CheckInRow | null> {
  const { companyId } = tenant;
  const at = toDate(record.now);
  const { batch } = record;
  // The account's setting governs its sandbox too.
  const company = batch?.accounts.has(tenant.accountId)
    ? batch.accounts.get(tenant.accountId)
    : await findCompanyOf(tx, tenant.accountId);
  batch?.accounts.set(tenant.accountId, company);
  const keyKind =
    record.actor.type === 'api_key'
      ? ((await apiKeyKind(tx, companyId, record.actor.id)) ?? 'integration')
      : null;
  const delaySeconds = (record.now.epochMilliseconds - fact.timestamp.epochMilliseconds) / 1000;
  const companyHours = company?.late_record_hours ?? DEFAULT_LATE_RECORD_HOURS;
  const lateAfter = Math.min(companyHours, record.lateCeilingHours) * 3_600_000;
  const row: CheckInRow = {
    id: newId(),
    employee_id: employeeId,
    type: fact.type,
    timestamp: new Date(fact.timestamp.epochMilliseconds),
    source: record.source,
    recorded_at: at,
    recorded_by_type: record.actor.type,
    recorded_by_id: record.actor.id,
    work_mode: fact.work_mode,
    status: 'active',
    late: record.now.epochMilliseconds - fact.timestamp.epochMilliseconds > lateAfter,
    correction_id: record.correctionId,
    voided_by_correction_id: null,
    recorded_by_key_kind: keyKind,
    worker_confirmed: isWorkersOwn({
      source: record.source,
      actorType: record.actor.type,
      keyKind,
      delaySeconds,
    }),
    created_at: at,
    worker_response: null,
    worker_response_reason: null,
    worker_responded_at: null,
    device_id: record.deviceId ?? null,
    location: record.location ?? null,
    // A queued punch's timestamp is the device's clock when it was made (to the second).
    recorded_offline: record.offline !== undefined,
    device_time: record.offline === undefined ? null : new Date(fact.timestamp.epochMilliseconds),
    offline_device_id: record.offline?.deviceId ?? null,
    device_sequence: record.offline === undefined ? null : String(record.offline.sequence),
    updated_at: record.stamp === undefined ? at : toDate(record.stamp),
  };
  if (!(await insertCheckIn(tx, companyId, row))) return null;
  const tip = await appendToChain(
    tx,
    companyId,
    employeeId,
    { kind: 'check_in', subjectId: row.id, content: checkInFactContent(row), recordedAt: at },
    batch?.tips.get(employeeId),
  );
  batch?.tips.set(employeeId, tip);
  // A record someone else made for the worker waits for their answer: they are told, once a day (issue 39).
  if (!row.worker_confirmed && record.correctionId === null) {
    const date = localDate(fact.timestamp, tenant.timezone).toString();
    const recorder = keyKind === 'terminal' ? 'terminal' : record.actor.type;
    await notify(tx, companyId, at, [
      {
        kind: 'record_to_answer',
        to: [{ type: 'employee', id: employeeId }],
        data: { date, recorder },
        screen: 'record',
        once: date,
      },
    ]);
  }
  return row;
}

/**
 * What one write of several punches has read so far, so that each punch does not read it again: the employees
 * (locked by the write for its whole transaction), the company's settings, and each employee chain's last entry
 * as this transaction wrote it. Made inside the write's transaction and dropped with it: a retried transaction
 * starts a new one.
 */
export type PunchBatch = {
  employees: Map<string, EmployeeRow>;
  /** The company whose settings govern, by account (a sandbox follows its account's). */
  accounts: Map<string, Awaited<ReturnType<typeof findCompanyOf>>>;
  tips: Map<string, ChainTip>;
  /** Each company's latest closed month (assertMonthOpenIn). */
  closed: Map<string, string | null>;
};
export const newPunchBatch = (): PunchBatch => ({
  employees: new Map(),
  accounts: new Map(),
  tips: new Map(),
  closed: new Map(),
});

/** What recording a check-in needs: the operator's late threshold is the default one unless given. */
export type RecordingDeps = Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'lateRecordHours'>>;

export async function recordCheckIn(
  deps: RecordingDeps,
  tenant: ActingTenant,
  input: Static<typeof CreateCheckInBody>,
  source: CheckInSource = tenant.actor.type === 'admin' ? 'dashboard' : 'api',
  /** Where and on what the worker punched (the portal and the kiosk). */
  at: PunchOrigin = {},
): Promise<CheckInView> {
  const timestamp = parseCheckInInstant(input.timestamp);
  const writer = { companyId: tenant.companyId, timezone: tenant.timezone };
  // The owner of day writes takes the employee's row lock first, before the insert (whose foreign key takes a
  // share lock on the same row), and refuses the check-in if it would change any sealed day (the day before
  // included: a break after midnight shortens the night shift that began the day before).
  return await writeDays(
    deps,
    writer,
    [input.employee_id],
    async (tx, now) => {
      const stored = await storePunch(tx, deps, tenant, { ...input, timestamp }, source, at, now);
      return { result: stored.view, touched: [stored.touched], events: [stored.event] };
    },
    { what: 'a check-in at that time' },
  );
}

/**
 * A worker's punches written in one write of days (the demo's month, issue 42): each under the rules of every
 * check-in and recorded at its own `recorded_at` (the moment it was made, so none is late), in order, with every
 * day they reach recomputed once. All or nothing: the first refusal rolls the whole write back.
 *
 * The recording moment comes from the caller, so this is for seeding the demo only: reached from a request, it
 * would let a company date its own late records as timely. test/unit/architecture.test.ts keeps it to
 * bootstrap/demo-month.ts, and a moment after the write's own is refused.
 */
export async function recordWorkerPunches(
  deps: RecordingDeps,
  tenant: ActingTenant,
  employeeId: string,
  punches: ReadonlyArray<{
    type: CheckInType;
    timestamp: Temporal.Instant;
    work_mode?: WorkMode | undefined;
    recorded_at: Temporal.Instant;
  }>,
  source: CheckInSource,
): Promise<void> {
  await writeDays(
    deps,
    { companyId: tenant.companyId, timezone: tenant.timezone },
    [employeeId],
    async (tx, now) => {
      const touched = [];
      const events = [];
      const batch = newPunchBatch();
      for (const { recorded_at, ...punch } of punches) {
        if (Temporal.Instant.compare(recorded_at, now) > 0)
          throw new Error('a punch recorded after its write');
        const stored = await storePunch(
          tx,
          deps,
          tenant,
          { ...punch, employee_id: employeeId },
          source,
          { recordedAt: recorded_at },
          now,
          batch,
        );
        touched.push(stored.touched);
        events.push(stored.event);
      }
      return { result: undefined, touched, events };
    },
    { what: 'these check-ins' },
  );
}

/** Where and on what a worker punched: the kiosk and its work centre, the position, a device's queue. */
export type PunchOrigin = {
  deviceId?: string;
  centreId?: string;
  position?: PunchPosition;
  /** A punch sent from a device's queue: the device that signed it and its sequence there (issue 40). */
  offline?: { deviceId: string; sequence: bigint };
  /** When the punch was made, before the write that records it (the demo's replayed month). */
  recordedAt?: Temporal.Instant;
};

/**
 * One check-in under the rules of every check-in (the employment, the future, an open month, the duplicate
 * rule), stored with its chain entry, inside the owner of day writes (writeDays) with the employee's row locked.
 * Throws the refusal as an ApiError before anything is written; returns what writeDays must settle.
 */
export async function storePunch(
  tx: Executor,
  deps: RecordingDeps,
  tenant: ActingTenant,
  input: {
    employee_id: string;
    type: CheckInType;
    timestamp: Temporal.Instant;
    work_mode?: WorkMode | undefined;
  },
  source: CheckInSource,
  at: PunchOrigin,
  now: Temporal.Instant,
  batch?: PunchBatch,
) {
  const { timestamp } = input;
  const recorded = at.recordedAt ?? now;
  const employee =
    batch?.employees.get(input.employee_id) ?? (await findEmployee(tx, tenant.companyId, input.employee_id));
  if (!employee) throw invalid({ employee_id: 'is not an employee of this company' });
  batch?.employees.set(employee.id, employee);
  const timingError = checkInTimingError(employee, tenant.timezone, timestamp, recorded);
  if (timingError) throw invalid({ timestamp: timingError });
  const zone = employeeTimeZone(employee, tenant.timezone);
  const day = localDate(timestamp, zone).toString();
  if (batch) await assertMonthOpenIn(tx, tenant.companyId, day, 'a check-in on that day', batch.closed);
  else await assertMonthsOpen(tx, tenant.companyId, { from: day, to: day }, 'a check-in on that day');

  const fact = { type: input.type, timestamp, work_mode: input.work_mode ?? null };
  const row = await storeCheckIn(tx, tenant, employee.id, fact, {
    source,
    actor: tenant.actor,
    correctionId: null,
    now: recorded,
    stamp: now,
    ...(batch ? { batch } : {}),
    lateCeilingHours: deps.lateRecordHours ?? DEFAULT_LATE_RECORD_HOURS,
    ...(at.deviceId ? { deviceId: at.deviceId } : {}),
    ...(at.offline ? { offline: at.offline } : {}),
    // The centre's setting is read only for a punch that brings a position (the portal's, the kiosk's).
    location:
      at.position === undefined
        ? null
        : punchLocation(
            await captureOf(tx, tenant.companyId, at.centreId ?? employee.location_id),
            at.position,
          ),
  });
  if (!row) throw invalid({ timestamp: 'duplicates a check-in of the same employee, type and timestamp' });
  return {
    view: toView(row),
    touched: { employeeId: employee.id, ...datesAround(timestamp, zone) },
    event: { type: 'checkin.created' as const, data: { check_in_id: row.id, employee_id: row.employee_id } },
  };
}

export type ListCheckInsQuery = {
  limit?: number | undefined;
  cursor?: string | undefined;
  updated_since?: string | undefined;
  employee_id?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  status?: 'active' | 'voided' | 'all' | undefined;
  outside_geofence?: boolean | undefined;
};

/**
 * The statuses a listing shows: the one asked for; by default the active check-ins, except in a sync
 * (updated_since), which must see a check-in that a correction voided.
 */
function statusFilter(query: ListCheckInsQuery): 'active' | 'voided' | undefined {
  const status = query.status ?? (query.updated_since === undefined ? 'active' : 'all');
  return status === 'all' ? undefined : status;
}

/** Which order a check-in listing uses, and the name its cursors are bound to. */
export function checkInsListing(query: ListCheckInsQuery): { order: 'sync' | 'timeline'; name: string } {
  // The geofence filter is named only when asked for: the listings' names (and their cursors) stay as they were.
  const name = `check-ins|employee=${query.employee_id ?? ''}|from=${query.from ?? ''}|to=${query.to ?? ''}|status=${statusFilter(query) ?? 'all'}${query.outside_geofence ? '|outside' : ''}`;
  const sync = (query.from === undefined && query.to === undefined) || query.updated_since !== undefined;
  return sync ? { order: 'sync', name } : { order: 'timeline', name: `${name}|timeline` };
}

/**
 * Two orders, each served by an index whose trailing columns are the sort key (see docs/decisions/0003):
 * - the sync order (updated_at, id), by default and whenever updated_since is given;
 * - the timeline order when from/to is given without updated_since: (timestamp, id), company-wide or for one
 *   employee.
 */
export async function listCheckIns(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: ReachScope,
  query: ListCheckInsQuery,
): Promise<Page<CheckInView>> {
  const { db, cursors: codec, syncHorizon: horizon } = deps;
  const { companyId } = tenant;
  const from = query.from === undefined ? undefined : Temporal.Instant.from(query.from);
  const to = query.to === undefined ? undefined : Temporal.Instant.from(query.to);
  if (from && to && Temporal.Instant.compare(to, from) <= 0) {
    throw invalid({ 'query.to': 'must be after from' });
  }
  const listing = checkInsListing(query);
  const range = {
    employeeId: query.employee_id,
    before: to ? toDate(to) : undefined,
    status: statusFilter(query),
    outsideGeofence: query.outside_geofence === true,
  };
  if (listing.order === 'sync') {
    const q = withinReach(
      selectCheckInsMatching(db, companyId, { ...range, from: from ? toDate(from) : undefined }),
      tenant,
      'check_ins.employee_id',
    );
    const page = await syncPage(q, {
      codec,
      horizon: horizon.of(companyId),
      listing: listing.name,
      query,
    });
    return mapPage(page, toView);
  }
  const page = await keysetPage(
    withinReach(selectCheckInsMatching(db, companyId, range), tenant, 'check_ins.employee_id'),
    {
      codec,
      listing: listing.name,
      sort: [
        { column: 'timestamp', kind: 'timestamp' },
        { column: 'id', kind: 'text' },
      ],
      limit: query.limit ?? DEFAULT_LIMIT,
      cursor: query.cursor,
      keyOf: (row) => [timestampKey(row.timestamp), row.id],
      start: from ? timestampAtOrAfter(toDate(from)) : undefined,
    },
  );
  return mapPage(page, toView);
}

/** An employee's latest active check-in, as the portal shows where the worker's day stands. */
export async function latestCheckIn(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  employeeId: string,
): Promise<CheckInView | null> {
  const row = await latestActiveCheckIn(deps.db, tenant.companyId, employeeId);
  return row ? toView(row) : null;
}

/**
 * The worker's shift still waiting for its `out`, if any (issue 38): its `in`, its workday, and whether it is a
 * probable missed clock-out (open 16 hours or more, src/time/engine.ts).
 */
export async function openShiftOf(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  employeeId: string,
  zone: string,
): Promise<{ since: string; date: string; missed_clock_out: boolean } | null> {
  const now = deps.clock.now();
  const [row] = await openShifts(deps.db, tenant.companyId, {
    employeeIds: [employeeId],
    fromDate: localDate(now, zone).subtract({ days: OPEN_SHIFT_DAYS }).toString(),
  });
  if (!row) return null;
  return {
    since: row.open_since.toISOString(),
    date: row.date,
    missed_clock_out: isMissedOpenShift(row, now),
  };
}

/** A worker clocks until the end of the last day of the employment (in their time zone). */
export function canClock(
  employee: { termination_date: string | null },
  zone: string,
  now: Temporal.Instant,
): boolean {
  return employee.termination_date === null || localDate(now, zone).toString() <= employee.termination_date;
}

/** What a worker's answer to a record someone else made signs: the record, the answer, the registry's seal. */
async function answerApproval(
  db: Executor,
  tenant: ActingTenant,
  row: { id: string; employee_id: string; type: string; timestamp: Date },
  response: 'accepted' | 'rejected',
  reason: string | null,
): Promise<Record<string, unknown>> {
  return {
    action: response === 'accepted' ? 'check_in_accepted' : 'check_in_rejected',
    company_id: tenant.companyId,
    employee_id: row.employee_id,
    check_in_id: row.id,
    type: row.type,
    timestamp: formatInstant(row.timestamp),
    reason,
    sealed: await latestSeal(db, tenant.companyId),
  };
}

/** What the worker's device signs to answer a record someone else made for them. */
export async function checkInAnswerToSign(
  deps: Pick<AppDeps, 'db' | 'publicUrl'>,
  tenant: ActingTenant,
  checkInId: string,
  answer: { response: 'accepted' | 'rejected'; reason?: string | undefined },
) {
  const row = await findCheckIn(deps.db, tenant.companyId, checkInId);
  if (!row || row.employee_id !== tenant.actor.id) throw notFound('Check-in');
  const reason = answer.response === 'rejected' ? (answer.reason ?? '').trim() : null;
  const approval = await answerApproval(deps.db, tenant, row, answer.response, reason);
  return await approvalToSign(deps, tenant, approval);
}

/**
 * The worker's answer to a check-in someone else recorded for them (docs/registry.md, "Records the worker did not
 * make"): accepted, or rejected with a reason (a dispute the company sees and the documents print). Once per
 * check-in (409 after), only for the worker's own check-ins that they did not make (404 for another's, 409 for
 * their own record). The answer enters their chain and recomputes the days it reaches: under `worker_consent`
 * an accepted record starts to count; a rejection flags the day `conflict` until a correction settles it. As the
 * worker's word on the record, like a correction, it applies to a closed month too.
 */
export async function answerCheckIn(
  deps: Pick<AppDeps, 'db' | 'clock' | 'sealedDocuments'> & Partial<Pick<AppDeps, 'publicUrl'>>,
  tenant: ActingTenant,
  checkInId: string,
  answer: { response: 'accepted' | 'rejected'; reason?: string | undefined },
  assertion?: AuthenticationResponseJSON,
): Promise<CheckInView> {
  const employeeId = tenant.actor.id;
  const writer = { companyId: tenant.companyId, timezone: tenant.timezone };
  return await writeDays(
    deps,
    writer,
    [employeeId],
    async (tx, now) => {
      const row = await findCheckIn(tx, tenant.companyId, checkInId);
      if (!row || row.employee_id !== employeeId) throw notFound('Check-in');
      if (workerConfirmedOf(row)) {
        throw new ApiError(
          'conflict',
          'This check-in is your own record: there is nothing to accept or reject.',
        );
      }
      if (row.status !== 'active')
        throw new ApiError('conflict', 'This check-in was voided by a correction.');
      const reason = answer.response === 'rejected' ? (answer.reason ?? '').trim() : null;
      if (reason === '') throw invalid({ reason: 'must not be blank' });
      const at = toDate(now);
      // A worker who has a passkey signs exactly this answer with it (issue 35).
      const signature = await approvalSignature(
        tx,
        deps,
        tenant,
        await answerApproval(tx, tenant, row, answer.response, reason),
        assertion,
      );
      // The credential and session the answer was made with, and the signature (issue 35), as its chain entry
      // records it.
      const credential = tenant.credential
        ? canonicalJson({ ...tenant.credential, ...(signature ? { signature } : {}) })
        : null;
      const inserted = await insertResponse(tx, tenant.companyId, row.id, {
        response: answer.response,
        reason,
        at,
        credential,
      });
      if (!inserted) throw new ApiError('conflict', 'This check-in was answered already.');
      await appendToChain(tx, tenant.companyId, employeeId, {
        kind: answer.response === 'accepted' ? 'check_in_accepted' : 'check_in_rejected',
        subjectId: row.id,
        content: responseFactContent({
          check_in_id: row.id,
          employee_id: employeeId,
          response: answer.response,
          reason,
          responded_at: at,
          credential,
        }),
        recordedAt: at,
      });
      const zone = await employeeZone(tx, tenant, employeeId);
      const timestamp = Temporal.Instant.fromEpochMilliseconds(row.timestamp.getTime());
      const answered = await findCheckIn(tx, tenant.companyId, row.id);
      return {
        result: toView(answered ?? row),
        touched: [{ employeeId, ...datesAround(timestamp, zone) }],
        events: [],
      };
    },
    {
      what: 'this answer',
      sealed: 'correction',
      // Each closed month whose figures the answer changed gets a new version of the worker's month.
      onSealedChange: (within, employee, dates) =>
        recordMonthVersions(
          within,
          tenant.companyId,
          employee,
          dates.map((date) => date.slice(0, 7)),
          {
            kind: 'check_in_answer',
            id: checkInId,
            reason: answer.response === 'accepted' ? 'accepted' : `rejected: ${answer.reason ?? ''}`,
          },
          toDate(deps.clock.now()),
        ),
    },
  );
}

async function employeeZone(tx: Executor, tenant: TenantScope, employeeId: string): Promise<string> {
  const employee = await findEmployee(tx, tenant.companyId, employeeId);
  if (!employee) throw notFound('Employee');
  return employeeTimeZone(employee, tenant.timezone);
}

/** The check-ins someone else recorded for the worker that they have not answered yet, oldest first. */
export async function listUnansweredCheckIns(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  employeeId: string,
): Promise<{ data: CheckInView[] }> {
  const rows = await selectUnanswered(deps.db, tenant.companyId, employeeId).limit(500).execute();
  return { data: rows.map(toView) };
}

/** A worker's records in [from, before) that the worker did not make, for the documents (issue 34). */
export async function recordsByOthersIn(
  db: Executor,
  companyId: string,
  employeeId: string,
  from: Date,
  before: Date,
) {
  return await findRecordsByOthers(db, companyId, employeeId, from, before);
}
