import { lockEmployees } from '../../db/employees.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { toDate } from '../../time/clock.ts';
import { type CompanyRow, findCompany, findSandboxOf, updateCompany } from '../companies/companies.repo.ts';
import {
  type CompanyView,
  getCompany,
  requireTaxId,
  requireTimeZone,
} from '../companies/companies.service.ts';
import { employeeIdsOf } from '../employees/employees.repo.ts';
import { assertMonthsOpen } from '../registry/months.service.ts';
import { consolidate } from '../workdays/consolidation.ts';
import { disableAddon, enableAddon } from './addon.ts';

/**
 * The service lifecycle of a company: the admin changes to its settings and service state, and the public API
 * addon switched off or on with everything that goes with it (addon.ts). It sits above the modules it
 * orchestrates (companies, API keys, employees, reports); none of them depends on it.
 */

function validCarryOverExpiry(value: string): boolean {
  const [month, day] = value.split('-').map(Number);
  try {
    Temporal.PlainDate.from({ year: 2024, month: month ?? 0, day: day ?? 0 }, { overflow: 'reject' });
    return true;
  } catch {
    return false;
  }
}

export type CompanyChanges = {
  name?: string | undefined;
  timezone?: string | undefined;
  seats?: number | undefined;
  company_status?: CompanyRow['company_status'] | undefined;
  subscription_status?: CompanyRow['subscription_status'] | undefined;
  addon_enabled?: boolean | undefined;
  default_expiration_days?: number | null | undefined;
  max_active_keys?: number | undefined;
  vacation_carry_over_max_days?: number | undefined;
  vacation_carry_over_expiry?: string | undefined;
  late_record_hours?: number | undefined;
  tracking_start_date?: string | undefined;
  legal_name?: string | null | undefined;
  tax_id?: string | null | undefined;
};

/**
 * Admin changes to a company. A sandbox only takes a new name; every setting belongs to its account.
 * Switching addon_enabled runs the addon lifecycle (addon.ts) in the same transaction as the change.
 */
export async function changeCompany(
  deps: Pick<AppDeps, 'db' | 'clock' | 'reportStore'>,
  tenant: CompanyScope,
  requested: CompanyChanges,
): Promise<CompanyView> {
  const { companyId } = tenant;
  // The tracking start moves in its own transaction, with the locks it needs first (moveTrackingStart).
  const { tracking_start_date: trackingStart, ...changes } = requested;
  if (changes.timezone !== undefined) changes.timezone = requireTimeZone(changes.timezone);
  if (changes.tax_id !== undefined && changes.tax_id !== null) changes.tax_id = requireTaxId(changes.tax_id);
  if (
    changes.vacation_carry_over_expiry !== undefined &&
    !validCarryOverExpiry(changes.vacation_carry_over_expiry)
  ) {
    throw invalid({ vacation_carry_over_expiry: 'is not a valid MM-DD date' });
  }
  const now = toDate(deps.clock.now());
  if (trackingStart !== undefined) await moveTrackingStart(deps, companyId, trackingStart, now);
  const removedFiles = await withSyncStamp(deps.db, deps.clock, async (tx, stamp) => {
    const at = toDate(stamp);
    const company = await findCompany(tx, companyId, { forUpdate: true });
    if (!company) throw notFound('Company');
    const { name, ...settings } = changes;
    if (company.sandbox_of !== null && Object.values(settings).some((value) => value !== undefined)) {
      throw invalid(
        Object.fromEntries(
          Object.keys(settings).map((field) => [field, 'is set on the live company; a sandbox shares it']),
        ),
      );
    }
    const row = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    await updateCompany(tx, companyId, { ...row, updated_at: at });
    if (changes.addon_enabled === false && company.addon_enabled) return await disableAddon(tx, company, at);
    if (changes.addon_enabled === true && !company.addon_enabled) await enableAddon(tx, company, at);
    return [];
  });
  // The rows are gone for good; their files go after the commit (a missing file is not an error).
  await Promise.all(removedFiles.map((key) => deps.reportStore.delete(key)));
  return await getCompany(deps.db, companyId);
}

/**
 * Moves a live company's tracking start (docs/registry.md): the days between the old and the new date change for
 * every employee of the company and of its sandbox who has no tracking start of their own, so those days are
 * recomputed, and refused (409) when they touch a closed month. Every employee's row is locked first, then the
 * company's (the lock order, docs/architecture.md).
 */
async function moveTrackingStart(
  deps: Pick<AppDeps, 'db'>,
  companyId: string,
  date: string,
  now: Date,
): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    const sandbox = await findSandboxOf(tx, companyId);
    const tenants = [companyId, ...(sandbox ? [sandbox.id] : [])];
    for (const tenant of tenants) await lockEmployees(tx, tenant);
    const company = await findCompany(tx, companyId, { forUpdate: true });
    if (!company) throw notFound('Company');
    if (company.sandbox_of !== null) {
      throw invalid({ tracking_start_date: 'is set on the live company; a sandbox shares it' });
    }
    if (company.tracking_start_date === date) return;
    const from = date < company.tracking_start_date ? date : company.tracking_start_date;
    const last = Temporal.PlainDate.from(
      date < company.tracking_start_date ? company.tracking_start_date : date,
    )
      .subtract({ days: 1 })
      .toString();
    for (const tenant of tenants) {
      await assertMonthsOpen(tx, tenant, { from, to: last }, 'moving the tracking start');
    }
    await updateCompany(tx, companyId, { tracking_start_date: date, updated_at: now });
    for (const tenant of tenants) {
      for (const employeeId of await employeeIdsOf(tx, tenant)) {
        await consolidate(tx, tenant, company.timezone, employeeId, { from, to: last }, now);
      }
    }
  });
}
