import type { Static } from 'typebox';
import type { AppDeps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import type { ActingTenant } from '../../platform/tenant.ts';
import { localDate } from '../../time/zones.ts';
import { absenceTypes } from '../absence-types/absence-types.service.ts';
import {
  type AbsenceView,
  decideAbsence,
  listAbsences,
  previewAbsence,
  requestAbsence,
} from '../absences/absences.service.ts';
import { findEmployee } from '../employees/employees.service.ts';
import { calendarHolidays } from '../holidays/holidays.service.ts';
import { listVacationBalances } from '../vacation-balances/vacation-balances.service.ts';
import { VACATION } from '../workdays/absence-days.ts';
import type { TimeOffPreview, TimeOffView, WorkerAbsenceBody } from './time-off.schemas.ts';

/**
 * The worker's time off in the portal (issue 39, "Mis ausencias"): their balance, absences and holidays, a
 * request checked and counted as the company's API does, and the cancelling of a request not yet decided. The
 * employee is always the session's worker, never the request's.
 */
type Deps = Pick<AppDeps, 'db' | 'clock' | 'cursors' | 'syncHorizon'>;

/** The worker's vacation balance of a year, or null when they were not employed during it. */
async function balanceOf(deps: Deps, tenant: ActingTenant, employeeId: string, year: number) {
  const page = await listVacationBalances(deps, tenant, { year, employee_id: employeeId, limit: 1 });
  return page.data[0] ?? null;
}

export async function workerTimeOff(
  deps: Deps,
  tenant: ActingTenant,
  employeeId: string,
  zone: string,
  query: { year?: number | undefined },
): Promise<Static<typeof TimeOffView>> {
  const today = localDate(deps.clock.now(), zone).toString();
  const year = query.year ?? Number(today.slice(0, 4));
  const employee = await findEmployee(deps.db, tenant.companyId, employeeId);
  if (!employee) throw notFound('Employee');
  const absences: AbsenceView[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAbsences(deps, tenant, {
      employee_id: employeeId,
      // The year's and every later one's: in December a worker asks for January.
      from: `${year}-01-01`,
      limit: 100,
      cursor,
    });
    absences.push(...page.data);
    cursor = page.meta.next_cursor ?? undefined;
  } while (cursor);
  absences.sort(
    (a, b) => b.start_date.localeCompare(a.start_date) || b.created_at.localeCompare(a.created_at),
  );
  return {
    year,
    today,
    balance: await balanceOf(deps, tenant, employeeId, year),
    absences,
    holidays: [
      ...(await calendarHolidays(deps, tenant, year, employee.location_id)),
      ...(await calendarHolidays(deps, tenant, year + 1, employee.location_id)),
    ],
    types: await absenceTypes(deps, tenant),
  };
}

/** What a request would count, and for vacation the year's remaining days after it; nothing is stored. */
export async function previewWorkerAbsence(
  deps: Deps,
  tenant: ActingTenant,
  employeeId: string,
  body: Static<typeof WorkerAbsenceBody>,
): Promise<Static<typeof TimeOffPreview>> {
  const { days_count } = await previewAbsence(deps, tenant, { ...body, employee_id: employeeId });
  if (body.type !== VACATION) return { days_count, remaining_days_after: null };
  const balance = await balanceOf(deps, tenant, employeeId, Number(body.start_date.slice(0, 4)));
  return { days_count, remaining_days_after: balance === null ? null : balance.remaining_days - days_count };
}

export async function requestWorkerAbsence(
  deps: Deps,
  tenant: ActingTenant,
  employeeId: string,
  body: Static<typeof WorkerAbsenceBody>,
): Promise<AbsenceView> {
  return await requestAbsence(deps, tenant, { ...body, employee_id: employeeId });
}

/** Cancels the worker's own request while it waits for a decision; a decided absence is the company's to change. */
export async function cancelWorkerAbsence(
  deps: Deps,
  tenant: ActingTenant,
  employeeId: string,
  id: string,
): Promise<AbsenceView> {
  return await decideAbsence(deps, tenant, id, 'cancel', {}, { employeeId, from: ['requested'] });
}
