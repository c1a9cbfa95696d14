import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { invalid } from '../../platform/errors.ts';
import { type CursorCodec, DEFAULT_LIMIT, type Page, pageOf } from '../../platform/pagination.ts';
import type { TenantScope } from '../../platform/tenant.ts';
import { yearRangeProblem } from '../../time/calendar.ts';
import type { Clock } from '../../time/clock.ts';

export type WorkSummaryView = {
  employee_id: string;
  period_start: string;
  period_end: string;
  worked_minutes: number;
  break_minutes: number;
  night_minutes: number;
  overtime_minutes: number;
  expected_minutes: number;
  balance_minutes: number;
  banked_hours_balance_minutes: number;
  absences_minutes: number;
  source_days: number;
  incomplete_days: number;
  anomalies: number;
};

export type ListWorkSummariesQuery = {
  period: 'day' | 'month';
  from: string;
  to: string;
  employee_id?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  updated_since?: string | undefined;
};

/**
 * When a stored workday counts (docs/time-rules.md): incomplete when it has an incomplete shift or a shift open
 * for 24 hours; closed when neither, no shift is open, and the date is before the employee's local today.
 * Decided at read time, so stored rows never go stale. `w` is workdays, `e` the employee.
 */
function dayStatus(now: Date, zone: RawBuilder<unknown>) {
  const incomplete = sql<boolean>`(w.incomplete_shifts > 0 or (w.open_since is not null and w.open_since <= ${now}::timestamptz - interval '24 hours'))`;
  const closed = sql<boolean>`(w.incomplete_shifts = 0 and w.open_since is null and w.date < (${now}::timestamptz at time zone ${zone})::date)`;
  return { incomplete, closed };
}

/**
 * The first month whose rollup (workday_months) may differ from the read-time rule: months that ended at least
 * three days ago (UTC) are settled for every zone, and are read from their rollup.
 */
function firstUnsettledMonth(now: Temporal.Instant): string {
  const cutoff = now.toZonedDateTimeISO('UTC').toPlainDate().subtract({ days: 2 });
  return `${cutoff.toString().slice(0, 7)}-01`;
}

type Figures = {
  employee_id: string;
  zone: string;
  /** Set when the query already computed the cumulative balance through the row's period. */
  banked_through?: number;
  period_start: string;
  period_end: string;
  worked: number;
  breaks: number;
  night: number;
  overtime: number;
  expected: number;
  absences: number;
  source_days: number;
  incomplete_days: number;
  anomalies: number;
};

function validateRange(query: ListWorkSummariesQuery): void {
  const problem = yearRangeProblem(query.from, query.to);
  if (problem !== null) throw invalid({ 'query.to': problem });
}

const monthStart = (date: string) => `${date.slice(0, 7)}-01`;

/**
 * Rows per employee and period, paged by the key (employee_id, period_start). Day rows are the stored workdays
 * of the range; month rows aggregate them per calendar month for every employee employed in that month. Minute
 * fields count closed workdays only; the banked balance adds every closed workday from the hire date.
 */
