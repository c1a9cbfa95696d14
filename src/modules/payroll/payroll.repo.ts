import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { PayrollConceptMapsTable } from '../../db/schema.ts';

export type ConceptMapRow = Omit<Selectable<PayrollConceptMapsTable>, 'company_id'>;

const COLUMNS = [
  'id',
  'name',
  'preset',
  'worker_identifier',
  'codes',
  'absence_codes',
  'columns',
  'headers',
  'created_at',
  'updated_at',
] as const;

/** A tenant's concept maps, explicit columns; the listing pages it with syncPage. */
export const selectConceptMaps = (db: Executor, companyId: string) =>
  db.selectFrom('payroll_concept_maps').select(COLUMNS).where('company_id', '=', companyId);

export async function findConceptMap(
  db: Executor,
  companyId: string,
  id: string,
): Promise<ConceptMapRow | undefined> {
  return await selectConceptMaps(db, companyId).where('id', '=', id).executeTakeFirst();
}

type JsonColumn = 'codes' | 'absence_codes' | 'columns' | 'headers';
const JSON_COLUMNS: readonly JsonColumn[] = ['codes', 'absence_codes', 'columns', 'headers'];

/** The JSON columns as the driver takes them (text), the others as they are. */
function stored<R extends Partial<ConceptMapRow>>(
  row: R,
): Omit<R, JsonColumn> & Partial<Record<JsonColumn, string>> {
  const out: Record<string, unknown> = { ...row };
  for (const column of JSON_COLUMNS) if (row[column] !== undefined) out[column] = JSON.stringify(row[column]);
  return out as Omit<R, JsonColumn> & Partial<Record<JsonColumn, string>>;
}

export async function insertConceptMap(db: Executor, companyId: string, row: ConceptMapRow): Promise<void> {
  await db
    .insertInto('payroll_concept_maps')
    .values({
      company_id: companyId,
      ...(stored(row) as Omit<ConceptMapRow, JsonColumn> & Record<JsonColumn, string>),
    })
    .execute();
}

/** A map's changed fields; the row after, or undefined when the company has no such map. */
export async function updateConceptMapRow(
  db: Executor,
  companyId: string,
  id: string,
  changes: Partial<Omit<ConceptMapRow, 'id' | 'preset' | 'created_at'>> & { updated_at: Date },
): Promise<ConceptMapRow | undefined> {
  return await db
    .updateTable('payroll_concept_maps')
    .set(stored(changes))
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** True when the map was there to delete. */
export async function deleteConceptMapRow(db: Executor, companyId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('payroll_concept_maps')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
