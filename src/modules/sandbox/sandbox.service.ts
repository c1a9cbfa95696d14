import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { firstIdAt, newId } from '../../platform/ids.ts';
import { readWithinSyncHorizon } from '../../platform/pagination.ts';
import type { Tenant } from '../../platform/tenant.ts';
import { toDate } from '../../time/clock.ts';
import { localDate } from '../../time/zones.ts';
import {
  type EventData,
  type EventType,
  envelopeOf,
  eventPublicId,
  type PendingEvent,
  recordEvents,
} from '../events/events.service.ts';
import { countEventDeliveries, insertDeliveriesToActiveEndpoints } from '../webhooks/deliveries.repo.ts';
import { countListeners, eventsAfter, newestEvent, newestSandboxRows, notePoll } from './sandbox.repo.ts';
import type { EventFeed, SampleEvent } from './sandbox.schemas.ts';

export type SampleEventView = Static<typeof SampleEvent>;

type SandboxRows = Awaited<ReturnType<typeof newestSandboxRows>>;

/**
 * A sample event's `data`: the sandbox's newest rows where it has them (so the ids resolve with GET), else new
 * ids of the right shape; the state each event type implies.
 */
function sampleData(type: EventType, rows: SandboxRows, year: number): EventData[EventType] {
  const employeeId = rows.employee?.id ?? newId();
  const of = (row: { id: string; employee_id?: string } | undefined) => ({
    id: row?.id ?? newId(),
    employee_id: row?.employee_id ?? employeeId,
  });
  switch (type) {
    case 'employee.created':
    case 'employee.updated':
    case 'employee.terminated':
      return { employee_id: employeeId };
    case 'checkin.created': {
      const checkIn = of(rows.checkIn);
      return { check_in_id: checkIn.id, employee_id: checkIn.employee_id };
    }
    case 'check_in_correction.requested':
    case 'check_in_correction.applied':
    case 'check_in_correction.rejected': {
      const correction = of(rows.correction);
      const status = ({ requested: 'pending', applied: 'applied', rejected: 'rejected' } as const)[
        type.slice('check_in_correction.'.length) as 'requested' | 'applied' | 'rejected'
      ];
      return type === 'check_in_correction.applied'
        ? {
            correction_id: correction.id,
            employee_id: correction.employee_id,
            status: 'applied',
            affected_dates: [`${year}-01-05`],
            affected_months: [`${year}-01`],
          }
        : { correction_id: correction.id, employee_id: correction.employee_id, status };
    }
    case 'absence.requested':
    case 'absence.approved':
    case 'absence.denied':
    case 'absence.cancelled': {
      const absence = of(rows.absence);
      const status = type.slice('absence.'.length) as 'requested' | 'approved' | 'denied' | 'cancelled';
      return { absence_id: absence.id, employee_id: absence.employee_id, status };
    }
    case 'absence.updated': {
      const absence = of(rows.absence);
      return { absence_id: absence.id, employee_id: absence.employee_id, status: 'approved', days_count: 1 };
    }
    case 'vacation_balance.updated':
      return { employee_id: employeeId, year };
    case 'shift.published':
    case 'shift.updated':
    case 'shift.deleted':
      return { shift_id: newId(), employee_id: employeeId, date: `${year}-01-05` };
    case 'compliance_alert.created':
      return { alert_id: newId(), employee_id: employeeId, date: `${year}-01-05`, rule: 'daily_hours' };
    case 'registry_month.closed':
      return {
        month: `${year - 1}-12`,
        seal: createHash('sha256')
          .update(`${year - 1}-12`)
          .digest('hex'),
        workers: rows.employee ? 1 : 0,
        closed_at: `${year}-01-02T09:00:00Z`,
      };
    case 'report.completed':
      return { report_id: rows.report?.id ?? newId(), status: 'completed' };
    case 'ping':
      return {};
  }
}

/**
 * POST /v1/sandbox/events: a sample event of any type, recorded in the sandbox and queued for its endpoints like
 * a real one (signed, retried, listed in the deliveries): the active endpoints subscribed to its type, or every
 * active endpoint for `ping`. A live key gets 404: nothing fake ever reaches live endpoints.
 */
export async function emitSampleEvent(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: Pick<Tenant, 'companyId' | 'sandbox' | 'timezone'>,
  type: EventType,
): Promise<SampleEventView> {
  if (!tenant.sandbox) {
    throw new ApiError('not_found', 'Sample events are sent in the sandbox only: call with a test key.');
  }
  const { db, clock } = deps;
  const { companyId } = tenant;
  const rows = await newestSandboxRows(db, companyId);
  const data = sampleData(type, rows, localDate(clock.now(), tenant.timezone).year);
  return await withSyncStamp(db, clock, companyId, async (tx, now) => {
    const at = toDate(now);
    const [eventId] = await recordEvents(tx, companyId, at, [{ type, data } as PendingEvent]);
    const id = eventId as string;
    if (type === 'ping') await insertDeliveriesToActiveEndpoints(tx, companyId, { eventId: id, at });
    const deliveries = await countEventDeliveries(tx, companyId, id);
    // A listener polls at least every 20 s (the longest wait) while it runs: one seen in the last minute is there.
    const listeners = await countListeners(
      tx,
      companyId,
      toDate(now.subtract({ seconds: LISTENER_SECONDS })),
    );
    const envelope = envelopeOf(companyId, {
      id,
      type,
      data: data as Record<string, unknown>,
      created_at: at,
    });
    return { ...envelope, deliveries, listeners };
  });
}

