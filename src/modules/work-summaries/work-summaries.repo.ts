import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { missedClockOutSql } from '../../db/open-shifts.ts';
import { bankedOf, complementaryOf, countedOvertimeOf, overtimeOf } from '../../db/workday-figures.ts';

/**
 * When a stored workday counts (docs/time-rules.md): incomplete when it has an incomplete shift or a probable
 * missed clock-out (open 16 hours, or 4 hours past its published end: issue 38); closed when neither, no shift is open, and the date
 * is before the employee's local today.
 * Decided at read time, so stored rows never go stale. `w` is workdays, `e` the employee.
 */
export function dayStatus(now: Date, zone: RawBuilder<unknown>) {
  const incomplete = sql<boolean>`(w.incomplete_shifts > 0 or ${missedClockOutSql('w', now)})`;
  const closed = sql<boolean>`(w.incomplete_shifts = 0 and w.open_since is null and w.date < (${now}::timestamptz at time zone ${zone})::date)`;
  return { incomplete, closed };
}

/** A period's figures as the readers compute them, before the banked balance. */
export type Figures = {
  employee_id: string;
  zone: string;
  /** Set when the query already computed the cumulative balance through the row's period. */
  banked_through?: number;
  /** What the row adds to the banked balance: its tracked closed days' worked − expected. */
  banked: number;
  period_start: string;
  period_end: string;
  worked: number;
  breaks: number;
  night: number;
  overtime: number;
  complementary: number;
  /** Overtime the yearly cap counts: paid, not force majeure (ET 35.2, 35.3). */
  counted_overtime: number;
  /** Worked minutes on holidays of the employee's calendar (a worked holiday, reported apart). */
  holiday_worked: number;
  expected: number;
  absences: number;
  source_days: number;
  incomplete_days: number;
  anomalies: number;
  conflict_days: number;
};

export const monthStart = (date: string) => `${date.slice(0, 7)}-01`;

/** What one page of work summaries reads: a tenant's range, optionally one employee, after a keyset position. */
export type FiguresRead = {
  companyId: string;
  timezone: string;
  from: string;
  to: string;
  employeeId?: string | undefined;
  /** The (employee_id, period_start) key to read after, or null for the first page. */
  after: [string, string] | null;
  /** Rows to read (the page size plus one, to know whether there is more). */
  limit: number;
  now: Date;
  /** The first month whose rollup may still differ from the read-time rule. */
  settledUntil: string;
};

function filters(read: FiguresRead) {
  const { closed, incomplete } = dayStatus(read.now, sql`coalesce(e.timezone, ${read.timezone})`);
  const employee = read.employeeId ? sql`and e.id = ${read.employeeId}::uuid` : sql``;
  return { closed, incomplete, employee };
}

/** Month rows: every employee employed during part of each month of the range, in (employee, month) order. */
function employeeMonths(read: FiguresRead) {
  const { employee } = filters(read);
  const position = read.after
    ? sql`and (e.id, m.month_start::date) > (${read.after[0]}::uuid, ${read.after[1]}::date)`
    : sql``;
  return {
    from: sql`from employees e
      cross join generate_series(${monthStart(read.from)}::date, ${monthStart(read.to)}::date, interval '1 month')
        as m(month_start)`,
    page: sql`where e.company_id = ${read.companyId}::uuid
        and e.hire_date < (m.month_start + interval '1 month')::date
        and (e.termination_date is null or e.termination_date >= m.month_start::date)
        ${employee} ${position}
      order by e.id, m.month_start
      limit ${read.limit}`,
  };
}

