import type { Executor } from '../../db/database.ts';
import { type EmployeeRecordTable, employeeInReach, recordEmployee, unitsAndBelow } from '../../db/reach.ts';
import { ApiError, notFound } from '../../platform/errors.ts';
import { declaredOperations } from '../../platform/operation.ts';
import type { Reach } from '../../platform/tenant.ts';

/**
 * What an administrator may do in the dashboard (issue 39, docs/security.md "Roles"):
 * - `owner`: everything;
 * - `admin`: everything but managing the administrators and switching the API addon;
 * - `team_lead`: the employees of their units (and of the units below them): their people, days, absences,
 *   corrections, shifts and balances, approving and rejecting their requests; nothing company-wide;
 * - `payroll`: read-only: employees, days, work summaries, balances, absences, shifts, closed months, reports
 *   (requesting one reads, it changes nothing).
 * The server decides on every /dashboard/api route from this one table, and the session tells the dashboard
 * which operations it may offer (`can`), so the screens hide what the role may not do.
 */
export const ROLES = ['owner', 'admin', 'team_lead', 'payroll'] as const;
export type Role = (typeof ROLES)[number];

/** Every role's own things: the session, the language, the passkeys, the inbox, the settings screen's reading. */
const OWN = new Set([
  'dashboardLogin',
  'dashboardSession',
  'dashboardUpdateMe',
  'dashboardLogout',
  'dashboardListPasskeys',
  'dashboardRegisterPasskey',
  'dashboardRemovePasskey',
  'dashboardPasskeyLogin',
  'dashboardPasskeyLoginOptions',
  'dashboardPasskeyRegistrationOptions',
  'dashboardNotifications',
  'dashboardReadNotifications',
  'dashboardNotificationPreferences',
  'dashboardUpdateNotificationPreferences',
  'dashboardSettings',
  'dashboardListAdmins',
  // The company's calendar and structure, which every screen reads to draw a date or a name.
  'getOrganization',
  'listLocations',
  'getLocation',
  'listUnits',
  'getUnit',
  'listHolidays',
  'dashboardHolidays',
  'listAbsenceTypes',
]);

/** Only the owner manages administrators (and, in the settings, the addon: see `mayChangeAddon`). */
const OWNER_ONLY = new Set(['dashboardCreateAdmin', 'dashboardDisableAdmin', 'dashboardUpdateAdmin']);

/** Reading the people's records: what a team lead (for their people) and payroll (for everyone) both do. */
const PEOPLE_READS = [
  'dashboardToday',
  'listEmployees',
  'dashboardSearchEmployees',
  'getEmployee',
  'getEmployeeContractHistory',
  'listCheckIns',
  'getCheckIn',
  'listCheckInCorrections',
  'getCheckInCorrection',
  'listWorkSummaries',
  'listAbsences',
  'getAbsence',
  'listShifts',
  'getShift',
  'listShiftTemplates',
  'listRotaPatterns',
  'listVacationBalances',
  'listComplianceAlerts',
];

/** A team lead's operations: their people's records, and deciding their requests. */
const TEAM_LEAD = new Set([
  ...PEOPLE_READS,
  'approveAbsence',
  'rejectAbsence',
  'approveCheckInCorrection',
  'rejectCheckInCorrection',
]);

/** Payroll's operations: reading, the company-wide figures, the registry, and the reports it takes home. */
const PAYROLL = new Set([
  ...PEOPLE_READS,
  'dashboardCharts',
  'listForceMajeureDays',
  'listClosedRegistryMonths',
  'listRegistryMonthAcknowledgements',
  'listRegistryAccessGrants',
  'getRegistryAccessGrant',
  'listRegistryAccesses',
  'createReport',
  'getReport',
  'dashboardListReports',
]);

/**
 * The operation's name without the data mode the dashboard's own tenant routes carry in it
 * (dashboardliveToday → dashboardToday), so that one table speaks of both modes.
 */