const FEED_PAGE = 100;
const POLL_MILLISECONDS = 500;
/** The cursor before every event: its uuid is all zeros. */
const BEFORE_ALL = '00000000-0000-0000-0000-000000000000';

const uuidOf = (eventId: string) =>
  eventId.replace(/^evt_(\w{8})(\w{4})(\w{4})(\w{4})(\w{12})$/, '$1-$2-$3-$4-$5');

/**
 * GET /v1/sandbox/events?after=…&wait=…: the sandbox's events after a cursor, oldest first, waiting up to
 * `wait` seconds for one (long polling); what `jornada listen` forwards to a developer's laptop. `after=latest`
 * answers no event and the cursor to start from now. The feed ends at the sync horizon (src/db/sync-stamp.ts):
 * an event's id carries its transaction's stamp, so one committed late is never passed by the cursor.
 */
/** A caller that polled the feed this recently is a listener (`jornada listen` polls at least every 20 s). */
const LISTENER_SECONDS = 60;

export async function listenEvents(
  deps: Pick<AppDeps, 'db' | 'syncHorizon' | 'clock'>,
  tenant: Pick<Tenant, 'companyId' | 'sandbox' | 'actor'>,
  query: { after: string; wait?: number | undefined },
  signal?: AbortSignal,
): Promise<Static<typeof EventFeed>> {
  if (!tenant.sandbox) {
    throw new ApiError('not_found', 'The event feed is the sandbox’s: call with a test key.');
  }
  await notePoll(
    deps.db,
    tenant.companyId,
    `${tenant.actor.type}:${tenant.actor.id}`,
    toDate(deps.clock.now()),
  );
  if (query.after === 'latest' || query.wait === 0) return await readEvents(deps, tenant, query, signal);
  // A wait holds a connection and a timer on this node: a caller (a key, an administrator) may hold a few at
  // once and a company a few more (issue 35: one dashboard session held 400).
  const keys = [`caller:${tenant.actor.type}:${tenant.actor.id}`, `company:${tenant.companyId}`];
  const limits = [WAITS_PER_CALLER, WAITS_PER_COMPANY];
  if (keys.some((key, index) => (waiting.get(key) ?? 0) >= (limits[index] as number))) {
    throw new ApiError(
      'rate_limited',
      'Too many event feed requests are waiting at once. Try again shortly.',
      {
        headers: { 'Retry-After': '1' },
      },
    );
  }
  for (const key of keys) waiting.set(key, (waiting.get(key) ?? 0) + 1);
  try {
    return await readEvents(deps, tenant, query, signal);
  } finally {
    for (const key of keys) {
      const left = (waiting.get(key) ?? 1) - 1;
      if (left === 0) waiting.delete(key);
      else waiting.set(key, left);
    }
  }
}

/** Long polls waiting on this node, by caller and by company. */
const waiting = new Map<string, number>();
export const WAITS_PER_CALLER = 4;
export const WAITS_PER_COMPANY = 16;

async function readEvents(
  deps: Pick<AppDeps, 'db' | 'syncHorizon'>,
  tenant: Pick<Tenant, 'companyId'>,
  query: { after: string; wait?: number | undefined },
  signal?: AbortSignal,
): Promise<Static<typeof EventFeed>> {
  const { db, syncHorizon } = deps;
  const { companyId } = tenant;
  // An event's stamp is its created_at, which its id carries: ids before the horizon's first id are stamped before it.
  const stampOf = (event: { created_at: Date }) => event.created_at.getTime();
  const before = (horizon: number | undefined) => (horizon === undefined ? undefined : firstIdAt(horizon));
  if (query.after === 'latest') {
    const [newest] = await readWithinSyncHorizon(syncHorizon.of(companyId), stampOf, async (horizon) => {
      const event = await newestEvent(db, companyId, before(horizon));
      return event ? [event] : [];
    });
    return { data: [], next_after: eventPublicId(newest?.id ?? BEFORE_ALL) };
  }
  const after = uuidOf(query.after);
  // Long polling on real time (a request's wait, not a date of the domain).
  const deadline = performance.now() + (query.wait ?? 20) * 1000;
  for (;;) {
    const rows = await readWithinSyncHorizon(syncHorizon.of(companyId), stampOf, (horizon) =>
      eventsAfter(db, companyId, { after, before: before(horizon) }, FEED_PAGE),
    );
    if (rows.length > 0 || performance.now() >= deadline || signal?.aborted) {
      return {
        data: rows.map((row) => envelopeOf(companyId, row)),
        next_after: rows.length > 0 ? eventPublicId((rows.at(-1) as { id: string }).id) : query.after,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MILLISECONDS));
  }
}
