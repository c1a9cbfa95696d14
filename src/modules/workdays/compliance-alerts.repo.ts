import { type Insertable, sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { withinReach } from '../../db/reach.ts';
import type { ComplianceAlertsTable } from '../../db/schema.ts';
import { complementaryOf, countedOvertimeOf, settledOf } from '../../db/workday-figures.ts';
import type { ReachScope } from '../../platform/tenant.ts';

export const ALERT_COLUMNS = [
  'id',
  'employee_id',
  'date',
  'rule',
  'minutes',
  'limit_minutes',
  'law',
  'status',
  'acknowledged_at',
  'created_at',
  'updated_at',
] as const;

/** A tenant's legal-limit alerts, explicit columns; listings filter and page it. */
export const selectAlerts = (db: Executor, companyId: string) =>
  db.selectFrom('compliance_alerts').select(ALERT_COLUMNS).where('company_id', '=', companyId);

/** An employee's alerts dated within the range (inclusive). */
export async function alertsOfEmployee(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: { from: string; to: string },
) {
  return await selectAlerts(db, companyId)
    .where('employee_id', '=', employeeId)
    .where('date', '>=', range.from)
    .where('date', '<=', range.to)
    .execute();
}

export async function insertAlerts(db: Executor, rows: Array<Insertable<ComplianceAlertsTable>>) {
  if (rows.length === 0) return;
  await db.insertInto('compliance_alerts').values(rows).execute();
}

export async function deleteAlerts(db: Executor, companyId: string, ids: readonly string[]) {
  if (ids.length === 0) return;
  await db
    .deleteFrom('compliance_alerts')
    .where('company_id', '=', companyId)
    .where('id', 'in', [...ids])
    .execute();
}

/** Marks an open alert acknowledged; the row, or undefined when there is no such open alert. */
export async function acknowledgeAlert(db: Executor, companyId: string, id: string, at: Date) {
  return await db
    .updateTable('compliance_alerts')
    .set({ status: 'acknowledged', acknowledged_at: at, updated_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returning(ALERT_COLUMNS)
    .executeTakeFirst();
}

/** The company's open alerts dated on or after a date, with the employee's name, newest first. */
export async function openAlertsSince(db: Executor, scope: ReachScope, from: string, limit: number) {
  const companyId = scope.companyId;
  const query = db
    .selectFrom('compliance_alerts as a')
    .innerJoin('employees as e', (join) =>
      join.onRef('e.company_id', '=', 'a.company_id').onRef('e.id', '=', 'a.employee_id'),
    )
    .select([
      'a.id',
      'a.employee_id',
      'a.date',
      'a.rule',
      'a.minutes',
      'a.limit_minutes',
      'a.law',
      'e.first_name',
      'e.last_name',
    ])
    .where('a.company_id', '=', companyId)
    .where('a.status', '=', 'open')
    .where('a.date', '>=', from)
    .orderBy('a.date', 'desc')
    .orderBy('a.id')
    .limit(limit);
  return await withinReach(query, scope, 'a.employee_id').execute();
}

/**
 * An employee's stored part-time days of a range, as the complementary limit reads them (time/compliance.ts): the
 * complementary minutes of a settled day, and the day's contracted minutes (its expected ones before absences).
 */
export async function partTimeDays(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: { from: string; to: string },
): Promise<Array<{ date: string; complementary: number; contracted: number }>> {
  return (
    await sql<{ date: string; complementary: number; contracted: number }>`
      select w.date, case when ${settledOf(sql`w`)} then ${complementaryOf(sql`w`)} else 0 end as complementary,
             w.expected_minutes + w.absences_minutes as contracted
      from workdays w
      where w.company_id = ${companyId}::uuid and w.employee_id = ${employeeId}::uuid
        and w.date >= ${range.from}::date and w.date <= ${range.to}::date and w.part_time
      order by w.date`.execute(db)
  ).rows;
}

/**
 * An employee's settled days of a range with the overtime the yearly cap counts (paid: time-off overtime is
 * compensated with rest, ET 35.2), those with none left out, in date order.
 */
export async function countedOvertimeDays(
  db: Executor,
  companyId: string,
  employeeId: string,
  range: { from: string; to: string },
): Promise<Array<{ date: string; counted: number }>> {
  const counted = countedOvertimeOf(sql`w`);
  return (
    await sql<{ date: string; counted: number }>`
      select w.date, ${counted} as counted from workdays w
      where w.company_id = ${companyId}::uuid and w.employee_id = ${employeeId}::uuid
        and w.date >= ${range.from}::date and w.date <= ${range.to}::date
        and ${settledOf(sql`w`)} and ${counted} > 0
      order by w.date`.execute(db)
  ).rows;
}
