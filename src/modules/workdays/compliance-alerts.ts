import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { contractOf } from '../../db/employees.ts';
import { withinReach } from '../../db/reach.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import { zonesOf } from '../../db/time-zones.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { companySyncList, type Page, type SyncQuery } from '../../platform/pagination.ts';
import type { CompanyScope, ReachScope } from '../../platform/tenant.ts';
import { addDays } from '../../time/calendar.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import {
  type ComplianceFinding,
  complementaryLimitFindings,
  complianceFindingsOfEvents,
  LIMITS,
  outsideScheduleFindings,
  overtimeCapFindings,
  remoteShiftsOfEvents,
} from '../../time/compliance.ts';
import { DEFAULT_COMPLEMENTARY_LIMIT_PERCENTAGE, periodOn } from '../../time/contract.ts';
import { shiftInstants } from '../../time/planned-shifts.ts';
import { localDate, startOfDate } from '../../time/zones.ts';
import type { PendingEvent } from '../events/events.service.ts';
import { nameOf, notify } from '../notifications/notifications.service.ts';
import {
  acknowledgeAlert,
  alertsOfEmployee,
  countedOvertimeDays,
  deleteAlerts,
  insertAlerts,
  openAlertsSince,
  partTimeDays,
  selectAlerts,
} from './compliance-alerts.repo.ts';
import type { ComplianceAlert } from './compliance-alerts.schemas.ts';
import { countedEvents } from './consolidation.ts';
import { lockEmployeeCalendar, publishedShiftTimes } from './workdays.repo.ts';

/**
 * Keeps an employee's legal-limit alerts (docs/time-rules.md, "Legal limits") true to their record after a write
 * of their days from `from` to `to`: the rules are evaluated again for the dates that write can change (the day
 * before, for the rest between workdays, and fifteen days after, for the weekly rest and the night average, up to
 * today), a new finding becomes an alert (and a `compliance_alert.created` event), and an alert whose finding is
 * gone (a correction settled it) is removed. Called by the owner of day writes (write-days.ts) in the write's
 * transaction, holding the employee's lock.
 */
export async function refreshComplianceAlerts(
  tx: Executor,
  tenant: { companyId: string; timezone: string },
  touched: { employeeId: string; from: string; to: string | 'horizon' },
  now: Temporal.Instant,
): Promise<PendingEvent[]> {
  const { companyId } = tenant;
  const { employeeId } = touched;
  const employee = await lockEmployeeCalendar(tx, companyId, employeeId, { lock: false });
  if (!employee) return [];
  const zones = await zonesOf(
    tx,
    companyId,
    { id: employeeId, timezone: employee.timezone },
    tenant.timezone,
  );
  const today = localDate(now, zones).toString();
  const last = touched.to === 'horizon' || touched.to > today ? today : touched.to;
  const range = { from: addDays(touched.from, -1), to: addDays(last, LIMITS.nightReferenceDays) };
  if (range.to > today) range.to = today;
  if (range.to < range.from) return [];
  const events = await countedEvents(tx, companyId, employeeId, employee.registry_policy, {
    from: toDate(startOfDate(addDays(range.from, -(LIMITS.nightReferenceDays + 1)), zones)),
    to: toDate(startOfDate(addDays(range.to, 2), zones)),
  });
  const planned = (await publishedShiftTimes(tx, companyId, employeeId, range, 'work')).map((shift) => ({
    date: shift.date,
    ...shiftInstants({ date: shift.date, start: shift.start_time, end: shift.end_time }, zones),
  }));
  const findings = [
    ...complianceFindingsOfEvents(events, zones, range),
    ...outsideScheduleFindings(remoteShiftsOfEvents(events), planned, zones, range),
  ];
  const existing = (await alertsOfEmployee(tx, companyId, employeeId, range)).filter(
    (alert) => !MONTH_RULES.has(alert.rule) && !YEAR_RULES.has(alert.rule),
  );
  const created = await reconcile(tx, companyId, employeeId, findings, existing, now);
  // The month rules read whole months: those from the write's first date through today.
  if (touched.from > today) return created;
  const months = { from: `${touched.from.slice(0, 7)}-01`, to: endOfMonth(last) };
  const contract = await contractOf(tx, companyId, employeeId);
  const days = (await partTimeDays(tx, companyId, employeeId, months)).map((day) => ({
    ...day,
    limitPercentage: periodOn(contract, day.date).complementary_limit_percentage,
  }));
  const monthly = (await alertsOfEmployee(tx, companyId, employeeId, months)).filter((alert) =>
    MONTH_RULES.has(alert.rule),
  );
  const overMonth = await reconcile(
    tx,
    companyId,
    employeeId,
    complementaryLimitFindings(days, DEFAULT_COMPLEMENTARY_LIMIT_PERCENTAGE),
    monthly,
    now,
  );
  // The yearly overtime cap reads whole years: those from the write's first date through today.
  const years = { from: `${touched.from.slice(0, 4)}-01-01`, to: `${last.slice(0, 4)}-12-31` };
  const yearly = (await alertsOfEmployee(tx, companyId, employeeId, years)).filter((alert) =>
    YEAR_RULES.has(alert.rule),
  );
  const counted = await countedOvertimeDays(tx, companyId, employeeId, years);
  const overYear = await reconcile(tx, companyId, employeeId, overtimeCapFindings(counted), yearly, now);
  return [...created, ...overMonth, ...overYear];
}

/** The rules judged over a calendar month, or year, not a day and its neighbours. */
const MONTH_RULES: ReadonlySet<string> = new Set(['complementary_limit']);
const YEAR_RULES: ReadonlySet<string> = new Set(['overtime_yearly_warning', 'overtime_yearly_cap']);

