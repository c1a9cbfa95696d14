import type { Db } from '../db/database.ts';
import { deleteExpiredSessions } from '../modules/admins/admins.repo.ts';
import { deleteEventsWithoutDeliveries } from '../modules/events/events.repo.ts';
import { sweepLoginFailures } from '../modules/logins/logins.service.ts';
import { sweepNotifications } from '../modules/notifications/notifications.service.ts';
import { deleteExpiredChallenges } from '../modules/passkeys/passkeys.repo.ts';
import { deleteExpiredPortalSessions } from '../modules/portal/portal.repo.ts';
import { deleteAccessWindowsBefore } from '../modules/registry-access/access.repo.ts';
import { deleteExpiredDownloadNonces } from '../modules/reports/reports.repo.ts';
import { FILE_RETENTION_DAYS } from '../modules/reports/reports.service.ts';
import type { ReportStore } from '../modules/reports/store.ts';
import { deleteFinishedDeliveries } from '../modules/webhooks/deliveries.repo.ts';
import { DELIVERY_RETENTION_DAYS } from '../modules/webhooks/deliveries.service.ts';
import { settleOnCallFigures } from '../modules/workdays/consolidation.ts';
import { claimEmployeesBehind, employeesWithUnsettledOnCall } from '../modules/workdays/workdays.repo.ts';
import { extendCalendar } from '../modules/workdays/write-days.ts';
import { deleteWindowsBefore } from '../platform/auth.repo.ts';
import { deleteExpiredIdempotencyRecords } from '../platform/idempotency.repo.ts';
import { type Clock, toDate } from '../time/clock.ts';
import type { Job } from './runner.ts';

const HORIZON_BATCH = 50;
/** Finished webhook deliveries, and events with no delivery left, are kept this long (docs/operations.md). */
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
    const due = await claimEmployeesBehind(tx, `${year}-12-31`, HORIZON_BATCH);
    for (const employee of due) {
      const from = Temporal.PlainDate.from(employee.consolidated_through).add({ days: 1 }).toString();
      await extendCalendar(tx, employee, { from, to: `${year + 1}-12-31` }, toDate(now));
    }
    return due.length;
  });
}

/**
 * Settles the on-call figure of days stored before it existed (migration 0050), one employee per transaction, a
 * batch per call. Returns the days settled.
 */
export async function settleOnCallBacklog(db: Db, now: Temporal.Instant): Promise<number> {
  let settled = 0;
  for (const employee of await employeesWithUnsettledOnCall(db, HORIZON_BATCH)) {
    settled += await db
      .transaction()
      .execute((tx) =>
        settleOnCallFigures(tx, employee.company_id, employee.timezone, employee.employee_id, toDate(now)),
      );
  }
  return settled;
}

/**
 * Deletes, one batch of each per call, the webhook deliveries finished more than DELIVERY_RETENTION_DAYS ago and
 * the events older than that which have no delivery left. A pending delivery is never swept, and neither is its
 * event (deleting the event would cascade to it). Returns how many rows went.
 */
export async function sweepDeliveriesAndEvents(db: Db, now: Temporal.Instant): Promise<number> {
  const cutoff = toDate(now.subtract({ hours: 24 * DELIVERY_RETENTION_DAYS }));
  return (
    (await deleteFinishedDeliveries(db, cutoff, SWEEP_BATCH)) +
    (await deleteEventsWithoutDeliveries(db, cutoff, SWEEP_BATCH))
  );
}

/**
 * Sweeps finished rate-limit windows, expired idempotency records, used download nonces, expired dashboard
 * and portal sessions, expired login failures, old deliveries and events, notifications past their year, and abandoned
 * report files; settles days stored before their on-call figure existed; extends calendar
 * horizons. Returns the rows handled, so the runner calls it again at once while a backlog remains.
 */
export function maintenanceJob(deps: { db: Db; clock: Clock; reportStore: ReportStore }): Job {
  return {
    name: 'maintenance',
    idleMilliseconds: 60_000,
    tick: async () => {
      const now = deps.clock.now();
      await deleteWindowsBefore(deps.db, toDate(now.subtract({ minutes: 10 })));
      await deleteExpiredIdempotencyRecords(deps.db, toDate(now));
      await deleteExpiredDownloadNonces(deps.db, toDate(now));
      await deleteExpiredSessions(deps.db, toDate(now));
      await deleteExpiredPortalSessions(deps.db, toDate(now));
      await deleteExpiredChallenges(deps.db, toDate(now));
      await sweepLoginFailures(deps.db, now);
      await deleteAccessWindowsBefore(deps.db, toDate(now.subtract({ minutes: 10 })));
      const swept = await sweepDeliveriesAndEvents(deps.db, now);
      await deps.reportStore.sweep({
        partialBefore: toDate(now.subtract({ hours: ABANDONED_PARTIAL_HOURS })),
        fileBefore: toDate(now.subtract({ hours: 24 * (FILE_RETENTION_DAYS + 1) })),
      });
      return (
        swept +
        (await sweepNotifications(deps.db, now)) +
        (await extendHorizons(deps.db, now)) +
        (await settleOnCallBacklog(deps.db, now))
      );
    },
  };
}
