import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { AbsenceTypesTable } from '../../db/schema.ts';
import { newId } from '../../platform/ids.ts';
import { companyLanguage } from '../../platform/language.ts';

/**
 * The types every company starts with. Their labels are display text (clients go by `key`), written in the
 * company's language: a Spanish company's workers, its registry documents and its dashboard read "Vacaciones".
 */
export const BUILT_IN_ABSENCE_TYPES = [
  { key: 'vacation', label: { en: 'Vacation', es: 'Vacaciones' } },
  { key: 'sick_leave', label: { en: 'Sick leave', es: 'Baja por enfermedad' } },
] as const;

export type AbsenceTypeRow = Omit<Selectable<AbsenceTypesTable>, 'company_id'>;

export async function insertBuiltInAbsenceTypes(
  db: Executor,
  company: { id: string; timezone: string },
  now: Date,
): Promise<void> {
  const language = companyLanguage(company.timezone);
  await db
    .insertInto('absence_types')
    .values(
      BUILT_IN_ABSENCE_TYPES.map((type) => ({
        company_id: company.id,
        id: newId(),
        key: type.key,
        label: type.label[language],
        built_in: true,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

/** Inserts a custom type; undefined when the key is already taken in this company. */
export async function insertAbsenceType(
  db: Executor,
  companyId: string,
  input: { key: string; label: string },
  now: Date,
): Promise<AbsenceTypeRow | undefined> {
  return await db
    .insertInto('absence_types')
    .values({
      company_id: companyId,
      id: newId(),
      key: input.key,
      label: input.label,
      built_in: false,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.columns(['company_id', 'key']).doNothing())
    .returning(['id', 'key', 'label', 'built_in', 'created_at', 'updated_at'])
    .executeTakeFirst();
}

export async function listAbsenceTypes(db: Executor, companyId: string): Promise<AbsenceTypeRow[]> {
  return await db
    .selectFrom('absence_types')
    .select(['id', 'key', 'label', 'built_in', 'created_at', 'updated_at'])
    .where('company_id', '=', companyId)
    .orderBy('key')
    .execute();
}

export async function findAbsenceTypeByKey(
  db: Executor,
  companyId: string,
  key: string,
): Promise<AbsenceTypeRow | undefined> {
  return await db
    .selectFrom('absence_types')
    .select(['id', 'key', 'label', 'built_in', 'created_at', 'updated_at'])
    .where('company_id', '=', companyId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** A tenant's absence types, explicit columns, for a synced listing. */
export const selectAbsenceTypes = (db: Executor, companyId: string) =>
  db
    .selectFrom('absence_types')
    .select(['id', 'key', 'label', 'updated_at'])
    .where('company_id', '=', companyId);
