import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { isTaxId, normalizeIdentity } from '../../platform/identity.ts';
import { newId } from '../../platform/ids.ts';
import { DEFAULT_LIMIT, keysetPage, type Page } from '../../platform/pagination.ts';
import { hasActiveService } from '../../platform/service-state.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import type { Region } from '../../time/regions.ts';
import { canonicalTimeZone, localDate } from '../../time/zones.ts';
import { insertBuiltInAbsenceTypes } from '../absence-types/absence-types.repo.ts';
import { applyRegionalCalendar } from '../holidays/holidays.service.ts';
import { chainCompany } from '../registry/registry.service.ts';
import {
  type CompanyRow,
  findCompany,
  findSandboxOf,
  insertCompany,
  selectAccounts,
} from './companies.repo.ts';
import type { Company, CreateCompanyBody } from './companies.schemas.ts';
import { provisionSandbox } from './sandbox.ts';

export const DEFAULT_TIMEZONE = 'Europe/Madrid';
export const DEFAULT_SEATS = 50;
/** A check-in recorded more than a day after its timestamp is late (docs/registry.md). */
export const DEFAULT_LATE_RECORD_HOURS = 24;

export type CompanyView = Static<typeof Company>;

/** The live company that owns a tenant: itself, or the company a sandbox belongs to. */
export type Account = { account: CompanyRow; tenant: CompanyRow; sandbox: CompanyRow | undefined };

/** A tax id as stored: normalized, and a valid CIF or NIF (422 otherwise). */
export function requireTaxId(text: string): string {
  const normalized = normalizeIdentity(text);
  if (!isTaxId(normalized))
    throw invalid({ tax_id: 'is not a valid CIF or NIF (check its control character)' });
  return normalized;
}

export function requireTimeZone(name: string, field = 'timezone'): string {
  const zone = canonicalTimeZone(name);
  if (zone === null) throw invalid({ [field]: 'is not a known IANA time zone' });
  return zone;
}

/** Settings and service state are the account's; a sandbox row only contributes its id, name and counts. */
function toView(tenant: CompanyRow, account: CompanyRow, sandboxId: string | null): CompanyView {
  return {
    id: tenant.id,
    name: tenant.name,
    timezone: account.timezone,
    sandbox: tenant.sandbox_of !== null,
    sandbox_company_id: sandboxId,
    sandbox_of: tenant.sandbox_of,
    seats: account.seats,
    active_employees: tenant.active_employee_count,
    default_expiration_days: account.default_expiration_days,
    max_active_keys: account.max_active_keys,
    company_status: account.company_status,
    subscription_status: account.subscription_status,
    addon_enabled: account.addon_enabled,
    service_active: hasActiveService(account),
    vacation_carry_over_max_days: Number(account.vacation_carry_over_max_days),
    vacation_carry_over_expiry: account.vacation_carry_over_expiry,
    late_record_hours: account.late_record_hours,
    registry_policy: account.registry_policy,
    overtime_compensation: account.overtime_compensation,
    tracking_start_date: account.tracking_start_date,
    legal_name: account.legal_name,
    tax_id: account.tax_id,
    default_region: account.default_region as Region | null,
    created_at: formatInstant(tenant.created_at),
    updated_at: formatInstant(tenant.updated_at),
  };
}

export async function loadAccount(db: Executor, companyId: string): Promise<Account> {
  const tenant = await findCompany(db, companyId);
  if (!tenant) throw notFound('Company');
  if (tenant.sandbox_of === null) {
    return { account: tenant, tenant, sandbox: await findSandboxOf(db, tenant.id) };
  }
  const account = await findCompany(db, tenant.sandbox_of);
  if (!account) throw notFound('Company');
  return { account, tenant, sandbox: tenant };
}

/** The view of a loaded tenant (see loadAccount). */
export function companyView({ account, tenant, sandbox }: Account): CompanyView {
  return toView(tenant, account, tenant.sandbox_of === null ? (sandbox?.id ?? null) : null);
}

export async function getCompany(db: Executor, companyId: string): Promise<CompanyView> {
  return companyView(await loadAccount(db, companyId));
}

export async function createCompany(
  deps: Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'lateRecordHours'>>,
  input: Static<typeof CreateCompanyBody>,
): Promise<CompanyView> {
  const { db, clock } = deps;
  const timezone = requireTimeZone(input.timezone ?? DEFAULT_TIMEZONE);
  const instant = clock.now();
  const now = toDate(instant);
  const company: CompanyRow = {
    id: newId(),
    sandbox_of: null,
    name: input.name,
    timezone,
    seats: input.seats ?? DEFAULT_SEATS,
    default_expiration_days: null,
    max_active_keys: 10,
    company_status: 'active',
    subscription_status: 'active',
    addon_enabled: true,
    vacation_carry_over_max_days: '0',
    vacation_carry_over_expiry: '03-31',
    registry_policy: 'marked',
    overtime_compensation: 'time_off',
    late_record_hours: Math.min(DEFAULT_LATE_RECORD_HOURS, deps.lateRecordHours ?? DEFAULT_LATE_RECORD_HOURS),
    // Recording starts the day the company is created (an operator migrating history sets it earlier).
    tracking_start_date: input.tracking_start_date ?? localDate(instant, timezone).toString(),
    legal_name: input.legal_name ?? null,
    tax_id: input.tax_id === undefined || input.tax_id === null ? null : requireTaxId(input.tax_id),
    default_region: input.default_region ?? null,
    active_employee_count: 0,
    created_at: now,
    updated_at: now,
  };
  const sandboxId = newId();
  const sandbox = await withSyncStamp(db, clock, [company.id, sandboxId], async (tx, stamp) => {
    await insertCompany(tx, company);
    await chainCompany(tx, company.id, toDate(stamp));
    await insertBuiltInAbsenceTypes(tx, company, toDate(stamp));
    const sandbox = await provisionSandbox(tx, company, toDate(stamp), sandboxId);
    await chainCompany(tx, sandbox.id, toDate(stamp));
    return sandbox;
  });
  // A default region brings the national and regional holidays of the shipped calendar.
  if (company.default_region !== null) await applyRegionalCalendar(deps, { companyId: company.id });
  return toView(company, company, sandbox.id);
}

/** The operator's list of companies (`GET /admin/v1/companies`, `jornada admin list-companies`), by id. */
export async function listCompanies(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  query: { limit?: number | undefined; cursor?: string | undefined },
): Promise<Page<CompanyView>> {
  const page = await keysetPage(selectAccounts(deps.db), {
    codec: deps.cursors,
    listing: 'admin_companies',
    sort: [{ column: 'id', kind: 'text' }],
    limit: query.limit ?? DEFAULT_LIMIT,
    cursor: query.cursor,
    keyOf: (row) => [row.id],
  });
  const data: CompanyView[] = [];
  // A page is at most 100 companies: one small read each for its sandbox.
  for (const account of page.data) {
    data.push(companyView({ account, tenant: account, sandbox: await findSandboxOf(deps.db, account.id) }));
  }
  return { data, meta: page.meta };
}
