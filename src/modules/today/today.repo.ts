import { sql } from 'kysely';
import { absencesWithType } from '../../db/absences.ts';
import type { Executor } from '../../db/database.ts';
import { selectEmployedDuring } from '../../db/employees.ts';
import { missedClockOutSql } from '../../db/open-shifts.ts';
import { reachCondition, withinReach } from '../../db/reach.ts';
import type { CheckInType } from '../../db/schema.ts';
import type { ReachScope } from '../../platform/tenant.ts';

/**
 * Reads for the dashboard's home page (today.service.ts). Each is one statement over the tenant, by the indexes
 * that lead with company_id.
 */

/** Each employee's latest active check-in in (since, until]: where their day stands now. */
export async function latestCheckIns(
  db: Executor,
  companyId: string,
  since: Date,
  until: Date,
): Promise<Array<{ employee_id: string; type: CheckInType; timestamp: Date }>> {
  return await db
    .selectFrom('check_ins')
    .select(['employee_id', 'type', 'timestamp'])
    .distinctOn('employee_id')
    .where('company_id', '=', companyId)
    .where('status', '=', 'active')
    .where('timestamp', '>', since)
    .where('timestamp', '<=', until)
    .orderBy('employee_id')
    .orderBy('timestamp', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The employees employed on a date (the shared employment rule of db/employees.ts), by name. */
export async function employeesOn(db: Executor, scope: ReachScope, date: string) {
  return await withinReach(selectEmployedDuring(db, scope.companyId, date, date), scope, 'employees.id')
    .select(['first_name', 'last_name', 'timezone'])
    .orderBy('last_name')
    .orderBy('first_name')
    .orderBy('id')
    .execute();
}

/** The approved absences covering a date, with their type's label. */
export async function absencesOn(db: Executor, companyId: string, date: string) {
  return await absencesWithType(db, companyId)
    .select(['absences.employee_id', 'absence_types.label'])
    .where('absences.status', '=', 'approved')
    .where('absences.start_date', '<=', date)
    .where('absences.end_date', '>=', date)
    .execute();
}

/** What waits for the company: absence requests, and corrections without the company's approval. */
export async function pendingCounts(db: Executor, scope: ReachScope) {
  const companyId = scope.companyId;
  const absences = await withinReach(
    db
      .selectFrom('absences')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('company_id', '=', companyId)
      .where('status', '=', 'requested'),
    scope,
    'absences.employee_id',
  ).executeTakeFirstOrThrow();
  const corrections = await withinReach(
    db
      .selectFrom('check_in_corrections')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('company_id', '=', companyId)
      .where('status', '=', 'pending')
      .where('company_approval_at', 'is', null),
    scope,
    'check_in_corrections.employee_id',
  ).executeTakeFirstOrThrow();
  return { absences: Number(absences.count), corrections: Number(corrections.count) };
}

/**
 * The problem days from `from` to `to`: consolidated days with an incomplete shift (stored, or a shift without its
 * out for more than 24 hours at `toInstant`, the work summaries' rule) or an ignored event, and days
 * with check-ins recorded late (the late flag set when they were stored), one row per employee and date, latest
 * first, at most `limit`.
 */
export async function problemDays(
  db: Executor,
  scope: ReachScope,
  range: { from: string; to: string; fromInstant: Date; toInstant: Date; timezone: string },
  limit: number,
) {
  const companyId = scope.companyId;
  const rows = await sql<{
    employee_id: string;
    date: string;
    incomplete_shifts: number;
    anomalies: number;
    late_records: number;
  }>`
    with flagged as (
      -- A probable missed clock-out is incomplete, as the work summaries read it.
      select employee_id, date::text as date,
        greatest(incomplete_shifts,
          case when ${missedClockOutSql(null, range.toInstant)} then 1 else 0 end) as incomplete_shifts,
        anomalies, 0 as late_records
      from workdays
      where company_id = ${companyId} and date between ${range.from} and ${range.to}
        and (incomplete_shifts > 0 or anomalies > 0
          or ${missedClockOutSql(null, range.toInstant)})
      union all
      select c.employee_id, (c.timestamp at time zone coalesce(e.timezone, ${range.timezone}))::date::text,
        0, 0, 1
      from check_ins c
      join employees e on e.company_id = c.company_id and e.id = c.employee_id
      -- A check-in a correction added is late by nature and was reviewed: it does not keep its day a problem.
      where c.company_id = ${companyId} and c.late and c.status = 'active' and c.correction_id is null
        and c.timestamp >= ${range.fromInstant} and c.timestamp < ${range.toInstant}
    )
    select employee_id, date, max(incomplete_shifts)::int as incomplete_shifts, max(anomalies)::int as anomalies,
      sum(late_records)::int as late_records
    from flagged
    where ${reachCondition(scope, 'employee_id') ?? sql`true`}
    group by employee_id, date
    order by date desc, employee_id
    limit ${limit}
  `.execute(db);
  return rows.rows;
}

/** Worked and expected minutes per week (weeks from Monday) of the stored workdays from `from` to `to`. */
export async function weekTotals(db: Executor, companyId: string, from: string, to: string) {
  const rows = await sql<{ week_start: string; worked_minutes: number; expected_minutes: number }>`
    select date_trunc('week', date)::date::text as week_start,
      sum(worked_minutes)::int as worked_minutes, sum(expected_minutes)::int as expected_minutes
    from workdays
    where company_id = ${companyId} and date between ${from} and ${to}
    group by 1
    order by 1
  `.execute(db);
  return rows.rows;
}

/** Approved absence days per type among the absences that start in a range. */
export async function absenceDaysByType(db: Executor, companyId: string, from: string, to: string) {
  return await absencesWithType(db, companyId)
    .select((eb) => [
      'absence_types.key',
      'absence_types.label',
      eb.fn.sum<string>('absences.days_count').as('days'),
    ])
    .where('absences.status', '=', 'approved')
    .where('absences.start_date', '>=', from)
    .where('absences.start_date', '<=', to)
    .groupBy(['absence_types.key', 'absence_types.label'])
    .orderBy('absence_types.label')
    .execute();
}

/** The published shifts dated on a date, by employee and start (issue 38). */
export async function publishedShiftsOn(db: Executor, companyId: string, date: string) {
  return await db
    .selectFrom('shifts')
    .select(['employee_id', 'date', 'start_time', 'end_time', 'kind', 'planned_minutes'])
    .where('company_id', '=', companyId)
    .where('date', '=', date)
    .where('status', '=', 'published')
    .orderBy('employee_id')
    .orderBy('start_time')
    .execute();
}
