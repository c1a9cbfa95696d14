import { isDeepStrictEqual } from 'node:util';
import type { Static } from 'typebox';
import { type Executor, type Tx, violatedConstraint } from '../../db/database.ts';
import { withinReach } from '../../db/reach.ts';
import { hasZonePeriods, insertZonePeriod } from '../../db/time-zones.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { isNationalId, normalizeIdentity, socialSecurityProblem } from '../../platform/identity.ts';
import { newId } from '../../platform/ids.ts';
import { mapPage, type Page, syncPage } from '../../platform/pagination.ts';
import type { ActingTenant, CompanyScope, ReachScope, TenantScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import {
  type ContractTerms,
  changedTerms,
  DEFAULT_COMPLEMENTARY_LIMIT_PERCENTAGE,
  FULL_TIME,
  periodOn,
  sameTerms,
  weeklyMinutesOf,
} from '../../time/contract.ts';
import { employeeTimeZone, localDate, startOfDate } from '../../time/zones.ts';
import { freeSeat, takeSeat } from '../companies/companies.repo.ts';
import { requireTimeZone } from '../companies/companies.service.ts';
import { recordEvents } from '../events/events.service.ts';
import { locationExists } from '../locations/locations.service.ts';
import { assertMonthsOpen } from '../registry/months.service.ts';
import { latestClosedMonth } from '../registry/registry.repo.ts';
import { appendToChain, chainEmployee } from '../registry/registry.service.ts';
import { unitExists } from '../units/units.service.ts';
import { recountAbsenceDays } from '../workdays/absence-days.ts';
import { hasLocalHolidays } from '../workdays/workdays.repo.ts';
import { type DaysTouched, writeDays } from '../workdays/write-days.ts';
import {
  activeCheckInOutside,
  CONTRACT_TERM_COLUMNS,
  contractHistoryRows,
  contractOf,
  type EmployeeColumns,
  type EmployeeRow,
  effectiveTrackingStart,
  findEmployee,
  findEmployeeIdBy,
  insertEmployee,
  selectEmployeesMatching,
  termsOf,
  updateEmployeeRow,
  upsertContractPeriod,
} from './employees.repo.ts';
import type {
  ContractPeriod,
  CreateEmployeeBody,
  TerminateEmployeeBody,
  UpdateEmployeeBody,
} from './employees.schemas.ts';
import {
  DEFAULT_VACATION_DAYS_PER_YEAR,
  DEFAULT_WORK_SCHEDULE,
  type Employee,
  WEEKDAYS,
} from './employees.schemas.ts';

export {
  type EmployeeRow,
  findEmployee,
  findEmployeeIdentities,
  lockEmployees,
} from './employees.repo.ts';

/** The calling tenant, as the services need it. `Tenant` from auth satisfies it. */

export type WorkScheduleView = Record<(typeof WEEKDAYS)[number], number>;

export type EmployeeView = Static<typeof Employee>;

export function scheduleView(minutes: number[]): WorkScheduleView {
  return Object.fromEntries(WEEKDAYS.map((day, index) => [day, minutes[index] ?? 0])) as WorkScheduleView;
}

const scheduleArray = (schedule: WorkScheduleView): number[] => WEEKDAYS.map((day) => schedule[day]);

/** A period's part-time terms as the API shows them: weekly minutes and the complementary limit resolved. */
function termsView(terms: ContractTerms, schedule: readonly number[]) {
  const partTime = terms.contract_type === 'part_time';
  return {
    contract_type: terms.contract_type,
    weekly_minutes: weeklyMinutesOf(terms, schedule),
    part_time_percentage: partTime ? terms.part_time_percentage : null,
    complementary_limit_percentage: partTime
      ? (terms.complementary_limit_percentage ?? DEFAULT_COMPLEMENTARY_LIMIT_PERCENTAGE)
      : null,
    overtime_compensation: terms.overtime_compensation,
  };
}

export function toView(row: EmployeeRow): EmployeeView {
  const { company_tracking_start_date: _company, ...columns } = row;
  return {
    ...columns,
    work_schedule: scheduleView(row.work_schedule),
    vacation_days_per_year: Number(row.vacation_days_per_year),
    ...termsView(termsOf(row), row.work_schedule),
    tracking_start_date: effectiveTrackingStart(row),
    created_at: formatInstant(row.created_at),
    updated_at: formatInstant(row.updated_at),
  };
}

export async function getEmployee(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<EmployeeView> {
  const { db } = deps;
  const { companyId } = tenant;
  const row = await findEmployee(db, companyId, id);
  if (!row) throw notFound('Employee');
  return toView(row);
}

export async function listEmployees(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: ReachScope,
  query: {
    limit?: number | undefined;
    cursor?: string | undefined;
    updated_since?: string | undefined;
    status?: 'active' | 'terminated' | undefined;
    location_id?: string | undefined;
    unit_id?: string | undefined;
    /** The dashboard's search: a case-insensitive substring of the name, email or external id. */
    search?: string | undefined;
  },
): Promise<Page<EmployeeView>> {
  const { db, cursors: codec, syncHorizon: horizon } = deps;
  const { companyId } = tenant;
  const search = query.search?.trim();
  const q = withinReach(selectEmployeesMatching(db, companyId, { ...query, search }), tenant, 'employees.id');
  const page = await syncPage(q, {
    codec,
    horizon: horizon.of(companyId),
    listing: `employees|status=${query.status ?? ''}|location=${query.location_id ?? ''}|unit=${query.unit_id ?? ''}|search=${search ?? ''}`,
    query,
  });
  return mapPage(page, toView);
}

type Writable = {
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
  external_id?: string | null | undefined;
  hire_date?: string | undefined;
  termination_date?: string | undefined;
  location_id?: string | null | undefined;
  unit_id?: string | null | undefined;
  timezone?: string | null | undefined;
  work_schedule?: WorkScheduleView | undefined;
  vacation_days_per_year?: number | undefined;
  contract_type?: ContractTerms['contract_type'] | undefined;
  weekly_minutes?: number | null | undefined;
  part_time_percentage?: number | null | undefined;
  complementary_limit_percentage?: number | null | undefined;
  overtime_compensation?: 'paid' | 'time_off' | null | undefined;
  tracking_start_date?: string | null | undefined;
  opening_banked_minutes?: number | undefined;
  national_id?: string | null | undefined;
  social_security_number?: string | null | undefined;
};

/** The checks that need the database: references within the tenant, and per-company uniqueness. */
async function checkReferencesAndUniqueness(
  tx: Tx,
  companyId: string,
  input: Writable,
  selfId: string | null,
): Promise<Record<string, string>> {
  const errors: Record<string, string> = {};
  if (input.location_id && !(await locationExists(tx, companyId, input.location_id))) {
    errors.location_id = 'is not a location of this company';
  }
  if (input.unit_id && !(await unitExists(tx, companyId, input.unit_id))) {
    errors.unit_id = 'is not a unit of this company';
  }
  if (input.email !== undefined) {
    const taken = await findEmployeeIdBy(tx, companyId, 'email_key', input.email.toLowerCase());
    if (taken && taken.id !== selfId) errors.email = 'is already used by another employee of this company';
  }
  if (input.external_id) {
    const taken = await findEmployeeIdBy(tx, companyId, 'external_id', input.external_id);
    if (taken && taken.id !== selfId) {
      errors.external_id = 'is already used by another employee of this company';
    }
  }
  if (input.national_id && !isNationalId(normalizeIdentity(input.national_id))) {
    errors.national_id = 'is not a valid DNI or NIE (check its control letter)';
  }
  const nafProblem = input.social_security_number
    ? socialSecurityProblem(normalizeIdentity(input.social_security_number), 'naf')
    : null;
  if (nafProblem) errors.social_security_number = nafProblem;
  if (input.timezone && !errors.timezone) {
    try {
      requireTimeZone(input.timezone);
    } catch {
      errors.timezone = 'is not a known IANA time zone';
    }
  }
  return errors;
}

/** A unique index that caught a race the pre-check could not see, as the same 422 the pre-check gives. */
function uniquenessError(error: unknown): ApiError | null {
  const constraint = violatedConstraint(error);
  if (constraint === 'employees_company_email') {
    return invalid({ email: 'is already used by another employee of this company' });
  }
  if (constraint === 'employees_company_external_id') {
    return invalid({ external_id: 'is already used by another employee of this company' });
  }
  return null;
}

export async function createEmployee(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: ActingTenant,
  input: Static<typeof CreateEmployeeBody>,
): Promise<EmployeeView> {
  const id = newId();
  return await writeDays(
    deps,
    tenant,
    [id],
    async (tx, now) => {
      const errors = await checkReferencesAndUniqueness(tx, tenant.companyId, input, null);
      const schedule = input.work_schedule ? scheduleArray(input.work_schedule) : DEFAULT_WORK_SCHEDULE;
      const terms = changedTerms(FULL_TIME, termInput(input), schedule);
      if ('errors' in terms) Object.assign(errors, terms.errors);
      if (Object.keys(errors).length > 0 || 'errors' in terms) throw invalid(errors);
      if (!(await takeSeat(tx, tenant))) {
        throw new ApiError(
          'billing_required',
          'Every seat of the plan is taken by an active employee. Terminate an employee or add seats.',
        );
      }
      // A hire date in or before a closed month would add expected minutes to its days (docs/registry.md).
      const hireDate = input.hire_date ?? localDate(now, tenant.timezone).toString();
      await assertMonthsOpen(tx, tenant.companyId, { from: hireDate, to: LAST_DATE }, 'this hire date');
      const at = toDate(now);
      const row: EmployeeColumns = {
        id,
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        external_id: input.external_id ?? null,
        status: 'active',
        hire_date: hireDate,
        termination_date: null,
        location_id: input.location_id ?? null,
        unit_id: input.unit_id ?? null,
        timezone: input.timezone ? requireTimeZone(input.timezone) : null,
        work_schedule: schedule,
        vacation_days_per_year: String(input.vacation_days_per_year ?? DEFAULT_VACATION_DAYS_PER_YEAR),
        ...termColumns(terms.terms),
        tracking_start_date: input.tracking_start_date ?? null,
        opening_banked_minutes: input.opening_banked_minutes ?? 0,
        national_id: identityOf(input.national_id),
        social_security_number: identityOf(input.social_security_number),
        created_at: at,
        updated_at: at,
      };
      try {
        await insertEmployee(tx, tenant.companyId, row);
      } catch (error) {
        throw uniquenessError(error) ?? error;
      }
      // The first contract period, from the hire date (it also covers any earlier date: docs/registry.md).
      await upsertContractPeriod(tx, {
        company_id: tenant.companyId,
        employee_id: row.id,
        effective_from: row.hire_date,
        work_schedule: row.work_schedule,
        vacation_days_per_year: row.vacation_days_per_year,
        ...termColumns(terms.terms),
        recorded_at: at,
        recorded_by_type: tenant.actor.type,
        recorded_by_id: tenant.actor.id,
      });
      const stored = await findEmployee(tx, tenant.companyId, row.id);
      if (!stored) throw notFound('Employee');
      await chainEmployee(tx, tenant.companyId, row.id, at);
      return {
        result: toView(stored),
        touched: [{ employeeId: row.id, from: row.hire_date, to: 'horizon' }],
        events: [{ type: 'employee.created', data: { employee_id: row.id } }],
      };
    },
    { what: 'this hire date' },
  );
}

/** The part-time terms a body gives (those it leaves out are undefined). */
const termInput = (input: Writable): Partial<ContractTerms> => ({
  contract_type: input.contract_type,
  weekly_minutes: input.weekly_minutes,
  part_time_percentage: input.part_time_percentage,
  complementary_limit_percentage: input.complementary_limit_percentage,
  overtime_compensation: input.overtime_compensation,
});

/** Terms as the employee and contract columns store them (the percentage as numeric text). */
const termColumns = (terms: ContractTerms) => ({
  ...terms,
  part_time_percentage: terms.part_time_percentage === null ? null : String(terms.part_time_percentage),
});

/** An identity number as stored (normalized), or null. */
function identityOf(text: string | null | undefined): string | null {
  return text === undefined || text === null ? null : normalizeIdentity(text);
}

/** The end of every date range that runs to the horizon. */
const LAST_DATE = '9999-12-31';
/** A date before every closed month: every closed month seals it. */
const FIRST_DATE = '0001-01-01';

/**
 * Refuses employment dates that would leave a recorded check-in outside the employment (409): the registry keeps
 * every check-in, so the check-in is voided by a correction first (docs/registry.md).
 */
async function assertCheckInsWithin(
  tx: Tx,
  tenant: TenantScope,
  employee: Pick<EmployeeRow, 'id' | 'hire_date' | 'termination_date' | 'timezone'>,
): Promise<void> {
  const timeZone = employeeTimeZone(employee, tenant.timezone);
  const startOf = (date: string) => new Date(startOfDate(date, timeZone).epochMilliseconds);
  const end =
    employee.termination_date === null
      ? null
      : startOf(Temporal.PlainDate.from(employee.termination_date).add({ days: 1 }).toString());
  const outside = await activeCheckInOutside(
    tx,
    tenant.companyId,
    employee.id,
    startOf(employee.hire_date),
    end,
  );
  if (outside) {
    throw new ApiError(
      'conflict',
      `A check-in at ${outside.timestamp.toISOString()} would fall outside the employment: void it with a correction first.`,
      { errors: { check_in_id: outside.id } },
    );
  }
}

const sameSchedule = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((m, i) => m === b[i]);

type PeriodValues = { work_schedule: number[]; vacation_days_per_year: string; terms: ContractTerms };

type ContractChange = {
  /** The period to record (a period starting the same day is replaced). */
  period: PeriodValues & { effective_from: string };
  /** The last day it holds: the day before the next period, or null when it is the last. */
  until: string | null;
  /** The latest period's values after the change: what the employee shows. */
  latest: PeriodValues;
};

/**
 * What a PATCH changes in the effective-dated contract (docs/registry.md): `work_schedule` and
 * `vacation_days_per_year` apply from `effective_from` (default: today in the employee's time zone), and the
 * days before keep their values; a later period stays as it is. Null when the contract does not change. Adds
 * field errors to `errors`.
 */
async function plannedContractChange(
  tx: Tx,
  tenant: TenantScope,
  current: EmployeeRow,
  input: Static<typeof UpdateEmployeeBody>,
  hireDate: string,
  now: Temporal.Instant,
  errors: Record<string, string>,
): Promise<ContractChange | null> {
  const termsGiven = CONTRACT_TERM_COLUMNS.some((field) => input[field] !== undefined);
  if (input.work_schedule === undefined && input.vacation_days_per_year === undefined && !termsGiven) {
    if (input.effective_from !== undefined && input.timezone === undefined) {
      errors.effective_from =
        'applies only with work_schedule, vacation_days_per_year, the part-time terms or timezone';
    }
    return null;
  }
  const zone = employeeTimeZone({ timezone: input.timezone ?? current.timezone }, tenant.timezone);
  const from = input.effective_from ?? localDate(now, zone).toString();
  if (from < hireDate) {
    errors.effective_from = `must not be before the hire date (${hireDate})`;
    return null;
  }
  const contract = await contractOf(tx, tenant.companyId, current.id);
  const base = periodOn(contract, from);
  const schedule = input.work_schedule ? scheduleArray(input.work_schedule) : [...base.work_schedule];
  const terms = changedTerms(base, termInput(input), schedule);
  if ('errors' in terms) {
    Object.assign(errors, terms.errors);
    return null;
  }
  const period = {
    effective_from: from,
    work_schedule: schedule,
    vacation_days_per_year: String(input.vacation_days_per_year ?? base.vacation_days_per_year),
    terms: terms.terms,
  };
  if (
    sameSchedule(period.work_schedule, base.work_schedule) &&
    Number(period.vacation_days_per_year) === base.vacation_days_per_year &&
    sameTerms(period.terms, base)
  ) {
    return null;
  }
  const following = contract.find((item) => item.effective_from > from);
  const last = contract.at(-1);
  const latest: PeriodValues =
    following && last
      ? {
          work_schedule: [...last.work_schedule],
          vacation_days_per_year: String(last.vacation_days_per_year),
          terms: termsOf(last),
        }
      : period;
  const until = following
    ? Temporal.PlainDate.from(following.effective_from).subtract({ days: 1 }).toString()
    : null;
  return { period, until, latest };
}

/** The first date after the tenant's latest closed month, or the hire date when that is later. */
async function openPeriodStart(tx: Tx, companyId: string, hireDate: string): Promise<string> {
  const closed = await latestClosedMonth(tx, companyId);
  const afterClosed = closed ? Temporal.PlainDate.from(closed).add({ months: 1 }).toString() : hireDate;
  return afterClosed > hireDate ? afterClosed : hireDate;
}

export async function updateEmployee(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: ActingTenant,
  id: string,
  input: Static<typeof UpdateEmployeeBody>,
): Promise<EmployeeView> {
  return await writeDays(
    deps,
    tenant,
    [id],
    async (tx, now) => {
      const current = await findEmployee(tx, tenant.companyId, id);
      if (!current) throw notFound('Employee');
      const errors = await checkReferencesAndUniqueness(tx, tenant.companyId, input, id);
      if (input.termination_date !== undefined && current.status !== 'terminated') {
        errors.termination_date =
          'can only be corrected on a terminated employee; use the terminate operation';
      }
      const hireDate = input.hire_date ?? current.hire_date;
      const terminationDate = input.termination_date ?? current.termination_date;
      if (terminationDate !== null && terminationDate < hireDate) {
        errors[input.termination_date !== undefined ? 'termination_date' : 'hire_date'] =
          'must not put the termination date before the hire date';
      }
      const change = await plannedContractChange(tx, tenant, current, input, hireDate, now, errors);
      if (Object.keys(errors).length > 0) throw invalid(errors);

      const next: EmployeeRow = {
        ...current,
        first_name: input.first_name ?? current.first_name,
        last_name: input.last_name ?? current.last_name,
        email: input.email ?? current.email,
        external_id: input.external_id !== undefined ? input.external_id : current.external_id,
        hire_date: hireDate,
        termination_date: terminationDate,
        location_id: input.location_id !== undefined ? input.location_id : current.location_id,
        unit_id: input.unit_id !== undefined ? input.unit_id : current.unit_id,
        timezone:
          input.timezone !== undefined
            ? input.timezone === null
              ? null
              : requireTimeZone(input.timezone)
            : current.timezone,
        // The employee shows the latest contract period's values.
        work_schedule: change ? change.latest.work_schedule : current.work_schedule,
        vacation_days_per_year: change
          ? change.latest.vacation_days_per_year
          : current.vacation_days_per_year,
        ...(change ? termColumns(change.latest.terms) : {}),
        tracking_start_date:
          input.tracking_start_date !== undefined ? input.tracking_start_date : current.tracking_start_date,
        opening_banked_minutes: input.opening_banked_minutes ?? current.opening_banked_minutes,
        national_id: input.national_id !== undefined ? identityOf(input.national_id) : current.national_id,
        social_security_number:
          input.social_security_number !== undefined
            ? identityOf(input.social_security_number)
            : current.social_security_number,
      };
      // A PATCH that changes nothing is a no-op: no new updated_at, no event. Comparing the public views treats
      // '22' and '22.0' (numeric) and equal schedules as equal.
      if (!change && isDeepStrictEqual(toView(next), toView(current))) {
        return { result: toView(current), touched: [], events: [] };
      }

      next.updated_at = toDate(now);
      // Every range of dates whose figures the change can move, recomputed (and checked against the closed months)
      // by the owner of day writes.
      const touched: DaysTouched[] = [];
      const employmentChanged =
        next.hire_date !== current.hire_date || next.termination_date !== current.termination_date;
      const calendarChanged = employmentChanged;
      // A zone is effective-dated (docs/time-rules.md): it applies from `effective_from` (default today) on.
      const zoneFrom =
        next.timezone !== current.timezone
          ? await recordZoneChange(tx, tenant, current, next.timezone, input.effective_from, now)
          : undefined;
      const moved = !calendarChanged && next.location_id !== current.location_id;
      // Where a move's new calendar starts: after the latest closed month.
      const movedFrom = moved ? await openPeriodStart(tx, tenant.companyId, next.hire_date) : undefined;
      // A contract change, a move to another centre or new employment dates change the working days of the open
      // period: the employee's absences over those dates are recounted once the change is made (absence-days.ts).
      const recountFrom = [
        change?.period.effective_from,
        movedFrom,
        // Days outside the employment count none (time/contract.ts, employedMinutes).
        employmentChanged ? [current.hire_date, next.hire_date].sort()[0] : undefined,
      ]
        .filter((date) => date !== undefined)
        .sort()[0];
      const recount =
        recountFrom === undefined
          ? null
          : await recountAbsenceDays(tx, tenant.companyId, {
              from: recountFrom,
              to: LAST_DATE,
              employeeId: id,
            });
      const { id: _id, created_at: _created, company_tracking_start_date: _start, ...changes } = next;
      try {
        await updateEmployeeRow(tx, tenant.companyId, id, changes);
      } catch (error) {
        throw uniquenessError(error) ?? error;
      }
      if (change) {
        // The days of the changed period, from its start until the next period (or for good).
        const range = { from: change.period.effective_from, to: change.until ?? LAST_DATE };
        await assertMonthsOpen(tx, tenant.companyId, range, 'this contract change');
        const { terms, ...values } = change.period;
        await upsertContractPeriod(tx, {
          company_id: tenant.companyId,
          employee_id: id,
          ...values,
          ...termColumns(terms),
          recorded_at: next.updated_at,
          recorded_by_type: tenant.actor.type,
          recorded_by_id: tenant.actor.id,
        });
        touched.push({ employeeId: id, from: range.from, to: change.until ?? 'horizon' });
      }
      // Employment dates and the time zone change the calendar of every date: the whole history is recomputed.
      const tracking = [effectiveTrackingStart(current), effectiveTrackingStart(next)].sort() as [
        string,
        string,
      ];
      if (next.opening_banked_minutes !== current.opening_banked_minutes) {
        // The opening balance is part of every month's banked balance as GET /v1/work-summaries reports it (the
        // months before the tracking start included), so any closed month refuses it (issue 34's property test).
        await assertMonthsOpen(
          tx,
          tenant.companyId,
          { from: FIRST_DATE, to: LAST_DATE },
          'this opening balance',
        );
      }
      if (!calendarChanged && tracking[0] !== tracking[1]) {
        // A new tracking start alone changes the days between the old and the new one.
        const last = Temporal.PlainDate.from(tracking[1]).subtract({ days: 1 }).toString();
        await assertMonthsOpen(tx, tenant.companyId, { from: tracking[0], to: last }, 'this tracking start');
        touched.push({ employeeId: id, from: tracking[0], to: last });
      }
      if (movedFrom !== undefined) {
        // Another work centre, another calendar of local holidays: the open period (after the latest closed
        // month) takes the new centre's; a closed month keeps the figures it was closed with.
        const centres = [current.location_id, next.location_id];
        if (await hasLocalHolidays(tx, tenant.companyId, centres, movedFrom)) {
          touched.push({ employeeId: id, from: movedFrom, to: 'horizon' });
        }
      }
      if (zoneFrom !== undefined) {
        await assertCheckInsWithin(tx, tenant, next);
        // The day before too: a shift that starts on it and runs into the new zone's first day.
        const dayBefore = Temporal.PlainDate.from(zoneFrom).subtract({ days: 1 }).toString();
        touched.push({
          employeeId: id,
          from: dayBefore < next.hire_date ? zoneFrom : dayBefore,
          to: 'horizon',
        });
      }
      if (calendarChanged) {
        const from = next.hire_date < current.hire_date ? next.hire_date : current.hire_date;
        await assertCheckInsWithin(tx, tenant, next);
        await assertMonthsOpen(tx, tenant.companyId, { from, to: LAST_DATE }, 'this change to the employee');
        touched.push({ employeeId: id, from, to: 'horizon' });
      }
      await recount?.(next.updated_at);
      await chainEmployee(tx, tenant.companyId, id, next.updated_at);
      return {
        result: toView(next),
        touched,
        events: [{ type: 'employee.updated', data: { employee_id: id } }],
      };
    },
    { what: 'this change to the employee' },
  );
}

export async function terminateEmployee(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: TenantScope,
  id: string,
  input: Static<typeof TerminateEmployeeBody>,
): Promise<EmployeeView> {
  return await writeDays(
    deps,
    tenant,
    [id],
    async (tx, now) => {
      const current = await findEmployee(tx, tenant.companyId, id);
      if (!current) throw notFound('Employee');
      if (current.status === 'terminated') {
        throw new ApiError('conflict', `The employee was already terminated on ${current.termination_date}.`);
      }
      const terminationDate = input.termination_date ?? localDate(now, tenant.timezone).toString();
      if (terminationDate < current.hire_date) {
        throw invalid({ termination_date: `must be on or after the hire date (${current.hire_date})` });
      }
      await assertCheckInsWithin(tx, tenant, { ...current, termination_date: terminationDate });
      const range = { from: terminationDate, to: LAST_DATE };
      await assertMonthsOpen(tx, tenant.companyId, range, 'a termination on that date');
      const at = toDate(now);
      // An absence's days after the termination date count none: its vacation days were not taken (absence-days.ts).
      const recount = await recountAbsenceDays(tx, tenant.companyId, {
        from: Temporal.PlainDate.from(terminationDate).add({ days: 1 }).toString(),
        to: LAST_DATE,
        employeeId: id,
      });
      const next: EmployeeRow = {
        ...current,
        status: 'terminated',
        termination_date: terminationDate,
        updated_at: at,
      };
      await updateEmployeeRow(tx, tenant.companyId, id, {
        status: 'terminated',
        termination_date: terminationDate,
        updated_at: at,
      });
      await freeSeat(tx, tenant.companyId);
      await chainEmployee(tx, tenant.companyId, id, at);
      // The termination's event before the absences' it recounts, as clients have always received them.
      await recordEvents(tx, tenant.companyId, at, [
        { type: 'employee.terminated', data: { employee_id: id } },
      ]);
      await recount(at);
      return {
        result: toView(next),
        touched: [{ employeeId: id, from: terminationDate, to: 'horizon' }],
        events: [],
      };
    },
    { what: 'a termination on that date' },
  );
}

/**
 * Records an employee's new zone from a date on (default: today in their current zone): never in or before a
 * closed month (409), never after today (422). The first change records the zone they had until then too. Both
 * are entries of the employee's chain. Returns the first date of the new zone.
 */
async function recordZoneChange(
  tx: Tx,
  tenant: ActingTenant,
  current: EmployeeRow,
  zone: string | null,
  requested: string | undefined,
  now: Temporal.Instant,
): Promise<string> {
  const today = localDate(now, employeeTimeZone(current, tenant.timezone)).toString();
  const from = requested ?? today;
  if (from > today) throw invalid({ effective_from: 'a time zone applies from a date up to today' });
  await assertMonthsOpen(tx, tenant.companyId, { from, to: LAST_DATE }, 'this change of time zone');
  const at = toDate(now);
  const period = (effective: string, timezone: string | null) => ({
    company_id: tenant.companyId,
    employee_id: current.id,
    effective_from: effective,
    timezone,
    recorded_at: at,
    recorded_by_type: tenant.actor.type,
    recorded_by_id: tenant.actor.id,
  });
  if (!(await hasZonePeriods(tx, tenant.companyId, current.id)) && from !== FIRST_DATE) {
    await insertZonePeriod(tx, period(FIRST_DATE, current.timezone));
  }
  if (!(await insertZonePeriod(tx, period(from, zone)))) {
    throw new ApiError('conflict', `A change of time zone already starts on ${from}.`, {
      errors: { effective_from: from },
    });
  }
  await appendToChain(tx, tenant.companyId, current.id, {
    kind: 'timezone_period',
    subjectId: null,
    content: { employee_id: current.id, effective_from: from, timezone: zone },
    recordedAt: at,
  });
  return from;
}

export type ContractPeriodView = Static<typeof ContractPeriod>;

/** An employee's contract periods, oldest first: one page, as every listing answers. */
export async function contractHistory(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<Page<ContractPeriodView>> {
  const { db } = deps;
  if (!(await findEmployee(db, tenant.companyId, id))) throw notFound('Employee');
  const rows = await contractHistoryRows(db, tenant.companyId, id);
  const data = rows.map((row, index): ContractPeriodView => {
    const following = rows[index + 1];
    return {
      effective_from: row.effective_from,
      effective_to: following
        ? Temporal.PlainDate.from(following.effective_from).subtract({ days: 1 }).toString()
        : null,
      work_schedule: scheduleView(row.work_schedule),
      vacation_days_per_year: Number(row.vacation_days_per_year),
      ...termsView(termsOf(row), row.work_schedule),
      recorded_at: row.recorded_at.toISOString(),
      recorded_by: { type: row.recorded_by_type, id: row.recorded_by_id },
    };
  });
  return { data, meta: { next_cursor: null, has_more: false } };
}

/**
 * The employee a spreadsheet names (an import, issue 39): by e-mail (case aside) or by external id; with the name
 * it prints. Undefined when the company has no such employee.
 */
export async function employeeNamed(
  db: Executor,
  companyId: string,
  key: string,
): Promise<{ id: string; name: string } | undefined> {
  const found =
    (await findEmployeeIdBy(db, companyId, 'email_key', key.trim().toLowerCase())) ??
    (await findEmployeeIdBy(db, companyId, 'external_id', key.trim()));
  if (!found) return undefined;
  const row = await findEmployee(db, companyId, found.id);
  return row ? { id: row.id, name: `${row.first_name} ${row.last_name}` } : undefined;
}
