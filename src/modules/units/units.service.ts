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
import { findUnit, insertUnit, selectUnits, type UnitRow, updateUnitRow } from './units.repo.ts';
import type { CreateUnitBody, Unit, UpdateUnitBody } from './units.schemas.ts';

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

/**
 * Changes a unit (issue 39, the dashboard's Settings): its name, the unit above it, its work centre. A unit is
 * never placed under itself or under a unit below it (422): the units stay a tree, and a team lead's reach with it.
 */
export async function updateUnit(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  id: string,
  input: Static<typeof UpdateUnitBody>,
): Promise<UnitView> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const row = await withSyncStamp(db, clock, companyId, async (tx, stamp) => {
    const current = await findUnit(tx, companyId, id);
    if (!current) throw notFound('Unit');
    const errors: Record<string, string> = {};
    if (input.parent_id) {
      // Up from the new parent: reaching this unit would make a loop.
      let above: string | null = input.parent_id;
      for (let depth = 0; above !== null && depth < 1000; depth += 1) {
        if (above === id) {
          errors.parent_id = 'is this unit or a unit below it';
          break;
        }
        const parent: UnitRow | undefined = await findUnit(tx, companyId, above);
        if (!parent) {
          errors.parent_id = 'is not a unit of this company';
          break;
        }
        above = parent.parent_id;
      }
    }
    if (input.location_id && !(await locationExists(tx, companyId, input.location_id))) {
      errors.location_id = 'is not a location of this company';
    }
    if (Object.keys(errors).length > 0) throw invalid(errors);
    return await updateUnitRow(tx, companyId, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.parent_id !== undefined ? { parent_id: input.parent_id } : {}),
      ...(input.location_id !== undefined ? { location_id: input.location_id } : {}),
      updated_at: toDate(stamp),
    });
  });
  if (!row) throw notFound('Unit');
  return toView(row);
}
