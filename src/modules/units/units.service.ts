import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { mapPage, type Page, type SyncQuery, syncPage } from '../../platform/pagination.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { loadAccount } from '../companies/companies.service.ts';
import { locationExists } from '../locations/locations.service.ts';
import { findUnit, insertUnit, selectUnits, type UnitRow } from './units.repo.ts';
import type { CreateUnitBody, Unit } from './units.schemas.ts';

export type UnitView = Static<typeof Unit>;

const toView = (row: UnitRow): UnitView => ({
  ...row,
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

export async function unitExists(db: Executor, companyId: string, id: string): Promise<boolean> {
  return (await findUnit(db, companyId, id)) !== undefined;
}

export async function createUnit(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  input: Static<typeof CreateUnitBody>,
): Promise<UnitView> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  await loadAccount(db, companyId);
  const errors: Record<string, string> = {};
  if (input.parent_id && !(await unitExists(db, companyId, input.parent_id))) {
    errors.parent_id = 'is not a unit of this company';
  }
  if (input.location_id && !(await locationExists(db, companyId, input.location_id))) {
    errors.location_id = 'is not a location of this company';
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  const row = await withSyncStamp(db, clock, companyId, async (tx, stamp) => {
    const now = toDate(stamp);
    const unit: UnitRow = {
      id: newId(),
      name: input.name,
      parent_id: input.parent_id ?? null,
      location_id: input.location_id ?? null,
      created_at: now,
      updated_at: now,
    };
    await insertUnit(tx, companyId, unit);
    return unit;
  });
  return toView(row);
}

export async function getUnit(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<UnitView> {
  const { db } = deps;
  const { companyId } = tenant;
  const row = await findUnit(db, companyId, id);
  if (!row) throw notFound('Unit');
  return toView(row);
}

export async function listUnits(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: CompanyScope,
  query: SyncQuery,
): Promise<Page<UnitView>> {
  const { db, cursors: codec, syncHorizon: horizon } = deps;
  const { companyId } = tenant;
  const page = await syncPage(selectUnits(db, companyId), {
    codec,
    horizon: horizon.of(companyId),
    listing: 'units',
    query,
  });
  return mapPage(page, toView);
}

/** The company's units by name (an import names them as people do), name → id. */
export async function unitIdsByName(db: Executor, companyId: string): Promise<Map<string, string>> {
  const rows = await selectUnits(db, companyId).orderBy('created_at').execute();
  return new Map(rows.map((row) => [row.name, row.id]));
}
