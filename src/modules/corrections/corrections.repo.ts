import type { Selectable, Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { CheckInCorrectionsTable, CorrectionStatus } from '../../db/schema.ts';

export type CorrectionRow = Omit<Selectable<CheckInCorrectionsTable>, 'company_id'>;

const COLUMNS = [
  'id',
  'employee_id',
  'status',
  'reason',
  'void_ids',
  'add_items',
  'requested_by_type',
  'requested_by_id',
  'requested_at',
  'company_approval_by_type',
  'company_approval_by_id',
  'company_approval_at',
  'employee_approval_at',
  'rejected_by_type',
  'rejected_by_id',
  'rejected_at',
  'rejection_reason',
  'applied_at',
  'created_at',
  'updated_at',
] as const;

const selectCorrections = (db: Executor, companyId: string) =>
  db.selectFrom('check_in_corrections').select(COLUMNS).where('company_id', '=', companyId);

export async function findCorrection(
  db: Executor,
  companyId: string,
  id: string,
  options: { employeeId?: string } = {},
): Promise<CorrectionRow | undefined> {
  let query = selectCorrections(db, companyId).where('id', '=', id);
  if (options.employeeId !== undefined) query = query.where('employee_id', '=', options.employeeId);
  return await query.executeTakeFirst();
}

export function selectCorrectionsMatching(
  db: Executor,
  companyId: string,
  filters: { employeeId?: string | undefined; status?: CorrectionStatus | undefined },
) {
  let query = selectCorrections(db, companyId);
  if (filters.employeeId !== undefined) query = query.where('employee_id', '=', filters.employeeId);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  return query;
}

export async function insertCorrection(db: Executor, companyId: string, row: CorrectionRow): Promise<void> {
  await db
    .insertInto('check_in_corrections')
    .values({ company_id: companyId, ...row, add_items: JSON.stringify(row.add_items) })
    .execute();
}

/** Moves a pending correction; false when it is no longer pending (a concurrent decision won). */
export async function updatePendingCorrection(
  db: Executor,
  companyId: string,
  id: string,
  changes: Omit<Updateable<CheckInCorrectionsTable>, 'add_items'>,
): Promise<boolean> {
  const updated = await db
    .updateTable('check_in_corrections')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return updated !== undefined;
}

/** The employee's active check-ins among the ids, or at any of the instants (to find duplicates of additions). */
export async function findActiveCheckIns(
  db: Executor,
  companyId: string,
  employeeId: string,
  among: { ids: string[] } | { instants: Date[] },
) {
  const values = 'ids' in among ? among.ids : among.instants;
  if (values.length === 0) return [];
  const query = db
    .selectFrom('check_ins')
    .select(['id', 'type', 'timestamp'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'active');
  return await ('ids' in among
    ? query.where('id', 'in', among.ids)
    : query.where('timestamp', 'in', among.instants)
  ).execute();
}

/** Voids the employee's active check-ins among the ids; returns those it voided. */
export async function voidCheckIns(
  db: Executor,
  companyId: string,
  employeeId: string,
  ids: string[],
  correctionId: string,
  at: Date,
) {
  if (ids.length === 0) return [];
  return await db
    .updateTable('check_ins')
    .set({ status: 'voided', voided_by_correction_id: correctionId, updated_at: at })
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'active')
    .where('id', 'in', ids)
    .returning(['id', 'timestamp'])
    .execute();
}

/**
 * The applied corrections of an employee that touched [from, before): a check-in they voided or added lies in
 * it. For the worker's monthly document.
 */
export async function appliedCorrectionsIn(
  db: Executor,
  companyId: string,
  employeeId: string,
  from: Date,
  before: Date,
) {
  return await db
    .selectFrom('check_in_corrections as c')
    .select([
      'c.id',
      'c.reason',
      'c.requested_by_type',
      'c.requested_by_id',
      'c.requested_at',
      'c.company_approval_by_type',
      'c.company_approval_by_id',
      'c.company_approval_at',
      'c.employee_approval_at',
      'c.applied_at',
      'c.void_ids',
      'c.add_items',
    ])
    .where('c.company_id', '=', companyId)
    .where('c.employee_id', '=', employeeId)
    .where('c.status', '=', 'applied')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('check_ins as k')
          .select('k.id')
          .where('k.company_id', '=', companyId)
          .where('k.employee_id', '=', employeeId)
          .where('k.timestamp', '>=', from)
          .where('k.timestamp', '<', before)
          .where((eb) =>
            eb.or([
              eb('k.correction_id', '=', eb.ref('c.id')),
              eb(eb.ref('k.id'), '=', eb.fn.any('c.void_ids')),
            ]),
          ),
      ),
    )
    .orderBy('c.applied_at')
    .execute();
}