export async function listWorkSummaries(
  db: Db,
  clock: Clock,
  codec: CursorCodec,
  tenant: TenantScope,
  query: ListWorkSummariesQuery,
): Promise<Page<WorkSummaryView>> {
  validateRange(query);
  const listing = `work-summaries|${query.period}|${query.from}|${query.to}|${query.employee_id ?? ''}`;
  const after = query.cursor ? (codec.decode(listing, query.cursor, 2) as [string, string]) : null;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const instant = clock.now();
  const now = new Date(instant.epochMilliseconds);
  const settledUntil = firstUnsettledMonth(instant);
  const { closed, incomplete } = dayStatus(now, sql`coalesce(e.timezone, ${tenant.timezone})`);
  const employee = query.employee_id ? sql`and e.id = ${query.employee_id}::uuid` : sql``;

  // Month rows: every employee employed during part of each month of the range, in (employee, month) order.
  const employeeMonths = sql`from employees e
      cross join generate_series(${monthStart(query.from)}::date, ${monthStart(query.to)}::date, interval '1 month')
        as m(month_start)`;
  const monthPosition = after
    ? sql`and (e.id, m.month_start::date) > (${after[0]}::uuid, ${after[1]}::date)`
    : sql``;
  const monthPage = sql`where e.company_id = ${tenant.companyId}::uuid
        and e.hire_date < (m.month_start + interval '1 month')::date
        and (e.termination_date is null or e.termination_date >= m.month_start::date)
        ${employee} ${monthPosition}
      order by e.id, m.month_start
      limit ${limit + 1}`;

  let rows: Figures[];
  if (query.period === 'day') {
    const position = after
      ? sql`and (w.employee_id, w.date) > (${after[0]}::uuid, ${after[1]}::date)`
      : sql``;
    const result = await sql<Figures>`
      select w.employee_id, coalesce(e.timezone, ${tenant.timezone}) as zone,
             w.date as period_start, w.date as period_end,
             case when ${closed} then w.worked_minutes else 0 end as worked,
             case when ${closed} then w.break_minutes else 0 end as breaks,
             case when ${closed} then w.night_minutes else 0 end as night,
             case when ${closed} then greatest(0, w.worked_minutes - w.expected_minutes) else 0 end as overtime,
             case when ${closed} then w.expected_minutes else 0 end as expected,
             case when ${closed} then w.absences_minutes else 0 end as absences,
             case when ${closed} then 1 else 0 end as source_days,
             case when ${incomplete} then 1 else 0 end as incomplete_days,
             w.anomalies
      from workdays w
      join employees e on e.company_id = w.company_id and e.id = w.employee_id
      where w.company_id = ${tenant.companyId}::uuid
        and w.date >= ${query.from}::date and w.date <= ${query.to}::date
        ${employee} ${position}
      order by w.employee_id, w.date
      limit ${limit + 1}`.execute(db);
    rows = result.rows;
  } else if (monthStart(query.to) < settledUntil) {
    // Every month of the range is settled: one rollup row per employee and month (the common payroll case).
    const result = await sql<Figures>`
      select e.id as employee_id, coalesce(e.timezone, ${tenant.timezone}) as zone,
             m.month_start::date as period_start,
             (m.month_start + interval '1 month' - interval '1 day')::date as period_end,
             coalesce(r.worked_minutes, 0) as worked, coalesce(r.break_minutes, 0) as breaks,
             coalesce(r.night_minutes, 0) as night, coalesce(r.overtime_minutes, 0) as overtime,
             coalesce(r.expected_minutes, 0) as expected, coalesce(r.absences_minutes, 0) as absences,
             coalesce(r.source_days, 0) as source_days, coalesce(r.incomplete_days, 0) as incomplete_days,
             coalesce(r.anomalies, 0) as anomalies,
             coalesce((select sum(b.worked_minutes - b.expected_minutes) from workday_months b
                       where b.company_id = e.company_id and b.employee_id = e.id
                         and b.month <= m.month_start::date), 0)::int as banked_through
      ${employeeMonths}
      left join workday_months r
        on r.company_id = e.company_id and r.employee_id = e.id and r.month = m.month_start::date
      ${monthPage}`.execute(db);
    rows = result.rows;
  } else {
    const sum = (expression: RawBuilder<unknown>) =>
      sql`coalesce(sum(${expression}) filter (where ${closed}), 0)::int`;
    // Settled months read their rollup; the newest months aggregate their days with the read-time rule.
    const result = await sql<Figures>`
      select e.id as employee_id, coalesce(e.timezone, ${tenant.timezone}) as zone,
             m.month_start::date as period_start,
             (m.month_start + interval '1 month' - interval '1 day')::date as period_end,
             coalesce(a.worked, 0) as worked, coalesce(a.breaks, 0) as breaks, coalesce(a.night, 0) as night,
             coalesce(a.overtime, 0) as overtime, coalesce(a.expected, 0) as expected,
             coalesce(a.absences, 0) as absences, coalesce(a.source_days, 0) as source_days,
             coalesce(a.incomplete_days, 0) as incomplete_days, coalesce(a.anomalies, 0) as anomalies
      ${employeeMonths}
      left join lateral (
        select r.worked_minutes as worked, r.break_minutes as breaks, r.night_minutes as night,
               r.overtime_minutes as overtime, r.expected_minutes as expected, r.absences_minutes as absences,
               r.source_days, r.incomplete_days, r.anomalies
        from workday_months r
        where r.company_id = e.company_id and r.employee_id = e.id and r.month = m.month_start::date
          and m.month_start < ${settledUntil}::date
        union all
        select ${sum(sql`w.worked_minutes`)}, ${sum(sql`w.break_minutes`)}, ${sum(sql`w.night_minutes`)},
               ${sum(sql`greatest(0, w.worked_minutes - w.expected_minutes)`)}, ${sum(sql`w.expected_minutes`)},
               ${sum(sql`w.absences_minutes`)},
               (count(*) filter (where ${closed}))::int, (count(*) filter (where ${incomplete}))::int,
               coalesce(sum(w.anomalies), 0)::int
        from workdays w
        where w.company_id = e.company_id and w.employee_id = e.id
          and w.date >= m.month_start::date and w.date < (m.month_start + interval '1 month')::date
          and m.month_start >= ${settledUntil}::date
        having m.month_start >= ${settledUntil}::date
      ) a on true
      ${monthPage}`.execute(db);
    rows = result.rows;
  }

  const { data: page, meta } = pageOf(rows, {
    codec,
    listing,
    limit,
    keyOf: (row) => [row.employee_id, row.period_start],
  });
  const banked = page.every((row) => row.banked_through !== undefined)
    ? new Map<string, number>()
    : await bankedBefore(db, tenant, instant, page);
  const data = page.map((row): WorkSummaryView => {
    const balance = row.worked - row.expected;
    const running = row.banked_through ?? (banked.get(row.employee_id) ?? 0) + balance;
    banked.set(row.employee_id, running);
    return {
      employee_id: row.employee_id,
      period_start: row.period_start,
      period_end: row.period_end,
      worked_minutes: row.worked,
      break_minutes: row.breaks,
      night_minutes: row.night,
      overtime_minutes: row.overtime,
      expected_minutes: row.expected,
      balance_minutes: balance,
      banked_hours_balance_minutes: running,
      absences_minutes: row.absences,
      source_days: row.source_days,
      incomplete_days: row.incomplete_days,
      anomalies: row.anomalies,
    };
  });
  return { data, meta };
}

