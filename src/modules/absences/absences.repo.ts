import type { Selectable } from 'kysely';
import { absencesWithType } from '../../db/absences.ts';
import type { Executor } from '../../db/database.ts';
import type { AbsenceStatus, AbsencesTable } from '../../db/schema.ts';

export type AbsenceRow = Omit<Selectable<AbsencesTable>, 'company_id' | 'absence_type_id'> & {
  type_key: string;
  type_label: string;
};

export const selectAbsences = (db: Executor, companyId: string) =>
  absencesWithType(db, companyId).select([
    'absences.id',
    'absences.employee_id',
    'absence_types.key as type_key',
    'absence_types.label as type_label',
    'absences.start_date',
    'absences.end_date',
    'absences.half_day',
    'absences.status',
    'absences.days_count',
    'absences.note',
    'absences.denial_reason',
    'absences.decided_at',
    'absences.cancelled_at',
    'absences.created_at',
    'absences.updated_at',
  ]);

export async function findAbsence(
  db: Executor,
  companyId: string,
  id: string,
): Promise<AbsenceRow | undefined> {
  return await selectAbsences(db, companyId).where('absences.id', '=', id).executeTakeFirst();
}

/** An absence of the employee, requested or approved, that overlaps the inclusive range. */
export async function findOverlappingAbsence(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: { start_date: string; end_date: string },
): Promise<{ id: string } | undefined> {
  return await db
    .selectFrom('absences')
    .select('id')
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('status', 'in', ['requested', 'approved'])
    .where('start_date', '<=', range.end_date)
    .where('end_date', '>=', range.start_date)
    .executeTakeFirst();
}

export async function insertAbsence(
  db: Executor,
  companyId: string,
  absenceTypeId: string,
  columns: Omit<AbsenceRow, 'type_key' | 'type_label'>,
): Promise<void> {
  await db
    .insertInto('absences')
    .values({ company_id: companyId, absence_type_id: absenceTypeId, ...columns })
    .execute();
}

/**
 * Moves an absence to a new state with one conditional UPDATE, only from one of the `from` states: of concurrent
 * decisions exactly one matches. Returns whether this one did.
 */
export async function moveAbsence(
  db: Executor,
  companyId: string,
  id: string,
  from: AbsenceStatus[],
  changes: {
    status: AbsenceStatus;
    updated_at: Date;
    decided_at?: Date;
    cancelled_at?: Date;
    denial_reason?: string | null;
  },
): Promise<boolean> {
  const changed = await db
    .updateTable('absences')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('status', 'in', from)
    .returning('id')
    .executeTakeFirst();
  return changed !== undefined;
}

/** The absences listing's filters; with from/to, the absences that overlap the inclusive range. */
export function selectAbsencesMatching(
  db: Executor,
  companyId: string,
  filters: {
    employee_id?: string | undefined;
    type?: string | undefined;
    status?: AbsenceStatus | undefined;
    from?: string | undefined;
    to?: string | undefined;
  },
) {
  let query = selectAbsences(db, companyId);
  if (filters.employee_id !== undefined)
    query = query.where('absences.employee_id', '=', filters.employee_id);
  if (filters.type !== undefined) query = query.where('absence_types.key', '=', filters.type);
  if (filters.status !== undefined) query = query.where('absences.status', '=', filters.status);
  if (filters.from !== undefined) query = query.where('absences.end_date', '>=', filters.from);
  if (filters.to !== undefined) query = query.where('absences.start_date', '<=', filters.to);
  return query;
}

/** The requested and approved absences of one type for some employees, starting on or before `last`. */
export async function absencesOfType(
  db: Executor,
  companyId: string,
  typeKey: string,
  employeeIds: string[],
  last: string,
) {
  return await absencesWithType(db, companyId)
    .select([
      'absences.employee_id',
      'absences.start_date',
      'absences.end_date',
      'absences.half_day',
      'absences.status',
      'absences.days_count',
    ])
    .where('absences.employee_id', 'in', employeeIds)
    .where('absence_types.key', '=', typeKey)
    .where('absences.status', 'in', ['requested', 'approved'])
    .where('absences.start_date', '<=', last)
    .execute();
}

/** An employee's approved absences overlapping the inclusive range, with their type's key and half-day flag. */
export async function approvedAbsencesOf(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: { from: string; to: string },
): Promise<Array<{ key: string; start_date: string; end_date: string; half_day: boolean }>> {
  return await absencesWithType(db, companyId)
    .select(['absence_types.key', 'absences.start_date', 'absences.end_date', 'absences.half_day'])
    .where('absences.employee_id', '=', employeeId)
    .where('absences.status', '=', 'approved')
    .where('absences.start_date', '<=', range.to)
    .where('absences.end_date', '>=', range.from)
    .execute();
}

/** The approved absences of some employees that overlap a range, by employee and start (payroll, issue 41). */
export async function approvedAbsencesOfEmployees(
  db: Executor,
  companyId: string,
  employeeIds: string[],
  range: { from: string; to: string },
): Promise<
  Array<{ employee_id: string; key: string; start_date: string; end_date: string; half_day: boolean }>
> {
  if (employeeIds.length === 0) return [];
  return await absencesWithType(db, companyId)
    .select([
      'absences.employee_id',
      'absence_types.key',
      'absences.start_date',
      'absences.end_date',
      'absences.half_day',
    ])
    .where('absences.employee_id', 'in', employeeIds)
    .where('absences.status', '=', 'approved')
    .where('absences.start_date', '<=', range.to)
    .where('absences.end_date', '>=', range.from)
    .orderBy('absences.employee_id')
    .orderBy('absences.start_date')
    .execute();
}
