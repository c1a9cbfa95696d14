import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/**
 * Claims (FOR UPDATE SKIP LOCKED, across tenants) up to `batch` employees whose materialised calendar ends before
 * `through` and who are still employed past it, with their account's time zone.
 */
export async function claimEmployeesBehind(db: Executor, through: string, batch: number) {
  const due = await sql<{ company_id: string; id: string; consolidated_through: string; timezone: string }>`
    select e.company_id, e.id, e.consolidated_through, a.timezone
    from employees e
    join companies t on t.id = e.company_id
    join companies a on a.id = coalesce(t.sandbox_of, t.id)
    where e.consolidated_through < ${through}::date
      and (e.termination_date is null or e.termination_date > e.consolidated_through)
    limit ${batch}
    for update of e skip locked`.execute(db);
  return due.rows;
}
