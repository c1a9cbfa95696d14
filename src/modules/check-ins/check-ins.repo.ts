import { type Selectable, sql } from 'kysely';
import { ownRecordSql } from '../../db/check-ins.ts';
import type { Executor } from '../../db/database.ts';
import type { CheckInsTable } from '../../db/schema.ts';
import { CHECK_IN_FACT_COLUMNS } from '../registry/registry.repo.ts';

export type CheckInRow = Omit<Selectable<CheckInsTable>, 'company_id' | 'worker_response_credential'>;

const selectCheckIns = (db: Executor, companyId: string) =>
  db
    .selectFrom('check_ins')
    .select([
      ...CHECK_IN_FACT_COLUMNS,
      'status',
      'voided_by_correction_id',
      'worker_response',
      'worker_response_reason',
      'worker_responded_at',
      'created_at',
      'updated_at',
    ])
    .where('company_id', '=', companyId);

export async function findCheckIn(
  db: Executor,
  companyId: string,
  id: string,
): Promise<CheckInRow | undefined> {
  return await selectCheckIns(db, companyId).where('id', '=', id).executeTakeFirst();
}

/**
 * A tenant's check-ins for a listing: optionally one employee's, at or after `from` (only where the listing's
 * order allows it as a plain condition), and before `before`.
 */
export function selectCheckInsMatching(
  db: Executor,
  companyId: string,
  filters: {
    employeeId?: string | undefined;
    from?: Date | undefined;
    before?: Date | undefined;
    status?: 'active' | 'voided' | undefined;
    outsideGeofence?: boolean | undefined;
  },
) {
  let query = selectCheckIns(db, companyId);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  if (filters.outsideGeofence) query = query.where(sql<boolean>`(location ->> 'outside_geofence') = 'true'`);
  if (filters.employeeId !== undefined) query = query.where('employee_id', '=', filters.employeeId);
  if (filters.before) query = query.where('timestamp', '<', filters.before);
  if (filters.from) query = query.where('timestamp', '>=', filters.from);
  return query;
}

/**
 * Inserts a check-in unless an active one of the same employee, timestamp and type exists (the duplicate rule,
 * enforced by a partial unique index). Returns whether it was inserted.
 */
