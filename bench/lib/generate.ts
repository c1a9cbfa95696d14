import { sql } from 'kysely';
import type { Db, Tx } from '../../src/db/database.ts';
import { allowAnySyncStamp } from '../../src/db/sync-stamp.ts';

/** One bulk statement in a transaction allowed to write any updated_at (nothing lists the tables meanwhile). */
async function bulk<T>(db: Db, statement: (tx: Tx) => Promise<T>): Promise<T> {
  return await db.transaction().execute(async (tx) => {
    await allowAnySyncStamp(tx);
    return await statement(tx);
  });
}

/**
 * Bench data, written with set-based SQL (the API would take hours for 10 million rows): one company's
 * employees (each with one contract period from the hire date), and per employee pairs of in/out check-ins on consecutive days. Check-ins are synced late by a
 * pseudo-random delay of up to three days, so the sync order (updated_at) differs from the timeline.
 */
export async function generateEmployees(
  db: Db,
  companyId: string,
  count: number,
  startAt: Date,
): Promise<void> {
  await bulk(db, (tx) =>
    sql`
    insert into employees (company_id, id, first_name, last_name, email, status, hire_date, work_schedule,
                           vacation_days_per_year, created_at, updated_at)
    select ${companyId}::uuid, gen_random_uuid(), 'Bench', 'Employee ' || g, 'bench' || g || '@example.com',
           'active', date '2025-01-01', '{480,480,480,480,480,0,0}', 22,
           ${startAt}::timestamptz + g * interval '1 millisecond', ${startAt}::timestamptz + g * interval '1 millisecond'
    from generate_series(1, ${count}::int) g`.execute(tx),
  );
  await sql`
    insert into employee_contracts (company_id, employee_id, effective_from, work_schedule, vacation_days_per_year,
                                    recorded_at, recorded_by_type, recorded_by_id)
    select company_id, id, hire_date, work_schedule, vacation_days_per_year, created_at, 'system', 'bench'
    from employees where company_id = ${companyId}::uuid`.execute(db);
  await db
    .updateTable('companies')
    .set({ seats: count, active_employee_count: count })
    .where('id', '=', companyId)
    .execute();
}

/** Check-ins for employees number `first`..`last` (1-based, in id order), `perEmployee` each. */
export async function generateCheckIns(
  db: Db,
  companyId: string,
  range: { first: number; last: number },
  perEmployee: number,
  firstDay: string,
): Promise<number> {
  const result = await bulk(db, (tx) =>
    sql`
    with staff as (
      select id, row_number() over (order by id) as n
      from employees where company_id = ${companyId}::uuid
    )
    insert into check_ins (company_id, id, employee_id, type, timestamp, source, created_at, updated_at,
                           recorded_at, recorded_by_type, recorded_by_id)
    select ${companyId}::uuid, gen_random_uuid(), s.id,
           case when k % 2 = 0 then 'in' else 'out' end,
           t.ts, 'import', t.ts + t.delay, t.ts + t.delay, t.ts + t.delay, 'system', 'bench-generator'
    from staff s
    cross join generate_series(0, ${perEmployee - 1}::int) k
    cross join lateral (
      select ${firstDay}::timestamptz + (k / 2) * interval '1 day' + (k % 2) * interval '8 hours'
               + (s.n % 120) * interval '1 minute' as ts,
             ((s.n * 7919 + k * 104729) % 259200) * interval '1 second' as delay
    ) t
    where s.n between ${range.first} and ${range.last}`.execute(tx),
  );
  return Number(result.numAffectedRows ?? 0);
}

/**
 * A working year for employees `first`..`last`: on every weekday from `firstDay` for `weeks` weeks, in around
 * 08:00, a break 13:00–13:30 and out around 16:30 (Madrid winter time, as UTC instants), with a few minutes of
 * per-employee jitter.
 */
export async function generateWorkingYear(
  db: Db,
  companyId: string,
  range: { first: number; last: number },
  firstMonday: string,
  weeks: number,
): Promise<number> {
  const result = await bulk(db, (tx) =>
    sql`
    with staff as (
      select id, row_number() over (order by id) as n
      from employees where company_id = ${companyId}::uuid
    ),
    days as (
      select ${firstMonday}::date + d as day
      from generate_series(0, ${weeks * 7 - 1}::int) d
      where extract(isodow from ${firstMonday}::date + d) < 6
    ),
    events(type, at) as (
      values ('in', interval '7 hours'), ('break_start', interval '12 hours'),
             ('break_end', interval '12 hours 30 minutes'), ('out', interval '15 hours 30 minutes')
    )
    insert into check_ins (company_id, id, employee_id, type, timestamp, source, created_at, updated_at,
                           recorded_at, recorded_by_type, recorded_by_id)
    select ${companyId}::uuid, gen_random_uuid(), s.id, e.type, t.ts, 'import', t.ts, t.ts, t.ts, 'system',
           'bench-generator'
    from staff s cross join days cross join events e
    cross join lateral (
      select (days.day::timestamp + e.at + ((s.n * 7 + extract(doy from days.day)::int) % 11) * interval '1 minute')
               at time zone 'UTC' as ts
    ) t
    where s.n between ${range.first} and ${range.last}`.execute(tx),
  );
  return Number(result.numAffectedRows ?? 0);
}
