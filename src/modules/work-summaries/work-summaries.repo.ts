import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { missedClockOutSql } from '../../db/open-shifts.ts';
import {
  bankedOf,
  complementaryOf,
  countedOvertimeOf,
  holidayWorkedOf,
  overtimeOf,
} from '../../db/workday-figures.ts';

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
  /** Worked minutes within published on-call shifts (reported apart, issue 38). */
  on_call_worked: number;
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
  /** A team lead's units (issue 39): only their employees' rows; absent: the whole company. */
  unitIds?: readonly string[] | undefined;
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
  const one = read.employeeId ? sql`and e.id = ${read.employeeId}::uuid` : sql``;
  const units = read.unitIds ? sql`and e.unit_id = any(${[...read.unitIds]}::uuid[])` : sql``;
  return { closed, incomplete, employee: sql`${one} ${units}` };
}

type DayRule = ReturnType<typeof dayStatus>;

/**
 * Every figure of a period, once: its name, its column in the monthly rollups, and what one stored day `w` adds
 * to it under the read-time rule (minute figures count closed days only). Day rows read the day's value, month
 * and year rows sum it over the days not yet rolled up, in this order.
 */
const FIGURES: ReadonlyArray<{
  name: string;
  column: string;
  ofDay: (rule: DayRule) => RawBuilder<unknown>;
}> = [
  {
    name: 'worked',
    column: 'worked_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then w.worked_minutes else 0 end`,
  },
  {
    name: 'breaks',
    column: 'break_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then w.break_minutes else 0 end`,
  },
  {
    name: 'night',
    column: 'night_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then w.night_minutes else 0 end`,
  },
  {
    name: 'overtime',
    column: 'overtime_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then ${overtimeOf(sql`w`)} else 0 end`,
  },
  {
    name: 'complementary',
    column: 'complementary_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then ${complementaryOf(sql`w`)} else 0 end`,
  },
  {
    name: 'counted_overtime',
    column: 'overtime_counted_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then ${countedOvertimeOf(sql`w`)} else 0 end`,
  },
  {
    name: 'holiday_worked',
    column: 'holiday_worked_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then ${holidayWorkedOf(sql`w`)} else 0 end`,
  },
  {
    name: 'on_call_worked',
    column: 'on_call_worked_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then coalesce(w.on_call_minutes, 0) else 0 end`,
  },
  {
    name: 'expected',
    column: 'expected_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then w.expected_minutes else 0 end`,
  },
  {
    name: 'absences',
    column: 'absences_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} then w.absences_minutes else 0 end`,
  },
  {
    name: 'source_days',
    column: 'source_days',
    ofDay: ({ closed }) => sql`case when ${closed} then 1 else 0 end`,
  },
  {
    name: 'incomplete_days',
    column: 'incomplete_days',
    ofDay: ({ incomplete }) => sql`case when ${incomplete} then 1 else 0 end`,
  },
  { name: 'anomalies', column: 'anomalies', ofDay: () => sql`w.anomalies` },
  {
    name: 'conflict_days',
    column: 'conflict_days',
    ofDay: () => sql`case when w.conflict then 1 else 0 end`,
  },
  {
    name: 'banked',
    column: 'banked_minutes',
    ofDay: ({ closed }) => sql`case when ${closed} and w.tracked then ${bankedOf(sql`w`)} else 0 end`,
  },
];

/** One select list over FIGURES (names and columns are the constants above, never input). */
const figureList = (item: (figure: (typeof FIGURES)[number]) => RawBuilder<unknown>) =>
  sql.join(FIGURES.map(item));
/** A rollup row `r`'s figures, named. */
const rollupFigures = () => figureList(({ name, column }) => sql.raw(`r.${column} as ${name}`));
/** The figures summed over the days `w` of a group. */
const summedDays = (rule: DayRule) =>
  figureList(({ name, ofDay }) => sql`coalesce(sum(${ofDay(rule)}), 0)::int as ${sql.raw(name)}`);

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
             ${figureList(({ name, ofDay }) => sql`${ofDay({ closed, incomplete })} as ${sql.raw(name)}`)}
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
             ${figureList(({ name, column }) => sql.raw(`coalesce(r.${column}, 0) as ${name}`))},
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
  const result = await sql<Figures>`
      select e.id as employee_id, coalesce(e.timezone, ${read.timezone}) as zone,
             m.month_start::date as period_start,
             (m.month_start + interval '1 month' - interval '1 day')::date as period_end,
             ${figureList(({ name }) => sql.raw(`coalesce(a.${name}, 0) as ${name}`))}
      ${months.from}
      left join lateral (
        select ${rollupFigures()}
        from workday_months r
        where r.company_id = e.company_id and r.employee_id = e.id and r.month = m.month_start::date
          and m.month_start < ${read.settledUntil}::date
        union all
        select ${summedDays({ closed, incomplete })}
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
  const yearEnd = sql`(y.year_start + interval '1 year')::date`;
  const result = await sql<Figures>`
      select e.id as employee_id, coalesce(e.timezone, ${read.timezone}) as zone,
             y.year_start::date as period_start, (${yearEnd} - 1) as period_end,
             ${figureList(({ name }) => sql.raw(`coalesce(sum(a.${name}), 0)::int as ${name}`))}
      from employees e
      cross join generate_series(${`${read.from.slice(0, 4)}-01-01`}::date, ${`${read.to.slice(0, 4)}-01-01`}::date,
                                 interval '1 year') as y(year_start)
      left join lateral (
        select ${rollupFigures()}
        from workday_months r
        where r.company_id = e.company_id and r.employee_id = e.id
          and r.month >= y.year_start::date and r.month < ${yearEnd} and r.month < ${read.settledUntil}::date
        union all
        select ${summedDays({ closed, incomplete })}
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
