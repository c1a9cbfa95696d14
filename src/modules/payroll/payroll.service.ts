import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { companySyncList, type Page, type SyncQuery } from '../../platform/pagination.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { absenceTypes } from '../absence-types/absence-types.service.ts';
import {
  type ConceptMapRow,
  deleteConceptMapRow,
  findConceptMap,
  insertConceptMap,
  selectConceptMaps,
  updateConceptMapRow,
} from './payroll.repo.ts';
import {
  type CreatePayrollConceptMapBody,
  PAYROLL_COLUMNS,
  type PayrollColumn,
  type PayrollConceptMap,
  type TimeConcept,
  type UpdatePayrollConceptMapBody,
} from './payroll.schemas.ts';

export type ConceptMapView = Static<typeof PayrollConceptMap>;

/** How a payroll_variables file is laid out: a stored map's, or the generic preset's. */
export type PayrollLayout = {
  workerIdentifier: 'external_id' | 'national_id' | 'naf';
  codes: Partial<Record<TimeConcept, string>>;
  absenceCodes: Record<string, string>;
  columns: PayrollColumn[];
  headers: Partial<Record<PayrollColumn, string>>;
};

/** The generic preset: every column, each concept under its own key, workers by their external id. */
export const GENERIC_LAYOUT: PayrollLayout = {
  workerIdentifier: 'external_id',
  codes: {},
  absenceCodes: {},
  columns: [...PAYROLL_COLUMNS],
  headers: {},
};

const toView = (row: ConceptMapRow): ConceptMapView => ({
  ...row,
  columns: row.columns as PayrollColumn[],
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

/** The layout a report asks for; undefined when the map is not the company's (or was deleted). */
export async function payrollLayout(
  db: Executor,
  companyId: string,
  conceptMapId: string | undefined,
): Promise<PayrollLayout | undefined> {
  if (conceptMapId === undefined) return GENERIC_LAYOUT;
  const row = await findConceptMap(db, companyId, conceptMapId);
  if (!row) return undefined;
  return {
    workerIdentifier: row.worker_identifier,
    codes: row.codes,
    absenceCodes: row.absence_codes,
    columns: row.columns as PayrollColumn[],
    headers: row.headers,
  };
}

/** A map of optional strings as stored: the keys given. */
const stringsOf = (values: object | undefined): Record<string, string> =>
  Object.fromEntries(
    Object.entries(values ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );

/** An absence code for a type the company does not have is a typo: said before it reaches a payroll file. */
async function absenceCodesErrors(
  db: Executor,
  companyId: string,
  codes: Record<string, string> | undefined,
): Promise<Record<string, string>> {
  if (!codes || Object.keys(codes).length === 0) return {};
  const keys = new Set((await absenceTypes({ db }, { companyId })).map((type) => type.key));
  const unknown = Object.keys(codes).filter((key) => !keys.has(key));
  return unknown.length > 0
    ? { absence_codes: `names absence types this company does not have: ${unknown.join(', ')}` }
    : {};
}

export async function createConceptMap(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  input: Static<typeof CreatePayrollConceptMapBody>,
): Promise<ConceptMapView> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const errors = await absenceCodesErrors(db, companyId, input.absence_codes);
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const row = await withSyncStamp(db, clock, companyId, async (tx, stamp) => {
    const at = toDate(stamp);
    const map: ConceptMapRow = {
      id: newId(),
      name: input.name,
      preset: input.preset ?? 'generic',
      worker_identifier: input.worker_identifier ?? GENERIC_LAYOUT.workerIdentifier,
      codes: stringsOf(input.codes),
      absence_codes: input.absence_codes ?? {},
      columns: input.columns ?? [...GENERIC_LAYOUT.columns],
      headers: stringsOf(input.headers),
      created_at: at,
      updated_at: at,
    };
    await insertConceptMap(tx, companyId, map);
    return map;
  });
  return toView(row);
}

export async function getConceptMap(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<ConceptMapView> {
  const row = await findConceptMap(deps.db, tenant.companyId, id);
  if (!row) throw notFound('Concept map');
  return toView(row);
}

export async function listConceptMaps(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: CompanyScope,
  query: SyncQuery,
): Promise<Page<ConceptMapView>> {
  return await companySyncList(
    deps,
    tenant.companyId,
    selectConceptMaps(deps.db, tenant.companyId),
    { listing: 'payroll-concept-maps', query },
    toView,
  );
}

export async function updateConceptMap(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  id: string,
  input: Static<typeof UpdatePayrollConceptMapBody>,
): Promise<ConceptMapView> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const row = await withSyncStamp(db, clock, companyId, async (tx, stamp) => {
    if (!(await findConceptMap(tx, companyId, id))) throw notFound('Concept map');
    const errors = await absenceCodesErrors(tx, companyId, input.absence_codes);
    if (Object.keys(errors).length > 0) throw invalid(errors);
    const { codes, headers, ...rest } = input;
    return await updateConceptMapRow(tx, companyId, id, {
      ...rest,
      ...(codes ? { codes: stringsOf(codes) } : {}),
      ...(headers ? { headers: stringsOf(headers) } : {}),
      updated_at: toDate(stamp),
    });
  });
  if (!row) throw notFound('Concept map');
  return toView(row);
}

export async function deleteConceptMap(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<void> {
  if (!(await deleteConceptMapRow(deps.db, tenant.companyId, id))) throw notFound('Concept map');
}