/** Day rows: the stored workdays of the range, minute figures counted only for closed days. */
export async function dayFigures(db: Db, read: FiguresRead): Promise<Figures[]> {
  const { closed, incomplete, employee } = filters(read);
  const position = read.after
    ? sql`and (w.employee_id, w.date) > (${read.after[0]}::uuid, ${read.after[1]}::date)`
    : sql``;
  const result = await sql<Figures>`
      select w.employee_id, coalesce(e.timezone, ${read.timezone}) as zone,
             w.date as period_start, w.date as period_end,
             case when ${closed} then w.worked_minutes else 0 end as worked,
             case when ${closed} then w.break_minutes else 0 end as breaks,
             case when ${closed} then w.night_minutes else 0 end as night,
             case when ${closed} then ${overtimeOf(sql`w`)} else 0 end as overtime,
             case when ${closed} then ${complementaryOf(sql`w`)} else 0 end as complementary,
             case when ${closed} then w.expected_minutes else 0 end as expected,
             case when ${closed} then w.absences_minutes else 0 end as absences,
             case when ${closed} then 1 else 0 end as source_days,
             case when ${incomplete} then 1 else 0 end as incomplete_days,
             w.anomalies, case when w.conflict then 1 else 0 end as conflict_days,
             case when ${closed} then ${countedOvertimeOf(sql`w`)} else 0 end as counted_overtime,
             case when ${closed} and w.holiday then w.worked_minutes else 0 end as holiday_worked,
             case when ${closed} and w.tracked then ${bankedOf(sql`w`)} else 0 end as banked
      from workdays w
      join employees e on e.company_id = w.company_id and e.id = w.employee_id
      where w.company_id = ${read.companyId}::uuid
        and w.date >= ${read.from}::date and w.date <= ${read.to}::date
        ${employee} ${position}
      order by w.employee_id, w.date
      limit ${read.limit}`.execute(db);
  return result.rows;
}

/** Month rows of settled months only: one rollup row per employee and month, with the banked balance inline. */
export async function settledMonthFigures(db: Db, read: FiguresRead): Promise<Figures[]> {
  const months = employeeMonths(read);
  const result = await sql<Figures>`
      select e.id as employee_id, coalesce(e.timezone, ${read.timezone}) as zone,
             m.month_start::date as period_start,
             (m.month_start + interval '1 month' - interval '1 day')::date as period_end,
             coalesce(r.worked_minutes, 0) as worked, coalesce(r.break_minutes, 0) as breaks,
             coalesce(r.night_minutes, 0) as night, coalesce(r.overtime_minutes, 0) as overtime,
             coalesce(r.complementary_minutes, 0) as complementary,
             coalesce(r.overtime_counted_minutes, 0) as counted_overtime,
             coalesce(r.holiday_worked_minutes, 0) as holiday_worked, coalesce(r.expected_minutes, 0) as expected,
             coalesce(r.absences_minutes, 0) as absences,
             coalesce(r.source_days, 0) as source_days, coalesce(r.incomplete_days, 0) as incomplete_days,
             coalesce(r.anomalies, 0) as anomalies, coalesce(r.conflict_days, 0) as conflict_days,
             coalesce(r.banked_minutes, 0) as banked,
             (e.opening_banked_minutes
              + coalesce((select sum(b.banked_minutes) from workday_months b
                          where b.company_id = e.company_id and b.employee_id = e.id
                            and b.month <= m.month_start::date), 0))::int as banked_through
      ${months.from}
      left join workday_months r
        on r.company_id = e.company_id and r.employee_id = e.id and r.month = m.month_start::date
      ${months.page}`.execute(db);
  return result.rows;
}

