import type { Static } from 'typebox';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid } from '../../platform/errors.ts';
import { mapPage, type Page, type SyncQuery, syncPage } from '../../platform/pagination.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { toDate } from '../../time/clock.ts';
import {
  BUILT_IN_ABSENCE_TYPES,
  insertAbsenceType,
  listAbsenceTypes,
  selectAbsenceTypes,
} from './absence-types.repo.ts';
import type { AbsenceTypeRef, CreateAbsenceTypeBody } from './absence-types.schemas.ts';

export type AbsenceTypeView = Static<typeof AbsenceTypeRef>;

export async function createAbsenceType(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  input: Static<typeof CreateAbsenceTypeBody>,
): Promise<AbsenceTypeView> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const row = await withSyncStamp(db, clock, companyId, async (tx, stamp) =>
    insertAbsenceType(tx, companyId, input, toDate(stamp)),
  );
  if (!row) throw invalid({ key: 'is already used by another absence type of this company' });
  return { key: row.key, label: row.label };
}

export async function absenceTypes(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
): Promise<AbsenceTypeView[]> {
  const { db } = deps;
  const { companyId } = tenant;
  return (await listAbsenceTypes(db, companyId)).map((row) => ({ key: row.key, label: row.label }));
}

export async function listAbsenceTypesPage(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: CompanyScope,
  query: SyncQuery,
): Promise<Page<AbsenceTypeView>> {
  const { db, cursors: codec, syncHorizon: horizon } = deps;
  const { companyId } = tenant;
  const page = await syncPage(selectAbsenceTypes(db, companyId), {
    codec,
    horizon: horizon.of(companyId),
    listing: 'absence-types',
    query,
  });
  return mapPage(page, (row) => ({ key: row.key, label: row.label }));
}

/**
 * An absence's name in a document's language (issue 34: never a key like `sick_leave`): a built-in type's own
 * name in that language, else the company's label for its type, else the key.
 */
export function absenceName(
  key: string,
  locale: 'es' | 'en',
  companyLabels: Readonly<Record<string, string>>,
) {
  const builtIn = BUILT_IN_ABSENCE_TYPES.find((type) => type.key === key);
  return builtIn ? builtIn.label[locale] : (companyLabels[key] ?? key);
}
