import type { Db } from '../../db/database.ts';
import { invalid } from '../../platform/errors.ts';
import { type CursorCodec, mapPage, type Page, type SyncQuery, syncPage } from '../../platform/pagination.ts';
import type { Clock } from '../../time/clock.ts';
import { toDate } from '../../time/clock.ts';
import { insertAbsenceType, listAbsenceTypes, selectAbsenceTypes } from './absence-types.repo.ts';

export type AbsenceTypeView = { key: string; label: string };

export async function createAbsenceType(
  db: Db,
  clock: Clock,
  companyId: string,
  input: { key: string; label: string },
): Promise<AbsenceTypeView> {
  const row = await insertAbsenceType(db, companyId, input, toDate(clock.now()));
  if (!row) throw invalid({ key: 'is already used by another absence type of this company' });
  return { key: row.key, label: row.label };
}

export async function absenceTypes(db: Db, companyId: string): Promise<AbsenceTypeView[]> {
  return (await listAbsenceTypes(db, companyId)).map((row) => ({ key: row.key, label: row.label }));
}

export async function listAbsenceTypesPage(
  db: Db,
  codec: CursorCodec,
  companyId: string,
  query: SyncQuery,
): Promise<Page<AbsenceTypeView>> {
  const page = await syncPage(selectAbsenceTypes(db, companyId), {
    codec,
    listing: 'absence-types',
    query,
  });
  return mapPage(page, (row) => ({ key: row.key, label: row.label }));
}