/** Month rows: settled months read their rollup; the newest months aggregate their days with the read-time rule. */
export async function monthFigures(db: Db, read: FiguresRead): Promise<Figures[]> {
  const { closed, incomplete } = filters(read);
  const months = employeeMonths(read);
  const sum = (expression: RawBuilder<unknown>) =>
    sql`coalesce(sum(${expression}) filter (where ${closed}), 0)::int`;
  const result = await sql<Figures>`
      select e.id as employee_id, coalesce(e.timezone, ${read.timezone}) as zone,
             m.month_start::date as period_start,
             (m.month_start + interval '1 month' - interval '1 day')::date as period_end,
             coalesce(a.worked, 0) as worked, coalesce(a.breaks, 0) as breaks, coalesce(a.night, 0) as night,
             coalesce(a.overtime, 0) as overtime, coalesce(a.complementary, 0) as complementary,
             coalesce(a.counted_overtime, 0) as counted_overtime, coalesce(a.holiday_worked, 0) as holiday_worked,
             coalesce(a.expected, 0) as expected,
             coalesce(a.absences, 0) as absences, coalesce(a.source_days, 0) as source_days,
             coalesce(a.incomplete_days, 0) as incomplete_days, coalesce(a.anomalies, 0) as anomalies,
             coalesce(a.conflict_days, 0) as conflict_days, coalesce(a.banked, 0) as banked
      ${months.from}
      left join lateral (
        select r.worked_minutes as worked, r.break_minutes as breaks, r.night_minutes as night,
               r.overtime_minutes as overtime, r.complementary_minutes as complementary,
               r.overtime_counted_minutes as counted_overtime, r.holiday_worked_minutes as holiday_worked,
               r.expected_minutes as expected,
               r.absences_minutes as absences,
               r.source_days, r.incomplete_days, r.anomalies, r.conflict_days, r.banked_minutes as banked
        from workday_months r
        where r.company_id = e.company_id and r.employee_id = e.id and r.month = m.month_start::date
          and m.month_start < ${read.settledUntil}::date
        union all
        select ${sum(sql`w.worked_minutes`)}, ${sum(sql`w.break_minutes`)}, ${sum(sql`w.night_minutes`)},
               ${sum(overtimeOf(sql`w`))}, ${sum(complementaryOf(sql`w`))}, ${sum(countedOvertimeOf(sql`w`))},
               ${sum(sql`case when w.holiday then w.worked_minutes else 0 end`)}, ${sum(sql`w.expected_minutes`)},
               ${sum(sql`w.absences_minutes`)},
               (count(*) filter (where ${closed}))::int, (count(*) filter (where ${incomplete}))::int,
               coalesce(sum(w.anomalies), 0)::int, (count(*) filter (where w.conflict))::int,
               coalesce(sum(${bankedOf(sql`w`)}) filter (where ${closed} and w.tracked), 0)::int
        from workdays w
        where w.company_id = e.company_id and w.employee_id = e.id
          and w.date >= m.month_start::date and w.date < (m.month_start + interval '1 month')::date
          and m.month_start >= ${read.settledUntil}::date
        having m.month_start >= ${read.settledUntil}::date
      ) a on true
      ${months.page}`.execute(db);
  return result.rows;
}

/**
 * Year rows (issue 38): per employee and calendar year, its settled months from their rollups and the rest from
 * its days with the read-time rule, as month rows are, summed.
 */
