import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { consolidate } from '../modules/workdays/consolidation.ts';
import { type Clock, toDate } from '../time/clock.ts';
import type { Job } from './runner.ts';

const HORIZON_BATCH = 50;

/**
 * Keeps every employee's materialised calendar (workdays with expected minutes) at least one year ahead: when an
 * employee's consolidated_through falls before the end of the current year, the next year is consolidated.
 * Claimed with SKIP LOCKED, so several workers share the batch.
 */
export async function extendHorizons(db: Db, now: Temporal.Instant): Promise<number> {
  const year = now.toZonedDateTimeISO('UTC').year;
  return await db.transaction().execute(async (tx) => {
    const due = await sql<{ company_id: string; id: string; consolidated_through: string; timezone: string }>`
      select e.company_id, e.id, e.consolidated_through, a.timezone
      from employees e
      join companies t on t.id = e.company_id
      join companies a on a.id = coalesce(t.sandbox_of, t.id)
      where e.consolidated_through < ${`${year}-12-31`}::date
        and (e.termination_date is null or e.termination_date > e.consolidated_through)
      limit ${HORIZON_BATCH}
      for update of e skip locked`.execute(tx);
    for (const employee of due.rows) {
      const from = Temporal.PlainDate.from(employee.consolidated_through).add({ days: 1 }).toString();
      await consolidate(
        tx,
        employee.company_id,
        employee.timezone,
        employee.id,
        { from, to: `${year + 1}-12-31` },
        toDate(now),
      );
    }
    return due.rows.length;
  });
}

/**
 * Sweeps finished rate-limit windows, expired idempotency records, used download nonces and expired dashboard
 * sessions, and extends calendar horizons.
 */
export function maintenanceJob(deps: { db: Db; clock: Clock }): Job {
  return {
    name: 'maintenance',
    idleMilliseconds: 60_000,
    tick: async () => {
      const now = deps.clock.now();
      await deps.db
        .deleteFrom('rate_limit_windows')
        .where('window_start', '<', toDate(now.subtract({ minutes: 10 })))
        .execute();
      await deps.db.deleteFrom('idempotency_keys').where('expires_at', '<', toDate(now)).execute();
      // A used download nonce matters only while its address could still be presented.
      await deps.db.deleteFrom('report_downloads').where('url_expires_at', '<', toDate(now)).execute();
      await deps.db.deleteFrom('dashboard_sessions').where('expires_at', '<', toDate(now)).execute();
      return await extendHorizons(deps.db, now);
    },
  };
}
