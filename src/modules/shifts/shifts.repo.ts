import { type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { RotaPatternsTable, ShiftsTable, ShiftTemplatesTable } from '../../db/schema.ts';

export type ShiftRow = Omit<Selectable<ShiftsTable>, 'company_id'>;

const SHIFT_COLUMNS = [
  'id',
  'employee_id',
  'date',
  'start_time',
  'end_time',
  'break_minutes',
  'planned_minutes',
  'location_id',
  'work_mode',
  'kind',
  'status',
  'note',
  'template_id',
  'ends_at',
  'published_at',
  'created_at',
  'updated_at',
] as const;

/** A tenant's shifts, explicit columns; listings filter and page it. */
export const selectShifts = (db: Executor, companyId: string) =>
  db.selectFrom('shifts').select(SHIFT_COLUMNS).where('company_id', '=', companyId);

export async function findShift(db: Executor, companyId: string, id: string) {
  return await selectShifts(db, companyId).where('id', '=', id).executeTakeFirst();
}

export async function findShiftsByIds(db: Executor, companyId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return await selectShifts(db, companyId)
    .where('id', 'in', [...ids])
    .execute();
}

/** The shifts of these employees dated within the range (inclusive), by employee and date. */
export async function shiftsOfEmployees(
  db: Executor,
  companyId: string,
  employeeIds: readonly string[],
  range: { from: string; to: string },
  status?: 'published',
) {
  if (employeeIds.length === 0) return [];
  let query = selectShifts(db, companyId)
    .where('employee_id', 'in', [...employeeIds])
    .where('date', '>=', range.from)
    .where('date', '<=', range.to);
  if (status) query = query.where('status', '=', status);
  return await query.orderBy('employee_id').orderBy('date').orderBy('start_time').execute();
}

export async function insertShifts(db: Executor, rows: Array<Insertable<ShiftsTable>>): Promise<void> {
  // 5,000 rows of 17 parameters stay under PostgreSQL's 65,535 bind parameters per statement in chunks.
  for (let index = 0; index < rows.length; index += 2000) {
    await db
      .insertInto('shifts')
      .values(rows.slice(index, index + 2000))
      .execute();
  }
}

export async function deleteShiftRows(
  db: Executor,
  companyId: string,
  ids: readonly string[],
): Promise<void> {
  for (let index = 0; index < ids.length; index += 5000) {
    await db
      .deleteFrom('shifts')
      .where('company_id', '=', companyId)
      .where('id', 'in', ids.slice(index, index + 5000))
      .execute();
  }
}

/** Publishes the drafts of a range (and of some employees); the published rows. */
export async function publishDrafts(
  db: Executor,
  companyId: string,
  range: { from: string; to: string; employeeIds?: readonly string[] | undefined },
  at: Date,
) {
  let query = db
    .updateTable('shifts')
    .set({ status: 'published', published_at: at, updated_at: at })
    .where('company_id', '=', companyId)
    .where('status', '=', 'draft')
    .where('date', '>=', range.from)
    .where('date', '<=', range.to);
  if (range.employeeIds) query = query.where('employee_id', 'in', [...range.employeeIds]);
  return await query.returning(['id', 'employee_id', 'date', 'kind']).execute();
}

/** The employees of a company among the ids, with what a shift checks against (employment, zone, centre). */
export async function employeesForShifts(db: Executor, companyId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('employees')
    .select(['id', 'timezone', 'hire_date', 'termination_date', 'location_id'])
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
}

/** The company's work centres among the ids. */
export async function locationIdsAmong(db: Executor, companyId: string, ids: readonly string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom('locations')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}

export type TemplateRow = Omit<Selectable<ShiftTemplatesTable>, 'company_id'>;

export const selectTemplates = (db: Executor, companyId: string) =>
  db
    .selectFrom('shift_templates')
    .select(['id', 'name', 'start_time', 'end_time', 'break_minutes', 'kind', 'created_at', 'updated_at'])
    .where('company_id', '=', companyId);

export async function templatesAmong(db: Executor, companyId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return await selectTemplates(db, companyId)
    .where('id', 'in', [...ids])
    .execute();
}

export async function insertTemplate(db: Executor, row: Insertable<ShiftTemplatesTable>): Promise<void> {
  await db.insertInto('shift_templates').values(row).execute();
}

export const selectRotaPatterns = (db: Executor, companyId: string) =>
  db
    .selectFrom('rota_patterns')
    .select(['id', 'name', 'cycle', 'created_at', 'updated_at'])
    .where('company_id', '=', companyId);

export async function findRotaPattern(db: Executor, companyId: string, id: string) {
  return await selectRotaPatterns(db, companyId).where('id', '=', id).executeTakeFirst();
}

export async function insertRotaPattern(db: Executor, row: Insertable<RotaPatternsTable>): Promise<void> {
  await db.insertInto('rota_patterns').values(row).execute();
}

/** When the worker last looked at their shifts (null: never). */
export async function shiftsSeenAt(db: Executor, companyId: string, employeeId: string) {
  const row = await db
    .selectFrom('employees')
    .select('shifts_seen_at')
    .where('company_id', '=', companyId)
    .where('id', '=', employeeId)
    .executeTakeFirst();
  return row?.shifts_seen_at ?? null;
}

export async function markShiftsSeen(db: Executor, companyId: string, employeeId: string, at: Date) {
  await db
    .updateTable('employees')
    .set({ shifts_seen_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', employeeId)
    .execute();
}

/** Marks workers to tell about their changed shifts, due at `due` (a later change moves it later). */
export async function queueShiftNotices(
  db: Executor,
  companyId: string,
  employeeIds: readonly string[],
  due: Date,
) {
  if (employeeIds.length === 0) return;
  await db
    .insertInto('shift_notices')
    .values(
      [...new Set(employeeIds)].map((employee_id) => ({ company_id: companyId, employee_id, due_at: due })),
    )
    .onConflict((conflict) => conflict.columns(['company_id', 'employee_id']).doUpdateSet({ due_at: due }))
    .execute();
}

/** Takes up to `limit` due notices (FOR UPDATE SKIP LOCKED: one node each), with what the message needs. */
export async function takeDueShiftNotices(db: Executor, now: Date, limit: number) {
  const { rows: taken } = await sql<{ company_id: string; employee_id: string }>`
    delete from shift_notices where (company_id, employee_id) in (
      select company_id, employee_id from shift_notices where due_at <= ${now}
       order by due_at limit ${limit} for update skip locked)
    returning company_id, employee_id`.execute(db);
  if (taken.length === 0) return [];
  return await db
    .selectFrom('employees as e')
    .innerJoin('companies as c', 'c.id', 'e.company_id')
    .select([
      'e.company_id',
      'e.id',
      'e.email',
      'e.first_name',
      'e.timezone',
      'c.name as company',
      'c.timezone as company_timezone',
    ])
    .where((eb) =>
      eb.or(
        taken.map((row) =>
          eb.and([eb('e.company_id', '=', row.company_id), eb('e.id', '=', row.employee_id)]),
        ),
      ),
    )
    .execute();
}