export async function yearFigures(db: Db, read: FiguresRead): Promise<Figures[]> {
  const { closed, incomplete, employee } = filters(read);
  const position = read.after
    ? sql`and (e.id, y.year_start::date) > (${read.after[0]}::uuid, ${read.after[1]}::date)`
    : sql``;
  const sum = (expression: RawBuilder<unknown>) =>
    sql`coalesce(sum(${expression}) filter (where ${closed}), 0)::int`;
  const yearEnd = sql`(y.year_start + interval '1 year')::date`;
  const result = await sql<Figures>`
      select e.id as employee_id, coalesce(e.timezone, ${read.timezone}) as zone,
             y.year_start::date as period_start, (${yearEnd} - 1) as period_end,
             coalesce(sum(a.worked), 0)::int as worked, coalesce(sum(a.breaks), 0)::int as breaks,
             coalesce(sum(a.night), 0)::int as night, coalesce(sum(a.overtime), 0)::int as overtime,
             coalesce(sum(a.complementary), 0)::int as complementary,
             coalesce(sum(a.counted_overtime), 0)::int as counted_overtime,
             coalesce(sum(a.holiday_worked), 0)::int as holiday_worked,
             coalesce(sum(a.expected), 0)::int as expected, coalesce(sum(a.absences), 0)::int as absences,
             coalesce(sum(a.source_days), 0)::int as source_days,
             coalesce(sum(a.incomplete_days), 0)::int as incomplete_days,
             coalesce(sum(a.anomalies), 0)::int as anomalies, coalesce(sum(a.conflict_days), 0)::int as conflict_days,
             coalesce(sum(a.banked), 0)::int as banked
      from employees e
      cross join generate_series(${`${read.from.slice(0, 4)}-01-01`}::date, ${`${read.to.slice(0, 4)}-01-01`}::date,
                                 interval '1 year') as y(year_start)
      left join lateral (
        select r.worked_minutes as worked, r.break_minutes as breaks, r.night_minutes as night,
               r.overtime_minutes as overtime, r.complementary_minutes as complementary,
               r.overtime_counted_minutes as counted_overtime, r.holiday_worked_minutes as holiday_worked,
               r.expected_minutes as expected,
               r.absences_minutes as absences, r.source_days, r.incomplete_days, r.anomalies, r.conflict_days,
               r.banked_minutes as banked
        from workday_months r
        where r.company_id = e.company_id and r.employee_id = e.id
          and r.month >= y.year_start::date and r.month < ${yearEnd} and r.month < ${read.settledUntil}::date
        union all
        select ${sum(sql`w.worked_minutes`)}, ${sum(sql`w.break_minutes`)}, ${sum(sql`w.night_minutes`)},
               ${sum(overtimeOf(sql`w`))}, ${sum(complementaryOf(sql`w`))}, ${sum(countedOvertimeOf(sql`w`))},
               ${sum(sql`case when w.holiday then w.worked_minutes else 0 end`)}, ${sum(sql`w.expected_minutes`)}, ${sum(sql`w.absences_minutes`)},
               (count(*) filter (where ${closed}))::int, (count(*) filter (where ${incomplete}))::int,
               coalesce(sum(w.anomalies), 0)::int, (count(*) filter (where w.conflict))::int,
               coalesce(sum(${bankedOf(sql`w`)}) filter (where ${closed} and w.tracked), 0)::int
        from workdays w
        where w.company_id = e.company_id and w.employee_id = e.id
          and w.date >= greatest(y.year_start::date, ${read.settledUntil}::date) and w.date < ${yearEnd}
      ) a on true
      where e.company_id = ${read.companyId}::uuid
        and e.hire_date < ${yearEnd}
        and (e.termination_date is null or e.termination_date >= y.year_start::date)
        ${employee} ${position}
      group by e.id, e.timezone, y.year_start
      order by e.id, y.year_start
      limit ${read.limit}`.execute(db);
  return result.rows;
}

/**
 * The banked balance of some employees before a date each: the opening balance, then settled months from their
 * rollups, then the remaining tracked closed days one by one.
 */
export async function bankedBeforeRows(
  db: Db,
  companyId: string,
  read: {
    now: Date;
    settledUntil: string;
    firsts: Array<{ employeeId: string; before: string; zone: string }>;
  },
): Promise<Array<{ employee_id: string; banked: number }>> {
  const { closed } = dayStatus(read.now, sql`x.zone`);
  // Settled months from their rollups, then the remaining days one by one.
  const result = await sql<{ employee_id: string; banked: number }>`
    select x.employee_id,
           ((select e.opening_banked_minutes from employees e
             where e.company_id = ${companyId}::uuid and e.id = x.employee_id)
            + coalesce((select sum(r.banked_minutes) from workday_months r
                      where r.company_id = ${companyId}::uuid and r.employee_id = x.employee_id
                        and r.month < least(date_trunc('month', x.before)::date, ${read.settledUntil}::date)), 0)
            + coalesce((select sum(${bankedOf(sql`w`)}) from workdays w
                        where w.company_id = ${companyId}::uuid and w.employee_id = x.employee_id
                          and w.date >= least(date_trunc('month', x.before)::date, ${read.settledUntil}::date)
                          and w.date < x.before and w.tracked and ${closed}), 0))::int as banked
    from unnest(${read.firsts.map((first) => first.employeeId)}::uuid[], ${read.firsts.map((first) => first.before)}::date[],
                ${read.firsts.map((first) => first.zone)}::text[]) as x(employee_id, before, zone)`.execute(
    db,
  );
  return result.rows;
}
