import type { Db } from '../../db/database.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import { hasZonePeriods, insertZonePeriod } from '../../db/time-zones.ts';
import { quotaUsed } from '../../platform/auth.repo.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { monthlyQuota, quotaMonth, RATE_LIMIT_PER_MINUTE } from '../../platform/service-state.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { type Clock, toDate } from '../../time/clock.ts';
import { localDate } from '../../time/zones.ts';
import {
  type CompanyRow,
  findCompany,
  findSandboxOf,
  insertCompensationPeriod,
  updateCompany,
} from '../companies/companies.repo.ts';
import {
  type CompanyView,
  companyView,
  DEFAULT_LATE_RECORD_HOURS,
  getCompany,
  loadAccount,
  requireTaxId,
  requireTimeZone,
} from '../companies/companies.service.ts';
import { employeeHireDates, employeeIdsOf, employeesOnCompanyZone } from '../employees/employees.repo.ts';
import { applyRegionalCalendar } from '../holidays/holidays.service.ts';
import { assertMonthsOpen, sealedThrough } from '../registry/months.service.ts';
import { appendToCompanyChain, chainCompany } from '../registry/registry.service.ts';
import { type DaysTouched, lockDaysOf, settleDays } from '../workdays/write-days.ts';
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
  timezone_effective_from?: string | undefined;
  seats?: number | undefined;
  company_status?: CompanyRow['company_status'] | undefined;
  subscription_status?: CompanyRow['subscription_status'] | undefined;
  addon_enabled?: boolean | undefined;
  default_expiration_days?: number | null | undefined;
  max_active_keys?: number | undefined;
  vacation_carry_over_max_days?: number | undefined;
  vacation_carry_over_expiry?: string | undefined;
  late_record_hours?: number | undefined;
  registry_policy?: 'marked' | 'worker_consent' | undefined;
  overtime_compensation?: 'paid' | 'time_off' | undefined;
  tracking_start_date?: string | undefined;
  legal_name?: string | null | undefined;
  tax_id?: string | null | undefined;
  default_region?: string | null | undefined;
};

/**
 * Admin changes to a company. A sandbox only takes a new name; every setting belongs to its account.
 * Switching addon_enabled runs the addon lifecycle (addon.ts) in the same transaction as the change.
 */
export async function changeCompany(
  deps: Pick<AppDeps, 'db' | 'clock' | 'reportStore'> & Partial<Pick<AppDeps, 'lateRecordHours'>>,
  tenant: CompanyScope,
  requested: CompanyChanges,
): Promise<CompanyView> {
  const { companyId } = tenant;
  // The tracking start and the time zone move in their own transaction, with the locks they need first
  // (changeCalendar): both change the figures of the employees' days.
  const {
    tracking_start_date: trackingStart,
    timezone: requestedZone,
    timezone_effective_from: timezoneFrom,
    default_region: defaultRegion,
    overtime_compensation: compensation,
    ...changes
  } = requested;
  if (timezoneFrom !== undefined && requestedZone === undefined) {
    throw invalid({ timezone_effective_from: 'applies only with timezone' });
  }
  const timezone = requestedZone === undefined ? undefined : requireTimeZone(requestedZone);
  if (changes.tax_id !== undefined && changes.tax_id !== null) changes.tax_id = requireTaxId(changes.tax_id);
  if (
    changes.vacation_carry_over_expiry !== undefined &&
    !validCarryOverExpiry(changes.vacation_carry_over_expiry)
  ) {
    throw invalid({ vacation_carry_over_expiry: 'is not a valid MM-DD date' });
  }
  const ceiling = deps.lateRecordHours ?? DEFAULT_LATE_RECORD_HOURS;
  if (changes.late_record_hours !== undefined && changes.late_record_hours > ceiling) {
    // The operator's threshold (JORNADA_LATE_RECORD_HOURS) bounds the company's: a company that could raise it
    // could record back-dated check-ins unmarked, then lower it again.
    throw invalid({ late_record_hours: `must not exceed the operator's threshold of ${ceiling} hours` });
  }
  if (trackingStart !== undefined || timezone !== undefined || compensation !== undefined) {
    await changeCalendar(deps, companyId, { trackingStart, timezone, timezoneFrom, compensation });
  }
  if (defaultRegion !== undefined) {
    // A region brings its holidays: set with them, under every employee's lock (holidays.service.ts).
    await applyRegionalCalendar(deps, tenant, async (tx, at) => {
      const company = await findCompany(tx, companyId, { forUpdate: true });
      if (!company) throw notFound('Company');
      if (company.sandbox_of !== null)
        throw invalid({ default_region: 'is set on the live company; a sandbox shares it' });
      await updateCompany(tx, companyId, {
        default_region: defaultRegion,
        updated_at: at,
      });
      await chainCompany(tx, companyId, at);
    });
  }
  // Switching the addon writes the sandbox's records too: its id (a new one's, chosen now) is stamped as well.
  const sandboxId =
    changes.addon_enabled === undefined
      ? undefined
      : ((await findSandboxOf(deps.db, companyId))?.id ?? newId());
  const stamped = sandboxId === undefined ? companyId : [companyId, sandboxId];
  const removedFiles = await withSyncStamp(deps.db, deps.clock, stamped, async (tx, stamp) => {
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
    if (company.registry_policy === 'worker_consent' && changes.registry_policy === 'marked') {
      // Chosen once: the workers were told that nothing made by others counts without their acceptance.
      throw new ApiError('conflict', 'The registry policy worker_consent is irreversible.');
    }
    const row = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    await updateCompany(tx, companyId, { ...row, updated_at: at });
    await chainCompany(tx, companyId, at);
    if (changes.addon_enabled === false && company.addon_enabled) return await disableAddon(tx, company, at);
    if (changes.addon_enabled === true && !company.addon_enabled)
      await enableAddon(tx, company, at, sandboxId ?? newId());
    return [];
  });
  // The rows are gone for good; their files go after the commit (a missing file is not an error).
  await Promise.all(removedFiles.map((key) => deps.reportStore.delete(key)));
  return await getCompany(deps.db, companyId);
}

