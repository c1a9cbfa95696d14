import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { withinReach } from '../../db/reach.ts';
import type { CorrectionAddition, CorrectionStatus } from '../../db/schema.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { mapPage, type Page, syncPage } from '../../platform/pagination.ts';
import type { ActingTenant, Actor, CompanyScope, ReachScope, TenantScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { employeeTimeZone, localDate } from '../../time/zones.ts';
import {
  type CheckInFact,
  checkInTimingError,
  parseCheckInInstant,
  type RecordingDeps,
  storeCheckIn,
} from '../check-ins/check-ins.service.ts';
import { DEFAULT_LATE_RECORD_HOURS } from '../companies/companies.service.ts';
import { type EmployeeRow, findEmployee } from '../employees/employees.service.ts';
import { type PendingEvent, recordEvents } from '../events/events.service.ts';
import { notify } from '../notifications/notifications.service.ts';
import { type ApprovalSignature, approvalSignature, approvalToSign } from '../passkeys/passkeys.service.ts';
import { latestSeal, recordMonthVersions } from '../registry/months.service.ts';
import { appendToChain, correctionRequestContent } from '../registry/registry.service.ts';
import { datesAround } from '../workdays/consolidation.ts';
import { settleDays } from '../workdays/write-days.ts';
import {
  type CorrectionRow,
  findActiveCheckIns,
  findCorrection,
  insertCorrection,
  selectCorrectionsMatching,
  updatePendingCorrection,
  voidCheckIns,
} from './corrections.repo.ts';
import type { Correction, CreateCorrectionBody } from './corrections.schemas.ts';

export type CorrectionView = Static<typeof Correction>;

const actorOf = (type: Actor['type'] | null, id: string | null): Actor | null =>
  type === null || id === null ? null : { type, id };

export function toView(row: CorrectionRow): CorrectionView {
  const companyBy = actorOf(row.company_approval_by_type, row.company_approval_by_id);
  const rejectedBy = actorOf(row.rejected_by_type, row.rejected_by_id);
  return {
    id: row.id,
    employee_id: row.employee_id,
    status: row.status,
    reason: row.reason,
    void: row.void_ids,
    add: row.add_items,
    requested_by: { type: row.requested_by_type, id: row.requested_by_id },
    requested_at: row.requested_at.toISOString(),
    company_approval:
      companyBy && row.company_approval_at
        ? { by: companyBy, at: row.company_approval_at.toISOString() }
        : null,
    employee_approval: row.employee_approval_at
      ? { by: { type: 'employee', id: row.employee_id }, at: row.employee_approval_at.toISOString() }
      : null,
    rejection:
      rejectedBy && row.rejected_at
        ? { by: rejectedBy, at: row.rejected_at.toISOString(), reason: row.rejection_reason ?? '' }
        : null,
    applied_at: row.applied_at ? row.applied_at.toISOString() : null,
    created_at: formatInstant(row.created_at),
    updated_at: formatInstant(row.updated_at),
  };
}

/** A worker (the portal) sees and decides only their own corrections; the company sees all of its own. */
type Viewer = { employeeId?: string | undefined };
const viewerOf = (tenant: ActingTenant): Viewer =>
  tenant.actor.type === 'employee' ? { employeeId: tenant.actor.id } : {};

export async function getCorrection(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
  viewer: Viewer = {},
): Promise<CorrectionView> {
  const row = await findCorrection(deps.db, tenant.companyId, id, viewer);
  if (!row) throw notFound('Check-in correction');
  return toView(row);
}

export type ListCorrectionsQuery = {
  limit?: number | undefined;
  cursor?: string | undefined;
  updated_since?: string | undefined;
  employee_id?: string | undefined;
  status?: CorrectionStatus | undefined;
};

export async function listCorrections(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: ReachScope,
  query: ListCorrectionsQuery,
): Promise<Page<CorrectionView>> {
  const { db, cursors: codec, syncHorizon: horizon } = deps;
  const filters = { employeeId: query.employee_id, status: query.status };
  const select = withinReach(
    selectCorrectionsMatching(db, tenant.companyId, filters),
    tenant,
    'check_in_corrections.employee_id',
  );
  const page = await syncPage(select, {
    codec,
    horizon: horizon.of(tenant.companyId),
    listing: `check-in-corrections|employee=${query.employee_id ?? ''}|status=${query.status ?? ''}`,
    query,
  });
  return mapPage(page, toView);
}

/** The additions as the registry keeps them: instants at one-second resolution, in UTC. */
function normalizeAdditions(input: Static<typeof CreateCorrectionBody>['add']): CorrectionAddition[] {
  return (input ?? []).map((item) => ({
    type: item.type,
    timestamp: formatInstant(new Date(parseCheckInInstant(item.timestamp).epochMilliseconds)),
    work_mode: item.work_mode ?? null,
  }));
}

const factOf = (item: CorrectionAddition): CheckInFact => ({
  type: item.type,
  timestamp: Temporal.Instant.from(item.timestamp),
  work_mode: item.work_mode,
});

/**
 * Requests a correction of an employee's check-ins. Nothing in the record changes until the company and the
 * worker have both approved it; a worker's own request (the portal) carries the worker's approval already.
 */
export async function requestCorrection(
  deps: Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'publicUrl'>>,
  tenant: ActingTenant,
  input: Static<typeof CreateCorrectionBody>,
  assertion?: AuthenticationResponseJSON,
): Promise<CorrectionView> {
  const { db, clock } = deps;
  const byWorker = tenant.actor.type === 'employee';
  // An administrator who asks in the dashboard approves by asking (issue 39): the correction waits for the worker
  // alone. An API key keeps the explicit approve step (the public contract).
  const byAdmin = tenant.actor.type === 'admin';
  return await withSyncStamp(db, clock, tenant.companyId, async (tx, now) => {
    const at = toDate(now);
    const employee = await findEmployee(tx, tenant.companyId, input.employee_id, { lock: true });
    if (!employee || (byWorker && employee.id !== tenant.actor.id)) {
      throw invalid({ employee_id: 'is not an employee of this company' });
    }
    const voidIds = input.void ?? [];
    const additions = normalizeAdditions(input.add);
    const errors: Record<string, string> = {};
    if (input.reason.trim() === '') errors.reason = 'must not be blank';
    if (voidIds.length === 0 && additions.length === 0) {
      errors.void = 'or add must name at least one check-in';
    }
    const active = await findActiveCheckIns(tx, tenant.companyId, employee.id, { ids: voidIds });
    const activeIds = new Set(active.map((row) => row.id));
    voidIds.forEach((id, index) => {
      if (!activeIds.has(id)) errors[`void[${index}]`] = 'is not an active check-in of this employee';
    });
    Object.assign(errors, await additionErrors(tx, tenant, employee, voidIds, additions, now));
    if (Object.keys(errors).length > 0) throw invalid(errors);

    const row: CorrectionRow = {
      id: newId(),
      employee_id: employee.id,
      status: 'pending',
      reason: input.reason,
      void_ids: voidIds,
      add_items: additions,
      requested_by_type: tenant.actor.type,
      requested_by_id: tenant.actor.id,
      requested_at: at,
      company_approval_by_type: byAdmin ? tenant.actor.type : null,
      company_approval_by_id: byAdmin ? tenant.actor.id : null,
      company_approval_at: byAdmin ? at : null,
      employee_approval_at: byWorker ? at : null,
      rejected_by_type: null,
      rejected_by_id: null,
      rejected_at: null,
      rejection_reason: null,
      applied_at: null,
      created_at: at,
      updated_at: at,
    };
    await insertCorrection(tx, tenant.companyId, row);
    await appendToChain(tx, tenant.companyId, employee.id, {
      kind: 'correction_requested',
      subjectId: row.id,
      content: correctionRequestContent(row),
      recordedAt: at,
    });
    if (byWorker) {
      // The request is the worker's approval: signed with their passkey when they have one (issue 35).
      const { id: _, ...requested } = row;
      const signature = await approvalSignature(
        tx,
        deps,
        tenant,
        await correctionApproval(tx, tenant, requested),
        assertion,
      );
      await appendApproval(tx, tenant, row, at, signature);
    }
    if (byAdmin) await appendApproval(tx, tenant, row, at, undefined);
    await recordEvents(tx, tenant.companyId, at, [requestedEvent(row, 'pending')]);
    // Whoever did not ask is told that the correction waits for them (issue 39).
    const instants = [
      ...active.map((record) => Temporal.Instant.fromEpochMilliseconds(record.timestamp.getTime())),
      ...additions.map((item) => Temporal.Instant.from(item.timestamp)),
    ].sort(Temporal.Instant.compare);
    const date = instants[0]?.toZonedDateTimeISO(tenant.timezone).toPlainDate().toString() ?? null;
    await notify(tx, tenant.companyId, at, [
      byWorker
        ? {
            kind: 'correction_requested',
            to: { approversOf: employee.id },
            data: {
              correction_id: row.id,
              employee_name: `${employee.first_name} ${employee.last_name}`,
              date,
              reason: row.reason,
            },
            screen: 'check-ins',
          }
        : {
            kind: 'correction_to_accept',
            to: [{ type: 'employee', id: employee.id }],
            data: { correction_id: row.id, date, reason: row.reason },
            screen: 'corrections',
          },
    ]);
    return toView(row);
  });
}

const requestedEvent = (row: CorrectionRow, status: 'pending'): PendingEvent => ({
  type: 'check_in_correction.requested',
  data: { correction_id: row.id, employee_id: row.employee_id, status },
});

/**
 * What is wrong with the check-ins a correction adds: the rules of a check-in (not in the future, within the
 * employment), and no duplicate of another addition or of an active check-in that the correction keeps.
 */
async function additionErrors(
  tx: Executor,
  tenant: TenantScope,
  employee: EmployeeRow,
  voidIds: string[],
  additions: CorrectionAddition[],
  now: Temporal.Instant,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  const instants = additions.map((item) => Temporal.Instant.from(item.timestamp));
  const existing = await findActiveAt(tx, tenant.companyId, employee.id, instants, new Set(voidIds));
  additions.forEach((item, index) => {
    const instant = instants[index] as Temporal.Instant;
    const timing = checkInTimingError(employee, tenant.timezone, instant, now);
    const key = `${item.type}|${instant.epochMilliseconds}`;
    if (timing) errors[`add[${index}].timestamp`] = timing;
    else if (seen.has(key) || existing.has(key)) {
      errors[`add[${index}]`] = 'duplicates a check-in of the same type and timestamp';
    }
    seen.add(key);
  });
  return errors;
}

/** The employee's active check-ins at those instants, but those being voided, as `type|epoch ms` keys. */
async function findActiveAt(
  tx: Executor,
  companyId: string,
  employeeId: string,
  instants: Temporal.Instant[],
  voiding: Set<string>,
): Promise<Set<string>> {
  const rows = await findActiveCheckIns(tx, companyId, employeeId, {
    instants: instants.map((instant) => new Date(instant.epochMilliseconds)),
  });
  return new Set(
    rows.filter((row) => !voiding.has(row.id)).map((row) => `${row.type}|${row.timestamp.getTime()}`),
  );
}

async function appendApproval(
  tx: Executor,
  tenant: ActingTenant,
  row: CorrectionRow,
  at: Date,
  signature: ApprovalSignature | undefined,
) {
  await appendToChain(tx, tenant.companyId, row.employee_id, {
    kind: tenant.actor.type === 'employee' ? 'correction_accepted' : 'correction_approved',
    subjectId: row.id,
    // The worker's acceptance names the credential and session it was made with, and carries the passkey's
    // signature of the approval when the worker has a passkey (issue 35).
    content: {
      correction_id: row.id,
      by: tenant.credential ? { ...tenant.actor, credential: tenant.credential } : tenant.actor,
      at: at.toISOString(),
      ...(signature ? { signature } : {}),
    },
    recordedAt: at,
  });
}

/**
 * Finds a correction to decide and locks its employee (the lock order: the employee's row, then what hangs from
 * it; docs/architecture.md). A worker finds only their own. A decided correction is 409.
 */
async function pendingCorrection(tx: Executor, tenant: ActingTenant, id: string): Promise<CorrectionRow> {
  const viewer = viewerOf(tenant);
  const found = await findCorrection(tx, tenant.companyId, id, viewer);
  if (!found) throw notFound('Check-in correction');
  await findEmployee(tx, tenant.companyId, found.employee_id, { lock: true });
  const row = await findCorrection(tx, tenant.companyId, id, viewer);
  if (!row) throw notFound('Check-in correction');
  if (row.status !== 'pending') {
    throw new ApiError('conflict', `The correction is ${row.status}: a decided correction does not change.`, {
      errors: { status: row.status },
    });
  }
  return row;
}

/**
 * Records one side's approval: the company's (an API key or an administrator) or the worker's (the portal).
 * When both exist the correction is applied in the same transaction. Of concurrent approvals exactly one
 * applies it: they queue on the employee's row lock, and the later ones find it applied (409).
 */
export async function approveCorrection(
  deps: RecordingDeps & Pick<AppDeps, 'sealedDocuments'> & Partial<Pick<AppDeps, 'publicUrl'>>,
  tenant: ActingTenant,
  id: string,
  assertion?: AuthenticationResponseJSON,
): Promise<CorrectionView> {
  const { db, clock } = deps;
  return await withSyncStamp(db, clock, tenant.companyId, async (tx, now) => {
    const at = toDate(now);
    const row = await pendingCorrection(tx, tenant, id);
    const byWorker = tenant.actor.type === 'employee';
    const given = byWorker ? row.employee_approval_at : row.company_approval_at;
    if (given) {
      throw new ApiError(
        'conflict',
        `The correction already has the ${byWorker ? "worker's" : "company's"} approval; it waits for the ${byWorker ? "company's" : "worker's"}.`,
        { errors: { status: row.status } },
      );
    }
    // A worker who has a passkey signs exactly this approval with it (issue 35).
    const signature = byWorker
      ? await approvalSignature(tx, deps, tenant, await correctionApproval(tx, tenant, row), assertion)
      : undefined;
    const approval = byWorker
      ? { employee_approval_at: at }
      : {
          company_approval_by_type: tenant.actor.type,
          company_approval_by_id: tenant.actor.id,
          company_approval_at: at,
        };
    await updatePendingCorrection(tx, tenant.companyId, id, { ...approval, updated_at: at });
    const approved: CorrectionRow = { ...row, ...approval, updated_at: at };
    await appendApproval(tx, tenant, approved, at, signature);
    if (approved.company_approval_at && approved.employee_approval_at) {
      // It may change a closed month: the month's queued documents are made first, showing the version it ends.
      await deps.sealedDocuments.flush(tx, tenant.companyId, row.employee_id);
      return toView(
        await applyCorrection(tx, tenant, approved, now, deps.lateRecordHours ?? DEFAULT_LATE_RECORD_HOURS),
      );
    }
    return toView(approved);
  });
}

/**
 * What a worker's approval of a correction signs (docs/security.md, Passkeys): the correction as requested (what
 * it voids and adds, and why), the correction's id once it exists (a worker's own request signs before it has
 * one), and the latest seal of the company's registry, in canonical JSON.
 */
async function correctionApproval(
  db: Executor,
  tenant: ActingTenant,
  correction: { id?: string; employee_id: string; reason: string; void_ids: string[]; add_items: unknown[] },
): Promise<Record<string, unknown>> {
  return {
    action: correction.id ? 'correction_accepted' : 'correction_requested',
    company_id: tenant.companyId,
    employee_id: correction.employee_id,
    ...(correction.id ? { correction_id: correction.id } : {}),
    reason: correction.reason,
    void: correction.void_ids,
    add: correction.add_items,
    sealed: await latestSeal(db, tenant.companyId),
  };
}

/** What the worker's device signs to request a correction (the request carries the worker's approval). */
export async function correctionRequestToSign(
  deps: Pick<AppDeps, 'db' | 'publicUrl'>,
  tenant: ActingTenant,
  input: Static<typeof CreateCorrectionBody>,
) {
  const approval = await correctionApproval(deps.db, tenant, {
    employee_id: input.employee_id,
    reason: input.reason,
    void_ids: input.void ?? [],
    add_items: normalizeAdditions(input.add),
  });
  return await approvalToSign(deps, tenant, approval);
}

/** What the worker's device signs to accept a correction: the approval, its hash, and WebAuthn options. */
export async function correctionToSign(
  deps: Pick<AppDeps, 'db' | 'publicUrl'>,
  tenant: ActingTenant,
  id: string,
): Promise<{ approval: Record<string, unknown>; challenge: string; options: object | null }> {
  const row = await findCorrection(deps.db, tenant.companyId, id, viewerOf(tenant));
  if (!row) throw notFound('Check-in correction');
  if (row.status !== 'pending' || row.employee_approval_at) {
    throw new ApiError('conflict', 'The correction waits for no approval of yours.', {
      errors: { status: row.status },
    });
  }
  return await approvalToSign(deps, tenant, await correctionApproval(deps.db, tenant, row));
}

/**
 * Applies a correction both sides approved: voids, then adds, then re-consolidates every day they touch, in the
 * approving transaction. A check-in voided meanwhile by another correction, or an addition that now breaks a rule
 * (a termination moved, a duplicate recorded), is 409 and nothing changes: the correction stays pending.
 */
async function applyCorrection(
  tx: Executor,
  tenant: ActingTenant,
  row: CorrectionRow,
  now: Temporal.Instant,
  lateCeilingHours: number,
): Promise<CorrectionRow> {
  const at = toDate(now);
  const employee = await findEmployee(tx, tenant.companyId, row.employee_id);
  if (!employee) throw notFound('Employee');
  const voided = await voidCheckIns(tx, tenant.companyId, employee.id, row.void_ids, row.id, at);
  if (voided.length !== row.void_ids.length) {
    const done = new Set(voided.map((item) => item.id));
    const gone = row.void_ids.find((item) => !done.has(item));
    throw new ApiError('conflict', `Check-in ${gone} is no longer active: the correction cannot apply.`, {
      errors: { check_in_id: gone ?? '' },
    });
  }
  for (const item of voided) {
    await appendToChain(tx, tenant.companyId, employee.id, {
      kind: 'check_in_void',
      subjectId: item.id,
      content: { check_in_id: item.id, correction_id: row.id, employee_id: employee.id },
      recordedAt: at,
    });
  }
  const errors = await additionErrors(tx, tenant, employee, [], row.add_items, now);
  if (Object.keys(errors).length > 0) {
    throw new ApiError('conflict', 'An addition of the correction no longer holds: it cannot apply.', {
      errors,
    });
  }
  const requester = { type: row.requested_by_type, id: row.requested_by_id };
  const added: string[] = [];
  for (const item of row.add_items) {
    const stored = await storeCheckIn(tx, tenant, employee.id, factOf(item), {
      source: 'correction',
      actor: requester,
      correctionId: row.id,
      now,
      lateCeilingHours,
    });
    if (stored) added.push(stored.id);
  }
  await updatePendingCorrection(tx, tenant.companyId, row.id, {
    status: 'applied',
    applied_at: at,
    updated_at: at,
  });
  await appendToChain(tx, tenant.companyId, employee.id, {
    kind: 'correction_applied',
    subjectId: row.id,
    content: { correction_id: row.id, voided: row.void_ids, added, applied_at: at.toISOString() },
    recordedAt: at,
  });
  const instants = [
    ...voided.map((item) => Temporal.Instant.fromEpochMilliseconds(item.timestamp.getTime())),
    ...row.add_items.map((item) => Temporal.Instant.from(item.timestamp)),
  ].sort(Temporal.Instant.compare);
  const zone = employeeTimeZone(employee, tenant.timezone);
  const first = instants[0] as Temporal.Instant;
  const last = instants[instants.length - 1] as Temporal.Instant;
  // What a payroll integration reads again (issue 41): the dates of the check-ins voided and added, and every
  // date whose figures the recomputation changed (a break after midnight changes the day before); filled in by
  // settleDays before the events are recorded.
  const affected = new Set(instants.map((instant) => localDate(instant, zone).toString()));
  const applied = {
    type: 'check_in_correction.applied' as const,
    data: {
      correction_id: row.id,
      employee_id: employee.id,
      status: 'applied' as const,
      affected_dates: [] as string[],
      affected_months: [] as string[],
    },
  };
  // The one write that may change a sealed day: both sides approved it, and it leaves both versions visible.
  await settleDays(
    tx,
    tenant,
    now,
    {
      result: null,
      touched: [
        { employeeId: employee.id, from: datesAround(first, zone).from, to: datesAround(last, zone).to },
      ],
      events: [
        applied,
        ...added.map(
          (checkInId): PendingEvent => ({
            type: 'checkin.created',
            data: { check_in_id: checkInId, employee_id: employee.id },
          }),
        ),
      ],
    },
    {
      what: 'this correction',
      sealed: 'correction',
      onChange: (_employeeId, dates) => {
        for (const date of dates) affected.add(date);
        applied.data.affected_dates = [...affected].sort();
        applied.data.affected_months = [
          ...new Set(applied.data.affected_dates.map((date) => date.slice(0, 7))),
        ];
      },
      // Each closed month whose figures it changed gets a new version of the worker's month.
      onSealedChange: (within, employeeId, dates) =>
        recordMonthVersions(
          within,
          tenant.companyId,
          employeeId,
          dates.map((date) => date.slice(0, 7)),
          { kind: 'correction', id: row.id, reason: row.reason },
          at,
        ),
    },
  );
  return { ...row, status: 'applied', applied_at: at, updated_at: at };
}

/** Ends a pending correction as rejected, by the company or by the worker, with the reason. */
export async function rejectCorrection(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: ActingTenant,
  id: string,
  reason: string,
): Promise<CorrectionView> {
  const { db, clock } = deps;
  if (reason.trim() === '') throw invalid({ reason: 'must not be blank' });
  return await withSyncStamp(db, clock, tenant.companyId, async (tx, now) => {
    const at = toDate(now);
    const row = await pendingCorrection(tx, tenant, id);
    const rejection = {
      status: 'rejected' as const,
      rejected_by_type: tenant.actor.type,
      rejected_by_id: tenant.actor.id,
      rejected_at: at,
      rejection_reason: reason,
      updated_at: at,
    };
    await updatePendingCorrection(tx, tenant.companyId, id, rejection);
    await appendToChain(tx, tenant.companyId, row.employee_id, {
      kind: 'correction_rejected',
      subjectId: row.id,
      content: { correction_id: row.id, by: tenant.actor, at: at.toISOString(), reason },
      recordedAt: at,
    });
    await recordEvents(tx, tenant.companyId, at, [
      {
        type: 'check_in_correction.rejected',
        data: { correction_id: row.id, employee_id: row.employee_id, status: 'rejected' },
      },
    ]);
    return toView({ ...row, ...rejection });
  });
}
