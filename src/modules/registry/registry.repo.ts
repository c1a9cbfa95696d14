import { type Insertable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { contractsOf, selectEmployedDuring } from '../../db/employees.ts';
import type {
  RegistryCompanyEntriesTable,
  RegistryEntriesTable,
  RegistryMonthsTable,
} from '../../db/schema.ts';

/** The last entry of an employee's chain (its seq and hash), or undefined for an empty chain. */
export async function lastEntry(db: Executor, companyId: string, employeeId: string) {
  return await db
    .selectFrom('registry_entries')
    .select(['seq', 'hash'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertEntry(db: Executor, entry: Insertable<RegistryEntriesTable>): Promise<void> {
  await db.insertInto('registry_entries').values(entry).execute();
}

/**
 * The last entry of a company's own chain, taken under a transaction-level advisory lock on that chain: company
 * facts (an access to the registry among them) come from many requests at once, and the chain has one order.
 */
export async function lockedLastCompanyEntry(db: Executor, companyId: string) {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`registry_company:${companyId}`}, 0))`.execute(
    db,
  );
  return await db
    .selectFrom('registry_company_entries')
    .select(['seq', 'hash'])
    .where('company_id', '=', companyId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertCompanyEntry(
  db: Executor,
  entry: Insertable<RegistryCompanyEntriesTable>,
): Promise<void> {
  await db.insertInto('registry_company_entries').values(entry).execute();
}

/** The hashes of a month's closing entries, one per employee of the month, in employee id order (the seal's). */
export async function monthCloseHashes(db: Executor, companyId: string, month: string) {
  return await db
    .selectFrom('registry_entries')
    .select(['employee_id', 'hash'])
    .where('company_id', '=', companyId)
    .where('kind', '=', 'month_close')
    .where(sql<boolean>`(content::jsonb ->> 'month') = ${month}`)
    .orderBy('employee_id')
    .execute();
}

/** The columns of a check-in that its chain entry records (registry.service.ts, checkInFactContent). */
export const CHECK_IN_FACT_COLUMNS = [
  'id',
  'employee_id',
  'type',
  'timestamp',
  'source',
  'recorded_at',
  'recorded_by_type',
  'recorded_by_id',
  'work_mode',
  'late',
  'correction_id',
  'recorded_by_key_kind',
  'worker_confirmed',
  'device_id',
  'location',
  'recorded_offline',
  'device_time',
  'offline_device_id',
  'device_sequence',
] as const;

/** The fields of a check-in that its chain entry records, by id. */
export async function checkInFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('check_ins')
    .select(CHECK_IN_FACT_COLUMNS)
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/** The voided check-ins among the ids, with the correction that voided each. */
export async function voidFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('check_ins')
    .select(['id', 'employee_id', 'voided_by_correction_id'])
    .where('company_id', '=', companyId)
    .where('status', '=', 'voided')
    .where('id', 'in', ids)
    .execute();
}

/** The workers' answers to the check-ins among the ids (issue 34). */
export async function responseFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('check_ins')
    .select([
      'id',
      'employee_id',
      'worker_response',
      'worker_response_reason',
      'worker_responded_at',
      'worker_response_credential',
    ])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .where('worker_response', 'is not', null)
    .execute();
  return rows.flatMap((row) =>
    row.worker_response === null || row.worker_responded_at === null
      ? []
      : [
          {
            check_in_id: row.id,
            employee_id: row.employee_id,
            response: row.worker_response,
            reason: row.worker_response_reason,
            responded_at: row.worker_responded_at,
            credential: row.worker_response_credential,
          },
        ],
  );
}

/** What the corrections among the ids asked for, as their chain entries record it. */
export async function correctionFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('check_in_corrections')
    .select([
      'id',
      'employee_id',
      'reason',
      'void_ids',
      'add_items',
      'requested_by_type',
      'requested_by_id',
      'requested_at',
    ])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/** Closes a month for a tenant; false when it was already closed. */
export async function insertClosedMonth(
  db: Executor,
  row: Insertable<RegistryMonthsTable>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('registry_months')
    .values(row)
    .onConflict((conflict) => conflict.columns(['company_id', 'month']).doNothing())
    .returning('month')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The tenant's closed months (YYYY-MM-01) that overlap the inclusive date range. */
export async function closedMonthsIn(
  db: Executor,
  companyId: string,
  from: string,
  to: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('registry_months')
    .select('month')
    .where('company_id', '=', companyId)
    .where('month', '>=', `${from.slice(0, 7)}-01`)
    .where('month', '<=', `${to.slice(0, 7)}-01`)
    .orderBy('month')
    .execute();
  return rows.map((row) => row.month);
}

/**
 * The tenant's earliest closed month (YYYY-MM-01) at or after the month of a date, or undefined: the month that
 * seals that date (docs/registry.md, "A closed month seals the days before it").
 */
export async function firstClosedMonthFrom(
  db: Executor,
  companyId: string,
  date: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('registry_months')
    .select('month')
    .where('company_id', '=', companyId)
    .where('month', '>=', `${date.slice(0, 7)}-01`)
    .orderBy('month')
    .limit(1)
    .executeTakeFirst();
  return row?.month;
}

/** The tenant's latest closed month (YYYY-MM-01), or undefined. */
export async function latestClosedMonth(db: Executor, companyId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('registry_months')
    .select('month')
    .where('company_id', '=', companyId)
    .orderBy('month', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.month;
}

/** A tenant's closed months, for a listing (newest first, keyset on the month). */
export const selectClosedMonths = (db: Executor, companyId: string) =>
  db
    .selectFrom('registry_months')
    .select(['month', 'closed_at', 'closed_by_type', 'closed_by_id', 'seal'])
    .where('company_id', '=', companyId);

/** The ids of the tenant's employees employed at some time in the inclusive range, in id order. */
export async function employeesEmployedIn(db: Executor, companyId: string, from: string, to: string) {
  const rows = await selectEmployedDuring(db, companyId, from, to).orderBy('id').execute();
  return rows.map((row) => row.id);
}

/** Records a worker's acknowledgement of a version of a month; false when it was given already. */
export async function insertAcknowledgement(
  db: Executor,
  row: { company_id: string; employee_id: string; month: string; acknowledged_at: Date; version: number },
): Promise<boolean> {
  const inserted = await db
    .insertInto('registry_acknowledgements')
    .values(row)
    .onConflict((conflict) => conflict.columns(['company_id', 'month', 'employee_id', 'version']).doNothing())
    .returning('employee_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Whether a month (YYYY-MM-01) is closed for a tenant. */
export async function isMonthClosed(db: Executor, companyId: string, month: string): Promise<boolean> {
  return (await closedMonthsIn(db, companyId, month, month)).length > 0;
}

/** The employees of a month with their acknowledgement, if any (a listing pages it by id). */
export function selectAcknowledgements(db: Executor, companyId: string, month: string, last: string) {
  return selectEmployedDuring(db, companyId, month, last).select((eb) => [
    'first_name',
    'last_name',
    eb
      .selectFrom('registry_acknowledgements as k')
      .select(sql<string>`json_build_object('at', k.acknowledged_at, 'version', k.version)::text`.as('last'))
      .where('k.company_id', '=', companyId)
      .where('k.month', '=', month)
      .whereRef('k.employee_id', '=', 'employees.id')
      .orderBy('k.version', 'desc')
      .limit(1)
      .as('acknowledgement'),
    eb
      .selectFrom('registry_month_versions as v')
      .select((inner) => inner.fn.max('v.version').as('version'))
      .where('v.company_id', '=', companyId)
      .where('v.month', '=', month)
      .whereRef('v.employee_id', '=', 'employees.id')
      .as('version'),
  ]);
}

/** The current version of a worker's closed month: 1 as it closed, one more for each correction applied since. */
export async function currentMonthVersion(
  db: Executor,
  companyId: string,
  employeeId: string,
  month: string,
) {
  const row = await db
    .selectFrom('registry_month_versions')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('month', '=', month)
    .executeTakeFirst();
  return row?.version ?? 1;
}

/** Records a new version of a worker's closed month, made by an applied correction. */
export async function insertMonthVersion(
  db: Executor,
  row: {
    company_id: string;
    employee_id: string;
    month: string;
    version: number;
    cause_id: string;
    reason: string;
    created_at: Date;
  },
): Promise<void> {
  await db.insertInto('registry_month_versions').values(row).execute();
}

/** One employee's acknowledgement of a version of a month, if given. */
export async function findAcknowledgement(
  db: Executor,
  companyId: string,
  employeeId: string,
  month: string,
  version: number,
) {
  return await db
    .selectFrom('registry_acknowledgements')
    .select(['acknowledged_at', 'version'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('month', '=', month)
    .where('version', '=', version)
    .executeTakeFirst();
}

/** One employee's latest acknowledgement of a month (its version), if any. */
export async function latestAcknowledgement(
  db: Executor,
  companyId: string,
  employeeId: string,
  month: string,
) {
  return await db
    .selectFrom('registry_acknowledgements')
    .select(['acknowledged_at', 'version'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('month', '=', month)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The absences among the ids, with the fields their chain entries record. */
export async function absenceFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('absences')
    .select(['id', 'employee_id', 'absence_type_id', 'start_date', 'end_date', 'half_day', 'status'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/** The holidays among the ids, with the fields their chain entries record. */
export async function holidayFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('holidays')
    .select(['id', 'date', 'name', 'location_id'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/** The access grants among the ids, with the fields their chain entries record. */
export async function grantFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('registry_access_grants')
    .select([
      'id',
      'kind',
      'label',
      'from_date',
      'to_date',
      'employee_ids',
      'expires_at',
      'created_by_type',
      'created_by_id',
      'revoked_at',
    ])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/** The accesses among the ids, with the fields their chain entries record. */
export async function accessFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('registry_accesses')
    .select(['id', 'grant_id', 'at', 'ip', 'what', 'outcome'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/** The employees among the ids with what their chain's `employee` state records, and their contract periods. */
export async function employeeFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('employees')
    .select([
      'id',
      'first_name',
      'last_name',
      'national_id',
      'social_security_number',
      'location_id',
      'hire_date',
      'termination_date',
      'timezone',
      'tracking_start_date',
      'opening_banked_minutes',
    ])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
  const contracts = await contractsOf(db, companyId, ids);
  return rows.map((row) => ({ ...row, contracts: contracts.get(row.id) ?? [] }));
}

/** The companies among the ids with what their chain's `company` state records. */
export async function companyFacts(db: Executor, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('companies')
    .select([
      'id',
      'name',
      'legal_name',
      'tax_id',
      'timezone',
      'tracking_start_date',
      'late_record_hours',
      'registry_policy',
      'overtime_compensation',
    ])
    .where('id', 'in', ids)
    .execute();
}

/** The work centres among the ids with what their `location` state records. */
export async function locationFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('locations')
    .select(['id', 'name', 'address', 'ccc', 'location_capture', 'geofence'])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/** The content of the last entry of a kind about a subject in an employee's chain recorded at or before `at`. */
export async function employeeStateAt(
  db: Executor,
  companyId: string,
  employeeId: string,
  kind: string,
  at: Date,
) {
  const row = await db
    .selectFrom('registry_entries')
    .select('content')
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('kind', '=', kind)
    .where('recorded_at', '<=', at)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.content;
}

/** The content of the last entry of a kind about a subject in a company's chain recorded at or before `at`. */
export async function companyStateAt(
  db: Executor,
  companyId: string,
  kind: string,
  subjectId: string,
  at: Date,
) {
  const row = await db
    .selectFrom('registry_company_entries')
    .select('content')
    .where('company_id', '=', companyId)
    .where('kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .where('recorded_at', '<=', at)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.content;
}

/** A closed month's closing instant and seal, or undefined while it is open. */
export async function closingOf(db: Executor, companyId: string, month: string) {
  return await db
    .selectFrom('registry_months')
    .select(['closed_at', 'seal'])
    .where('company_id', '=', companyId)
    .where('month', '=', `${month}-01`)
    .executeTakeFirst();
}

/** A worker's chain entries of one kind, oldest first (the resets of their login that documents print). */
export async function entriesOfKind(db: Executor, companyId: string, employeeId: string, kind: string) {
  return await db
    .selectFrom('registry_entries')
    .select(['recorded_at', 'content'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId)
    .where('kind', '=', kind)
    .orderBy('seq')
    .execute();
}