export async function insertCheckIn(db: Executor, companyId: string, row: CheckInRow): Promise<boolean> {
  const inserted = await db
    .insertInto('check_ins')
    .values({
      company_id: companyId,
      ...row,
      location: row.location === null ? null : JSON.stringify(row.location),
    })
    .onConflict((conflict) =>
      conflict
        .columns(['company_id', 'employee_id', 'timestamp', 'type'])
        // A literal, not a parameter: PostgreSQL matches the partial index by this predicate when it analyses
        // the statement, before any value is bound (a prepared statement's first parse).
        .where('status', '=', sql.lit('active'))
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The timeline listing's first-page bound, as a condition keysetPage applies only without a cursor. */
export const timestampAtOrAfter = (from: Date) => sql<boolean>`timestamp >= ${from}`;

/**
 * The tenant's check-ins in [from, before) (optionally one employee's) with their employee's name, external id
 * and time zone, ordered by employee and time, streamed from a database cursor in chunks (flat memory).
 */
export function streamCheckInsWithEmployees(
  db: Executor,
  companyId: string,
  filters: { from: Date; before: Date; employeeId?: string | undefined },
  chunk: number,
) {
  let query = db
    .selectFrom('check_ins as c')
    .innerJoin('employees as e', (join) =>
      join.onRef('e.company_id', '=', 'c.company_id').onRef('e.id', '=', 'c.employee_id'),
    )
    .select([
      'c.id',
      'c.employee_id',
      'e.external_id',
      'e.first_name',
      'e.last_name',
      'e.timezone',
      'c.type',
      'c.timestamp',
      'c.source',
      'c.status',
      'c.late',
      'c.correction_id',
      'c.voided_by_correction_id',
      'c.recorded_at',
      'c.recorded_by_type',
      'c.recorded_by_id',
      'c.recorded_by_key_kind',
      'c.worker_confirmed',
      'c.worker_response',
      'c.recorded_offline',
      'c.device_time',
    ])
    .where('c.company_id', '=', companyId)
    .where('c.timestamp', '>=', filters.from)
    .where('c.timestamp', '<', filters.before);
  if (filters.employeeId !== undefined) query = query.where('c.employee_id', '=', filters.employeeId);
  return query.orderBy('c.employee_id').orderBy('c.timestamp').orderBy('c.id').stream(chunk);
}

/** An employee's latest active check-in by timestamp (where their day stands), or undefined. */
export async function latestActiveCheckIn(
  db: Executor,
  companyId: string,
  employeeId: string,
): Promise<CheckInRow | undefined> {
  return await selectCheckIns(db, companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'active')
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * An employee's check-ins in [from, before) in time order, voided ones included, with what the registry marks
 * about each: whether it was recorded late, whether a correction added or voided it, and the work mode.
 */
export async function findCheckInMarks(
  db: Executor,
  companyId: string,
  employeeId: string,
  from: Date,
  before: Date,
) {
  return await db
    .selectFrom('check_ins')
    .select([
      'type',
      'timestamp',
      'status',
      'late',
      'correction_id',
      'work_mode',
      'source',
      'recorded_by_type',
      'worker_confirmed',
      'worker_response',
      'recorded_offline',
    ])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('timestamp', '>=', from)
    .where('timestamp', '<', before)
    .orderBy('timestamp')
    .execute();
}

/**
 * The records of a worker's period that the worker did not make (db/check-ins.ts, ownRecordSql), voided ones too:
 * what the documents list with who recorded each and when (issue 34).
 */
export async function findRecordsByOthers(
  db: Executor,
  companyId: string,
  employeeId: string,
  from: Date,
  before: Date,
) {
  return await db
    .selectFrom('check_ins')
    .select([
      'id',
      'type',
      'timestamp',
      'status',
      'recorded_at',
      'recorded_by_type',
      'recorded_by_id',
      'recorded_by_key_kind',
      'worker_response',
      'worker_response_reason',
    ])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('timestamp', '>=', from)
    .where('timestamp', '<', before)
    .where(sql<boolean>`not ${ownRecordSql}`)
    .orderBy('timestamp')
    .execute();
}

/** The kind of an API key of the tenant (integration or terminal), or undefined. */
export async function apiKeyKind(db: Executor, companyId: string, keyId: string) {
  const row = await db
    .selectFrom('api_keys')
    .select('kind')
    .where('company_id', '=', companyId)
    .where('id', '=', keyId)
    .executeTakeFirst();
  return row?.kind;
}

/** Records the worker's answer to a check-in, once (a stamped change: a sync sees it); false if answered. */
export async function insertResponse(
  db: Executor,
  companyId: string,
  checkInId: string,
  answer: { response: 'accepted' | 'rejected'; reason: string | null; at: Date; credential: string | null },
): Promise<boolean> {
  const answered = await db
    .updateTable('check_ins')
    .set({
      worker_response: answer.response,
      worker_response_reason: answer.reason,
      worker_responded_at: answer.at,
      worker_response_credential: answer.credential,
      updated_at: answer.at,
    })
    .where('company_id', '=', companyId)
    .where('id', '=', checkInId)
    .where('worker_response', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return answered !== undefined;
}

/** An employee's check-ins that someone else recorded and the worker has not answered yet, in time order. */
export function selectUnanswered(db: Executor, companyId: string, employeeId: string) {
  return selectCheckIns(db, companyId)
    .where('employee_id', '=', employeeId)
    .where('status', '=', 'active')
    .where(sql<boolean>`not ${ownRecordSql}`)
    .where('worker_response', 'is', null)
    .orderBy('timestamp')
    .orderBy('id');
}