const endOfMonth = (date: string) =>
  Temporal.PlainDate.from(`${date.slice(0, 7)}-01`)
    .add({ months: 1 })
    .subtract({ days: 1 })
    .toString();

/**
 * Makes an employee's stored alerts (`existing`, those of the rules and dates the findings were looked for in)
 * equal to the findings: a new finding becomes an alert and an event, an alert whose finding is gone is removed.
 */
async function reconcile(
  tx: Executor,
  companyId: string,
  employeeId: string,
  findings: readonly ComplianceFinding[],
  existing: ReadonlyArray<{ id: string; date: string; rule: string }>,
  now: Temporal.Instant,
): Promise<PendingEvent[]> {
  const key = (alert: { date: string; rule: string }) => `${alert.date}|${alert.rule}`;
  const found = new Set(findings.map(key));
  const kept = new Set(existing.map(key));
  await deleteAlerts(
    tx,
    companyId,
    existing.filter((alert) => !found.has(key(alert))).map((alert) => alert.id),
  );
  const at = toDate(now);
  const rows = findings
    .filter((finding) => !kept.has(key(finding)))
    .map((finding) => ({
      company_id: companyId,
      id: newId(),
      employee_id: employeeId,
      date: finding.date,
      rule: finding.rule,
      minutes: finding.minutes,
      limit_minutes: finding.limit,
      law: finding.law,
      status: 'open' as const,
      acknowledged_at: null,
      created_at: at,
      updated_at: at,
    }));
  await insertAlerts(tx, rows);
  if (rows.length > 0) {
    // The company's administrators are told of each new alert (issue 39).
    const employeeName = await nameOf(tx, companyId, employeeId);
    await notify(
      tx,
      companyId,
      at,
      rows.map((row) => ({
        kind: 'compliance_alert' as const,
        to: { approversOf: employeeId },
        data: { alert_id: row.id, employee_name: employeeName, date: row.date, rule: row.rule, law: row.law },
        screen: 'home',
      })),
    );
  }
  return rows.map(
    (row): PendingEvent => ({
      type: 'compliance_alert.created',
      data: { alert_id: row.id, employee_id: employeeId, date: row.date, rule: row.rule },
    }),
  );
}

type AlertRow = Awaited<ReturnType<typeof alertsOfEmployee>>[number];

export type ComplianceAlertView = Static<typeof ComplianceAlert>;

const toAlertView = (row: AlertRow): ComplianceAlertView => ({
  id: row.id,
  employee_id: row.employee_id,
  date: row.date,
  rule: row.rule as ComplianceAlertView['rule'],
  detail: { minutes: row.minutes, limit_minutes: row.limit_minutes },
  status: row.status,
  law: row.law,
  acknowledged_at: row.acknowledged_at === null ? null : formatInstant(row.acknowledged_at),
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

/** `GET /v1/compliance-alerts`: the company's alerts by `updated_at`, filtered. */
export async function listComplianceAlerts(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: ReachScope,
  query: SyncQuery & {
    employee_id?: string | undefined;
    rule?: string | undefined;
    status?: 'open' | 'acknowledged' | undefined;
    from?: string | undefined;
    to?: string | undefined;
  },
): Promise<Page<ComplianceAlertView>> {
  let select = withinReach(selectAlerts(deps.db, tenant.companyId), tenant, 'compliance_alerts.employee_id');
  if (query.employee_id) select = select.where('employee_id', '=', query.employee_id);
  if (query.rule) select = select.where('rule', '=', query.rule);
  if (query.status) select = select.where('status', '=', query.status);
  if (query.from) select = select.where('date', '>=', query.from);
  if (query.to) select = select.where('date', '<=', query.to);
  const listing = `compliance-alerts|employee=${query.employee_id ?? ''}|rule=${query.rule ?? ''}|status=${query.status ?? ''}|from=${query.from ?? ''}|to=${query.to ?? ''}`;
  return await companySyncList(deps, tenant.companyId, select, { listing, query }, toAlertView);
}

/** An administrator has seen an open alert and dealt with it (the dashboard's Today view). */
export async function acknowledgeComplianceAlert(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  id: string,
): Promise<ComplianceAlertView> {
  const row = await withSyncStamp(deps.db, deps.clock, tenant.companyId, async (tx, stamp) =>
    acknowledgeAlert(tx, tenant.companyId, id, toDate(stamp)),
  );
  if (!row) throw notFound('Open alert');
  return toAlertView(row);
}

/**
 * The stored alerts of an employee's dates, as findings, of the rules the daily reading of records does not give
 * (the planned shift's, the month's and the year's): what the worker's document adds to its own findings.
 */
export async function periodFindingsOf(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: { from: string; to: string },
): Promise<ComplianceFinding[]> {
  return (await alertsOfEmployee(db, companyId, employeeId, range))
    .filter(
      (alert) =>
        alert.rule === 'outside_schedule' || MONTH_RULES.has(alert.rule) || YEAR_RULES.has(alert.rule),
    )
    .map((alert) => ({
      date: alert.date,
      rule: alert.rule as ComplianceFinding['rule'],
      minutes: alert.minutes,
      limit: alert.limit_minutes,
      law: alert.law,
    }));
}

/** The Today view's list: the open alerts of the last weeks, newest first, with the employee's name. */
export async function openComplianceAlerts(db: Executor, scope: ReachScope, from: string) {
  return (await openAlertsSince(db, scope, from, 50)).map((row) => ({
    id: row.id,
    employee_id: row.employee_id,
    name: `${row.first_name} ${row.last_name}`,
    date: row.date,
    rule: row.rule as ComplianceAlertView['rule'],
    detail: { minutes: row.minutes, limit_minutes: row.limit_minutes },
    law: row.law,
  }));
}
