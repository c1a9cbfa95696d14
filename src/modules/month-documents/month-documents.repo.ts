import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** A sealed document of a closed month, as stored (migration 0038). */
export type StoredDocument = {
  id: string;
  employee_id: string | null;
  month: string;
  version: number;
  format: 'pdf' | 'xlsx' | 'csv';
  locale: 'es' | 'en';
  sha256: Buffer;
  created_at: Date;
};

const DOCUMENT_COLUMNS = [
  'id',
  'employee_id',
  'month',
  'version',
  'format',
  'locale',
  'sha256',
  'created_at',
] as const;

/** Stores a sealed document; false when that (worker, month, version, format, locale) is stored already. */
export async function insertDocument(
  db: Executor,
  row: StoredDocument & { company_id: string; content: Buffer },
): Promise<boolean> {
  const result = await sql`
    insert into registry_documents
      (id, company_id, employee_id, month, version, format, locale, sha256, content, created_at)
    values (${row.id}, ${row.company_id}, ${row.employee_id}, ${row.month}, ${row.version}, ${row.format},
            ${row.locale}, ${row.sha256}, ${row.content}, ${row.created_at})
    on conflict do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * The latest stored document of a worker's month (or of the company's CSV, `employeeId` null) in a format and
 * language, with its bytes; or undefined.
 */
export async function latestDocument(
  db: Executor,
  companyId: string,
  employeeId: string | null,
  month: string,
  format: 'pdf' | 'xlsx' | 'csv',
  locale: 'es' | 'en',
) {
  let query = db
    .selectFrom('registry_documents')
    .select([...DOCUMENT_COLUMNS, 'content'])
    .where('company_id', '=', companyId)
    .where('month', '=', month)
    .where('format', '=', format)
    .where('locale', '=', locale);
  query =
    employeeId === null
      ? query.where('employee_id', 'is', null)
      : query.where('employee_id', '=', employeeId);
  return await query.orderBy('version', 'desc').limit(1).executeTakeFirst();
}

/** Every stored document of a worker's month (or the company's, `employeeId` null), without the bytes. */
export async function documentsOf(db: Executor, companyId: string, employeeId: string | null, month: string) {
  let query = db
    .selectFrom('registry_documents')
    .select(DOCUMENT_COLUMNS)
    .where('company_id', '=', companyId)
    .where('month', '=', month);
  query =
    employeeId === null
      ? query.where('employee_id', 'is', null)
      : query.where('employee_id', '=', employeeId);
  return await query.orderBy('version').orderBy('format').orderBy('locale').execute();
}

/** The newest edition of the company's CSV of a month (0 when none). */
export async function latestCompanyEdition(db: Executor, companyId: string, month: string): Promise<number> {
  const row = await db
    .selectFrom('registry_documents')
    .select((eb) => eb.fn.max('version').as('version'))
    .where('company_id', '=', companyId)
    .where('employee_id', 'is', null)
    .where('month', '=', month)
    .executeTakeFirst();
  return row?.version ?? 0;
}

/** The oldest documents still to make, unlocked: the claimer takes the worker's lock before the row's. */
export async function nextDocumentWork(db: Executor) {
  return await db
    .selectFrom('registry_document_work')
    .select(['id', 'company_id', 'employee_id', 'month', 'version'])
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** Claims a work row (FOR UPDATE SKIP LOCKED): undefined when it is gone or another node holds it. */
export async function claimDocumentWork(db: Executor, companyId: string, id: string) {
  return await db
    .selectFrom('registry_document_work')
    .select(['id', 'company_id', 'employee_id', 'month', 'version'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

/** A worker's documents still to make, locked (the caller holds the worker's lock, which every claimer takes first). */
export async function pendingWorkOf(db: Executor, companyId: string, employeeId: string, month?: string) {
  let query = db
    .selectFrom('registry_document_work')
    .select(['id', 'company_id', 'employee_id', 'month', 'version'])
    .where('company_id', '=', companyId)
    .where('employee_id', '=', employeeId);
  if (month !== undefined) query = query.where('month', '=', month);
  return await query.orderBy('month').orderBy('version').forUpdate().execute();
}

/** Pending company-CSV work of a month, locked (editions are made in one go). */
export async function pendingCompanyWork(db: Executor, companyId: string, month: string) {
  return await db
    .selectFrom('registry_document_work')
    .select(['id'])
    .where('company_id', '=', companyId)
    .where('employee_id', 'is', null)
    .where('month', '=', month)
    .forUpdate()
    .execute();
}

export async function deleteDocumentWork(
  db: Executor,
  companyId: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('registry_document_work')
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Whether documents of a worker's month (or, `employeeId` null, the company's CSV) are queued; no lock taken. */
export async function hasDocumentWork(
  db: Executor,
  companyId: string,
  employeeId: string | null,
  month: string,
) {
  let query = db
    .selectFrom('registry_document_work')
    .select('id')
    .where('company_id', '=', companyId)
    .where('month', '=', month);
  query =
    employeeId === null
      ? query.where('employee_id', 'is', null)
      : query.where('employee_id', '=', employeeId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}