/**
 * Moves a live company's tracking start or time zone (docs/registry.md), through the owner of day writes: every
 * employee's row of the company and of its sandbox is locked first, then the company's (the lock order,
 * docs/architecture.md), and the days each change reaches are recomputed.
 * - A tracking start changes the days between the old and the new date for every employee who has none of their
 *   own; refused (409) when a closed month seals any of them.
 * - A time zone applies from a date on (effective-dated, docs/time-rules.md): the days of every employee who
 *   follows the company's zone are recomputed from the day before it; refused (409) from a date in or before a
 *   closed month, in the company or its sandbox, and (422) from a date after today.
 */
async function changeCalendar(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  companyId: string,
  change: {
    trackingStart?: string | undefined;
    timezone?: string | undefined;
    timezoneFrom?: string | undefined;
    compensation?: 'paid' | 'time_off' | undefined;
  },
): Promise<void> {
  await deps.db.transaction().execute(async (tx) => {
    const now = deps.clock.now();
    const sandbox = await findSandboxOf(tx, companyId);
    const tenants = [companyId, ...(sandbox ? [sandbox.id] : [])];
    for (const tenant of tenants) await lockDaysOf(tx, tenant, 'all');
    const company = await findCompany(tx, companyId, { forUpdate: true });
    if (!company) throw notFound('Company');
    if (company.sandbox_of !== null) {
      throw invalid(
        Object.fromEntries(
          Object.keys(change).map((field) => [
            field === 'trackingStart'
              ? 'tracking_start_date'
              : field === 'compensation'
                ? 'overtime_compensation'
                : field,
            'is set on the live company; a sandbox shares it',
          ]),
        ),
      );
    }
    const touched = new Map<string, DaysTouched[]>(tenants.map((tenant) => [tenant, []]));
    const date = change.trackingStart;
    if (date !== undefined && company.tracking_start_date !== date) {
      const from = date < company.tracking_start_date ? date : company.tracking_start_date;
      const last = Temporal.PlainDate.from(
        date < company.tracking_start_date ? company.tracking_start_date : date,
      )
        .subtract({ days: 1 })
        .toString();
      for (const tenant of tenants) {
        await assertMonthsOpen(tx, tenant, { from, to: last }, 'moving the tracking start');
        for (const employeeId of await employeeIdsOf(tx, tenant)) {
          touched.get(tenant)?.push({ employeeId, from, to: last });
        }
      }
      await updateCompany(tx, companyId, { tracking_start_date: date, updated_at: toDate(now) });
    }
    const zone = change.timezone;
    if (zone !== undefined && zone !== company.timezone) {
      // Effective-dated (docs/time-rules.md): from a date (default today) on, never in or before a closed month.
      const today = localDate(now, company.timezone).toString();
      const from = change.timezoneFrom ?? today;
      if (from > today)
        throw invalid({ timezone_effective_from: 'a time zone applies from a date up to today' });
      const period = (effective: string, timezone: string) => ({
        company_id: companyId,
        employee_id: null,
        effective_from: effective,
        timezone,
        recorded_at: toDate(now),
        recorded_by_type: 'operator',
        recorded_by_id: 'admin-api',
      });
      if (!(await hasZonePeriods(tx, companyId, null)) && from !== BEGINNING) {
        await insertZonePeriod(tx, period(BEGINNING, company.timezone));
      }
      if (!(await insertZonePeriod(tx, period(from, zone)))) {
        throw new ApiError('conflict', `A change of time zone already starts on ${from}.`, {
          errors: { timezone_effective_from: from },
        });
      }
      const dayBefore = Temporal.PlainDate.from(from).subtract({ days: 1 }).toString();
      for (const tenant of tenants) {
        await assertMonthsOpen(tx, tenant, { from, to: from }, 'a change of the time zone');
        for (const employee of await employeesOnCompanyZone(tx, tenant)) {
          // The day before too: a shift that starts on it and runs into the new zone's first day.
          const start = dayBefore < employee.hire_date ? employee.hire_date : dayBefore;
          touched.get(tenant)?.push({ employeeId: employee.id, from: start, to: 'horizon' });
        }
      }
      await appendToCompanyChain(tx, companyId, {
        kind: 'timezone_period',
        subjectId: null,
        content: { effective_from: from, timezone: zone },
        recordedAt: toDate(now),
      });
      await updateCompany(tx, companyId, { timezone: zone, updated_at: toDate(now) });
    }
    const compensation = change.compensation;
    if (compensation !== undefined && compensation !== company.overtime_compensation) {
      // A new compensation applies to the open period (the days after the latest closed month) of every employee
      // whose contract does not choose one: a closed month keeps what its days were settled with. Days ahead
      // hold no work yet; each is settled again when its records come.
      for (const tenant of tenants) {
        const sealed = await sealedThrough(tx, tenant);
        const open = sealed ? Temporal.PlainDate.from(sealed).add({ days: 1 }).toString() : BEGINNING;
        await insertCompensationPeriod(tx, {
          company_id: tenant,
          effective_from: open,
          compensation,
          recorded_at: toDate(now),
        });
        const today = localDate(now, company.timezone).toString();
        for (const employee of await employeeHireDates(tx, tenant)) {
          const from = open > employee.hire_date ? open : employee.hire_date;
          if (from <= today) touched.get(tenant)?.push({ employeeId: employee.id, from, to: today });
        }
      }
      await updateCompany(tx, companyId, { overtime_compensation: compensation, updated_at: toDate(now) });
    }
    await chainCompany(tx, companyId, toDate(now));
    for (const tenant of tenants) {
      const days = { companyId: tenant, timezone: zone ?? company.timezone };
      const what =
        zone !== undefined
          ? 'a change of the time zone'
          : date !== undefined
            ? 'moving the tracking start'
            : 'a change of the overtime compensation';
      await settleDays(
        tx,
        days,
        now,
        { result: null, touched: touched.get(tenant) ?? [], events: [] },
        { what },
      );
    }
  });
}

/** A date before any closed month: every closed month seals it. */
const BEGINNING = '0001-01-01';

/** The integration settings screen: the company, this month's quota use per tenant, and the rate limits. */
export async function integrationSettings(db: Db, clock: Clock, companyId: string) {
  const loaded = await loadAccount(db, companyId);
  const { account, sandbox } = loaded;
  // The month the requests count toward, as jornada_authenticate_many counts them (platform/auth.ts).
  const month = quotaMonth(clock.now());
  const usage = async (tenant: { id: string; active_employee_count: number }, mode: 'live' | 'test') => {
    return {
      used: await quotaUsed(db, tenant.id, month),
      quota: monthlyQuota(mode, tenant.active_employee_count),
    };
  };
  return {
    company: companyView(loaded),
    usage: {
      month: month.slice(0, 7),
      live: await usage(account, 'live'),
      test: sandbox ? await usage(sandbox, 'test') : null,
    },
    rate_limits: { ...RATE_LIMIT_PER_MINUTE },
  };
}