export const operationName = (operationId: string) =>
  operationId.replace(/(?<=[a-z])(live|test)(?=[A-Z])/, '');

/** Whether a role may call an operation (its operationId), in the live data or the test data. */
export function roleAllows(role: Role, operationId: string, mode: 'live' | 'test' | null): boolean {
  const name = operationName(operationId);
  if (role === 'owner') return true;
  if (OWN.has(name)) return true;
  if (role === 'admin') return !OWNER_ONLY.has(name);
  // The test data is the developers' (the sandbox): team leads and payroll work in the live data only.
  if (mode === 'test') return false;
  return role === 'team_lead' ? TEAM_LEAD.has(name) : PAYROLL.has(name);
}

/** The answer to a role that may not: 403 role_forbidden, naming the role. */
export function roleForbidden(role: Role): ApiError {
  return new ApiError('role_forbidden', `Your role (${role}) does not allow this.`, {
    errors: { role },
  });
}

/** Only an owner switches the API addon on or off (it revokes every key when it goes off). */
export function mayChangeAddon(role: Role): boolean {
  return role === 'owner';
}

/**
 * A team lead's reach: the units they lead and every unit below them, read at each request (a unit moved under
 * another moves its people with it). Null for the other roles: the whole company.
 */
export async function reachOf(
  db: Executor,
  companyId: string,
  admin: { role: Role; unit_ids: readonly string[] },
): Promise<Reach> {
  if (admin.role !== 'team_lead') return null;
  return { unitIds: await unitsAndBelow(db, companyId, admin.unit_ids) };
}

/**
 * The records an operation names by id and the employee each belongs to: a team lead's call on another unit's
 * record is answered 404, as another company's would be (platform/reach.ts).
 */
const OWNED_RECORDS: Record<string, { table: EmployeeRecordTable; resource: string }> = {
  getEmployee: { table: 'employees', resource: 'Employee' },
  getEmployeeContractHistory: { table: 'employees', resource: 'Employee' },
  getCheckIn: { table: 'check_ins', resource: 'Check-in' },
  getAbsence: { table: 'absences', resource: 'Absence' },
  approveAbsence: { table: 'absences', resource: 'Absence' },
  rejectAbsence: { table: 'absences', resource: 'Absence' },
  getCheckInCorrection: { table: 'check_in_corrections', resource: 'Check-in correction' },
  approveCheckInCorrection: { table: 'check_in_corrections', resource: 'Check-in correction' },
  rejectCheckInCorrection: { table: 'check_in_corrections', resource: 'Check-in correction' },
  getShift: { table: 'shifts', resource: 'Shift' },
};

/** Refuses (404) a record named by id whose employee is beyond the caller's reach. */
export async function checkRecordReach(
  db: Executor,
  tenant: { companyId: string; reach?: Reach | undefined },
  operationId: string,
  id: string | undefined,
): Promise<void> {
  const owned = OWNED_RECORDS[operationName(operationId)];
  if (!tenant.reach || !owned || id === undefined) return;
  const employeeId = await recordEmployee(db, tenant.companyId, owned.table, id);
  if (employeeId === undefined) return; // The operation answers its own 404.
  if (!(await employeeInReach(db, tenant, employeeId))) throw notFound(owned.resource);
}

const allowedByRole = new Map<Role, string[]>();

/**
 * The dashboard's operations a role may call (their names without the data mode), from the route table: what the
 * session tells the dashboard, so that it offers no button the server would refuse.
 */
export function allowedOperations(role: Role): string[] {
  let names = allowedByRole.get(role);
  if (!names) {
    const set = new Set<string>();
    for (const operation of declaredOperations.values()) {
      if (!operation.url.startsWith('/dashboard/api') || operation.url.startsWith('/dashboard/api/test/'))
        continue;
      if (roleAllows(role, operation.operationId, 'live')) set.add(operationName(operation.operationId));
    }
    names = [...set].sort();
    allowedByRole.set(role, names);
  }
  return names;
}
