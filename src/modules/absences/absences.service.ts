import type { Static } from 'typebox';
import type { Tx } from '../../db/database.ts';
import { withinReach } from '../../db/reach.ts';
import type { AbsenceStatus } from '../../db/schema.ts';
import { syncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { mapPage, type Page, syncPage } from '../../platform/pagination.ts';
import type { ActingTenant, CompanyScope, ReachScope, TenantScope } from '../../platform/tenant.ts';
import { absenceDaysCount, daysInRange } from '../../time/calendar.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { employedMinutes } from '../../time/contract.ts';
import { findAbsenceTypeByKey } from '../absence-types/absence-types.repo.ts';
import { contractOf } from '../employees/employees.repo.ts';
import { findEmployee } from '../employees/employees.service.ts';
import { type PendingEvent, recordEvents } from '../events/events.service.ts';
import { nameOf, notify } from '../notifications/notifications.service.ts';
import { assertMonthsOpen } from '../registry/months.service.ts';
import { chainAbsence } from '../registry/registry.service.ts';
import { balanceEvents } from '../workdays/absence-days.ts';
import { findHolidayDates as holidayDates } from '../workdays/workdays.repo.ts';
import { writeDays } from '../workdays/write-days.ts';
import {
  type AbsenceRow,
  findAbsence,
  findOverlappingAbsence,
  insertAbsence,
  moveAbsence,
  selectAbsencesMatching,
} from './absences.repo.ts';
import { type Absence, type CreateAbsenceBody, MAX_ABSENCE_DAYS } from './absences.schemas.ts';

export { approvedAbsencesOfEmployees } from './absences.repo.ts';
export type AbsenceView = Static<typeof Absence>;

const toView = (row: AbsenceRow): AbsenceView => ({
  id: row.id,
  employee_id: row.employee_id,
  type: { key: row.type_key, label: row.type_label },
  start_date: row.start_date,
  end_date: row.end_date,
  half_day: row.half_day,
  status: row.status,
  days_count: Number(row.days_count),
  note: row.note,
  denial_reason: row.denial_reason,
  decided_at: row.decided_at ? formatInstant(row.decided_at) : null,
  cancelled_at: row.cancelled_at ? formatInstant(row.cancelled_at) : null,
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

export async function getAbsence(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<AbsenceView> {
  const { db } = deps;
  const { companyId } = tenant;
  const row = await findAbsence(db, companyId, id);
  if (!row) throw notFound('Absence');
  return toView(row);
}

export type ListAbsencesQuery = {
  limit?: number | undefined;
  cursor?: string | undefined;
  updated_since?: string | undefined;
  employee_id?: string | undefined;
  type?: string | undefined;
  status?: AbsenceStatus | undefined;
  from?: string | undefined;
  to?: string | undefined;
};

/** With from/to, the absences that overlap the inclusive range; combined with any other filter. */
export async function listAbsences(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: ReachScope,
  query: ListAbsencesQuery,
): Promise<Page<AbsenceView>> {
  const { db, cursors: codec, syncHorizon: horizon } = deps;
  const { companyId } = tenant;
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
    throw invalid({ 'query.to': 'must be on or after from' });
  }
  const page = await syncPage(
    withinReach(selectAbsencesMatching(db, companyId, query), tenant, 'absences.employee_id'),
    {
      codec,
      horizon: horizon.of(companyId),
      listing: `absences|employee=${query.employee_id ?? ''}|type=${query.type ?? ''}|status=${query.status ?? ''}|from=${query.from ?? ''}|to=${query.to ?? ''}`,
      query,
    },
    'absences.',
  );
  return mapPage(page, toView);
}

/**
 * Checks a request (the employee, the type, the dates within the employment, no overlap with a requested or
 * approved absence) and counts its days in the employee's calendar, inside the caller's transaction, which must
 * hold the employee's row lock for the overlap check to hold.
 */
async function checkedRequest(tx: Tx, tenant: TenantScope, input: Static<typeof CreateAbsenceBody>) {
  const halfDay = input.half_day ?? false;
  // Locking the employee serializes this employee's absence requests, so the overlap check below holds.
  const employee = await findEmployee(tx, tenant.companyId, input.employee_id, { lock: true });
  const type = await findAbsenceTypeByKey(tx, tenant.companyId, input.type);
  const errors: Record<string, string> = {};
  if (!employee) errors.employee_id = 'is not an employee of this company';
  if (!type) errors.type = 'is not an absence type of this company';
  if (input.end_date < input.start_date) {
    errors.end_date = 'must be on or after start_date';
  } else if (daysInRange(input.start_date, input.end_date) > MAX_ABSENCE_DAYS) {
    errors.end_date = `must be at most ${MAX_ABSENCE_DAYS} days after start_date, inclusive`;
  }
  if (halfDay && input.start_date !== input.end_date) {
    errors.half_day = 'is only allowed when start_date equals end_date';
  }
  if (employee && input.start_date < employee.hire_date) {
    errors.start_date = `must not be before the employee's hire date (${employee.hire_date})`;
  }
  if (employee?.termination_date && input.end_date > employee.termination_date) {
    errors.end_date ??= `must not be after the employee's termination date (${employee.termination_date})`;
  }
  if (!employee || !type || Object.keys(errors).length > 0) throw invalid(errors);

  const overlapping = await findOverlappingAbsence(tx, tenant.companyId, employee.id, input);
  if (overlapping) {
    throw new ApiError(
      'conflict',
      `The range overlaps absence ${overlapping.id} of the same employee, which is requested or approved.`,
      { errors: { conflicting_absence_id: overlapping.id } },
    );
  }

  // The employee's calendar: the company's holidays and their work centre's.
  const holidays = await holidayDates(
    tx,
    tenant.companyId,
    input.start_date,
    input.end_date,
    employee.location_id,
  );
  const employed = { ...employee, contract: await contractOf(tx, tenant.companyId, employee.id) };
  const daysCount = absenceDaysCount(
    { start_date: input.start_date, end_date: input.end_date, half_day: halfDay },
    (date) => employedMinutes(employed, date),
    new Set(holidays),
  );
  return { employee, type, halfDay, daysCount };
}

/**
 * The days a request would count, checked as a request is, without storing anything (the portal shows the
 * balance after it before the worker sends it). Its transaction rolls back.
 */
export async function previewAbsence(
  deps: Pick<AppDeps, 'db'>,
  tenant: TenantScope,
  input: Static<typeof CreateAbsenceBody>,
): Promise<{ days_count: number }> {
  const { db } = deps;
  return await db.transaction().execute(async (tx) => {
    const { daysCount } = await checkedRequest(tx, tenant, input);
    return { days_count: daysCount };
  });
}

export async function requestAbsence(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: TenantScope,
  input: Static<typeof CreateAbsenceBody>,
): Promise<AbsenceView> {
  const { db, clock } = deps;
  return await db.transaction().execute(async (tx) => {
    const { employee, type, halfDay, daysCount } = await checkedRequest(tx, tenant, input);
    const at = toDate(await syncStamp(tx, clock, tenant.companyId));
    const row: AbsenceRow = {
      id: newId(),
      employee_id: employee.id,
      type_key: type.key,
      type_label: type.label,
      start_date: input.start_date,
      end_date: input.end_date,
      half_day: halfDay,
      status: 'requested',
      days_count: String(daysCount),
      note: input.note ?? null,
      denial_reason: null,
      decided_at: null,
      cancelled_at: null,
      created_at: at,
      updated_at: at,
    };
    const { type_key: _key, type_label: _label, ...columns } = row;
    await insertAbsence(tx, tenant.companyId, type.id, columns);
    await chainAbsence(tx, tenant.companyId, row.id, at);
    await recordEvents(tx, tenant.companyId, at, [
      {
        type: 'absence.requested',
        data: { absence_id: row.id, employee_id: row.employee_id, status: 'requested' },
      },
      ...balanceEvents(row),
    ]);
    // A worker's own request waits for the company: its administrators are told (issue 39).
    if (actorOf(tenant)?.type === 'employee') {
      await notify(tx, tenant.companyId, at, [
        {
          kind: 'absence_requested',
          to: { approversOf: row.employee_id },
          data: {
            absence_id: row.id,
            employee_name: await nameOf(tx, tenant.companyId, row.employee_id),
            type_label: row.type_label,
            start_date: row.start_date,
            end_date: row.end_date,
            days_count: daysCount,
          },
          screen: 'absences',
        },
      ]);
    }
    return toView(row);
  });
}

/** Who acts, when the caller says (a portal request or a dashboard session does). */
const actorOf = (tenant: TenantScope) => ('actor' in tenant ? (tenant as ActingTenant).actor : undefined);

type Transition = {
  to: 'approved' | 'denied' | 'cancelled';
  from: AbsenceStatus[];
  event: 'absence.approved' | 'absence.denied' | 'absence.cancelled';
};

const TRANSITIONS = {
  approve: { to: 'approved', from: ['requested'], event: 'absence.approved' },
  reject: { to: 'denied', from: ['requested'], event: 'absence.denied' },
  cancel: { to: 'cancelled', from: ['requested', 'approved'], event: 'absence.cancelled' },
} as const satisfies Record<string, Transition>;

export type AbsenceDecision = keyof typeof TRANSITIONS;

/**
 * Moves an absence from an allowed state with one conditional UPDATE: of concurrent decisions, exactly one
 * matches the row, and only it writes events. The others find the new state and answer 409.
 */
export async function decideAbsence(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: TenantScope,
  id: string,
  decision: AbsenceDecision,
  input: { reason?: string | undefined } = {},
  /** A worker's own decision (the portal): only their absences, and only from these states. */
  only?: { employeeId: string; from: AbsenceStatus[] },
): Promise<AbsenceView> {
  const allowed: Transition = TRANSITIONS[decision];
  const transition: Transition = only ? { ...allowed, from: only.from } : allowed;
  // The lock order starts with the employee's row, so the absence is read first to know whose it is (an absence
  // never changes employee), then read again under the lock.
  const known = await findAbsence(deps.db, tenant.companyId, id);
  if (!known || (only && known.employee_id !== only.employeeId)) throw notFound('Absence');
  const what = `to make the absence ${transition.to}`;
  return await writeDays(
    deps,
    tenant,
    [known.employee_id],
    async (tx, now) => {
      const at = toDate(now);
      const before = await findAbsence(tx, tenant.companyId, id);
      if (!before) throw notFound('Absence');
      // Approving, or cancelling an approved absence, changes the figures of its dates: not on a sealed date.
      const figures =
        transition.to === 'approved' || (transition.to === 'cancelled' && before.status === 'approved');
      if (figures) {
        await assertMonthsOpen(tx, tenant.companyId, { from: before.start_date, to: before.end_date }, what);
      }
      const changed = await moveAbsence(tx, tenant.companyId, id, transition.from, {
        status: transition.to,
        updated_at: at,
        ...(transition.to === 'cancelled' ? { cancelled_at: at } : { decided_at: at }),
        ...(transition.to === 'denied' ? { denial_reason: input.reason ?? null } : {}),
      });
      const row = await findAbsence(tx, tenant.companyId, id);
      if (!row) throw notFound('Absence');
      if (!changed) {
        throw new ApiError(
          'conflict',
          `The absence is ${row.status}; it can be ${transition.to} only while ${transition.from.join(' or ')}.`,
          { errors: { status: row.status } },
        );
      }
      await chainAbsence(tx, tenant.companyId, id, at);
      // A decision the worker did not make themselves is told to them, with its reason (issue 39).
      if (actorOf(tenant)?.type !== 'employee') {
        await notify(tx, tenant.companyId, at, [
          {
            kind: 'absence_decided',
            to: [{ type: 'employee', id: row.employee_id }],
            data: {
              absence_id: id,
              type_label: row.type_label,
              start_date: row.start_date,
              end_date: row.end_date,
              status: transition.to,
              reason: transition.to === 'denied' ? (input.reason ?? null) : null,
            },
            screen: 'absences',
          },
        ]);
      }
      return {
        result: toView(row),
        // Approving or cancelling changes the expected minutes of the absence's dates.
        touched:
          transition.to === 'denied'
            ? []
            : [{ employeeId: row.employee_id, from: row.start_date, to: row.end_date }],
        events: [
          {
            type: transition.event,
            data: { absence_id: id, employee_id: row.employee_id, status: transition.to },
          } as PendingEvent,
          ...balanceEvents(row),
        ],
      };
    },
    { what },
  );
}