/**
 * The banked balance of each employee on the page before its first row: the sum of worked − expected over its
 * closed workdays before that date. The page's rows of an employee are consecutive periods, so adding their
 * balances in order gives each row's cumulative figure.
 */
async function bankedBefore(
  db: Db,
  tenant: TenantScope,
  now: Temporal.Instant,
  page: Figures[],
): Promise<Map<string, number>> {
  const first = new Map<string, { before: string; zone: string }>();
  for (const row of page) {
    if (!first.has(row.employee_id)) first.set(row.employee_id, { before: row.period_start, zone: row.zone });
  }
  if (first.size === 0) return new Map();
  const settledUntil = firstUnsettledMonth(now);
  const { closed } = dayStatus(new Date(now.epochMilliseconds), sql`x.zone`);
  // Settled months from their rollups, then the remaining days one by one.
  const result = await sql<{ employee_id: string; banked: number }>`
    select x.employee_id,
           (coalesce((select sum(r.worked_minutes - r.expected_minutes) from workday_months r
                      where r.company_id = ${tenant.companyId}::uuid and r.employee_id = x.employee_id
                        and r.month < least(date_trunc('month', x.before)::date, ${settledUntil}::date)), 0)
            + coalesce((select sum(w.worked_minutes - w.expected_minutes) from workdays w
                        where w.company_id = ${tenant.companyId}::uuid and w.employee_id = x.employee_id
                          and w.date >= least(date_trunc('month', x.before)::date, ${settledUntil}::date)
                          and w.date < x.before and ${closed}), 0))::int as banked
    from unnest(${[...first.keys()]}::uuid[], ${[...first.values()].map((v) => v.before)}::date[],
                ${[...first.values()].map((v) => v.zone)}::text[]) as x(employee_id, before, zone)`.execute(
    db,
  );
  return new Map(result.rows.map((row) => [row.employee_id, row.banked]));
}
