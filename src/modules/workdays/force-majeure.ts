import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { ForceMajeureDaysTable } from '../../db/schema.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { companySyncList, type Page, type SyncQuery } from '../../platform/pagination.ts';
import type { ActingTenant, CompanyScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import {
  deleteForceMajeureDay,
  findForceMajeureDay,
  insertForceMajeureDay,
  selectForceMajeureDays,
} from './force-majeure.repo.ts';
import type { CreateForceMajeureDayBody, ForceMajeureDay } from './force-majeure.schemas.ts';
import { lockEmployeeCalendar } from './workdays.repo.ts';
import { writeDays } from './write-days.ts';

export type ForceMajeureDayView = Static<typeof ForceMajeureDay>;

type Row = Omit<Selectable<ForceMajeureDaysTable>, 'company_id'>;

const toView = (row: Row): ForceMajeureDayView => ({
  id: row.id,
  employee_id: row.employee_id,
  date: row.date,
  reason: row.reason,
  recorded_by: {
    type: row.recorded_by_type as ForceMajeureDayView['recorded_by']['type'],
    id: row.recorded_by_id,
  },
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

/**
 * Marks an employee's day as force majeure (ET 35.3): its overtime stops counting towards the yearly cap. Through
 * the owner of day writes, so a date in a closed month is refused (409) and the day is settled again.
 */
export async function markForceMajeure(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: ActingTenant,
  input: Static<typeof CreateForceMajeureDayBody>,
): Promise<ForceMajeureDayView> {
  return await writeDays(
    deps,
    tenant,
    [input.employee_id],
    async (tx, now) => {
      if (!(await lockEmployeeCalendar(tx, tenant.companyId, input.employee_id, { lock: false }))) {
        throw invalid({ employee_id: 'is not an employee of this company' });
      }
      const at = toDate(now);
      const row: Row = {
        id: newId(),
        employee_id: input.employee_id,
        date: input.date,
        reason: input.reason,
        recorded_by_type: tenant.actor.type,
        recorded_by_id: tenant.actor.id,
        created_at: at,
        updated_at: at,
      };
      if (!(await insertForceMajeureDay(tx, { company_id: tenant.companyId, ...row }))) {
        throw new ApiError('conflict', `The employee's ${input.date} is marked force majeure already.`);
      }
      return {
        result: toView(row),
        touched: [{ employeeId: input.employee_id, from: input.date, to: input.date }],
        events: [],
      };
    },
    { what: 'this force majeure mark' },
  );
}

/** Removes a mark (409 when its date is in a closed month: the month's counted overtime would change). */
export async function unmarkForceMajeure(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: ActingTenant,
  id: string,
): Promise<void> {
  const mark = await findForceMajeureDay(deps.db, tenant.companyId, id);
  if (!mark) throw notFound('Force majeure day');
  await writeDays(
    deps,
    tenant,
    [mark.employee_id],
    async (tx) => {
      const removed = await deleteForceMajeureDay(tx, tenant.companyId, id);
      if (!removed) throw notFound('Force majeure day');
      return {
        result: null,
        touched: [{ employeeId: removed.employee_id, from: removed.date, to: removed.date }],
        events: [],
      };
    },
    { what: 'removing this force majeure mark' },
  );
}

/** `GET /v1/force-majeure-days`: the company's marks by `updated_at`. */
export async function listForceMajeureDays(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: CompanyScope,
  query: SyncQuery & { employee_id?: string | undefined },
): Promise<Page<ForceMajeureDayView>> {
  let select = selectForceMajeureDays(deps.db, tenant.companyId);
  if (query.employee_id) select = select.where('employee_id', '=', query.employee_id);
  const listing = `force-majeure-days|employee=${query.employee_id ?? ''}`;
  return await companySyncList(deps, tenant.companyId, select, { listing, query }, toView);
}
