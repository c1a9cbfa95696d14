import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { sweepLoginFailures } from '../modules/logins/logins.service.ts';
import { FILE_RETENTION_DAYS } from '../modules/reports/reports.service.ts';
import type { ReportStore } from '../modules/reports/store.ts';
import { consolidate } from '../modules/workdays/consolidation.ts';
import { type Clock, toDate } from '../time/clock.ts';
import type { Job } from './runner.ts';

const HORIZON_BATCH = 50;
/** Finished webhook deliveries, and events with no delivery left, are kept this long (docs/operations.md). */
export const DELIVERY_RETENTION_DAYS = 30;
const SWEEP_BATCH = 1_000;
/** A partial report file not written to for this long belongs to a generation that died. */
const ABANDONED_PARTIAL_HOURS = 1;

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
 * Deletes, one batch of each per call, the webhook deliveries finished more than DELIVERY_RETENTION_DAYS ago and
 * the events older than that which have no delivery left. A pending delivery is never swept, and neither is its
 * event (deleting the event would cascade to it). Returns how many rows went.
 */
export async function sweepDeliveriesAndEvents(db: Db, now: Temporal.Instant): Promise<number> {
  const cutoff = toDate(now.subtract({ hours: 24 * DELIVERY_RETENTION_DAYS }));
  const deliveries = await sql`
    delete from webhook_deliveries d using (
      select company_id, id from webhook_deliveries
      where status <> 'pending' and updated_at < ${cutoff}
      order by updated_at
      limit ${SWEEP_BATCH}
    ) old
    where d.company_id = old.company_id and d.id = old.id`.execute(db);
  const events = await sql`
    delete from events e using (
      select o.company_id, o.id from events o
      where o.created_at < ${cutoff}
        and not exists (select from webhook_deliveries d where d.company_id = o.company_id and d.event_id = o.id)
      order by o.created_at
      limit ${SWEEP_BATCH}
    ) old
    where e.company_id = old.company_id and e.id = old.id`.execute(db);
  return Number(deliveries.numAffectedRows ?? 0n) + Number(events.numAffectedRows ?? 0n);
}

/**
 * Sweeps finished rate-limit windows, expired idempotency records, used download nonces, expired dashboard
 * sessions, expired login failures, old deliveries and events, and abandoned report files; extends calendar
 * horizons. Returns the rows handled, so the runner calls it again at once while a backlog remains.
 */
export function maintenanceJob(deps: { db: Db; clock: Clock; reportStore: ReportStore }): Job {
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
      await sweepLoginFailures(deps.db, now);
      const swept = await sweepDeliveriesAndEvents(deps.db, now);
      await deps.reportStore.sweep({
        partialBefore: toDate(now.subtract({ hours: ABANDONED_PARTIAL_HOURS })),
        fileBefore: toDate(now.subtract({ hours: 24 * (FILE_RETENTION_DAYS + 1) })),
      });
      return swept + (await extendHorizons(deps.db, now));
    },
  };
}
