import type { Static } from 'typebox';
import type { Db, Executor } from '../../db/database.ts';
import type { WebhookDeliveryStatus } from '../../db/schema.ts';
import { readSyncHorizon, syncStamp, withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { firstIdAt, idsAt } from '../../platform/ids.ts';
import { webhookDeliveries, webhookEndpointsAutoDisabled } from '../../platform/metrics.ts';
import { keysetPage, mapPage, type Page, timestampKey } from '../../platform/pagination.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { type Clock, formatInstant, toDate } from '../../time/clock.ts';
import { envelopeOf, eventPublicId, recordEvents } from '../events/events.service.ts';
import {
  type ClaimedDelivery,
  type ClaimKey,
  claimDue,
  type DeliveryRow,
  endExpiredClaims,
  eventIdsBetween,
  findDeliveryDetail,
  insertDelivery,
  insertReplayDeliveries,
  makeDeliveriesDue,
  recordSuccesses,
  type Success,
  selectDeliveries,
  updateOwnedDelivery,
} from './deliveries.repo.ts';
import { endFailureStreak, extendFailureStreak } from './endpoints.repo.ts';
import { disableEndpoint, findEndpoint } from './endpoints.service.ts';
import type { AttemptOutcome, SignedRequest } from './sender.ts';
import type { WebhookDelivery, WebhookDeliveryDetail } from './webhooks.schemas.ts';

export type { ClaimedDelivery } from './deliveries.repo.ts';

/** Delays before each retry, after a failed attempt (spec, Limits): 1 min, 5 min, 30 min, 2 h, 12 h, 24 h. */
export const RETRY_DELAYS_SECONDS = [60, 300, 1_800, 7_200, 43_200, 86_400] as const;
/** An endpoint whose deliveries have all failed for this long is disabled (spec, Limits). */
export const AUTO_DISABLE_AFTER_SECONDS = 7 * 24 * 3600;
/**
 * A claimed attempt owns its delivery until this lease ends; a worker killed mid-send leaves the row to be
 * claimed again then. It is far longer than an attempt can take (10 s), so a live worker's attempt is never
 * sent twice at once.
 */
export const LEASE_SECONDS = 60;

export type DeliveryView = Static<typeof WebhookDelivery>;
export type DeliveryDetailView = Static<typeof WebhookDeliveryDetail>;

const optionalInstant = (value: Date | null) => (value === null ? null : formatInstant(value));

function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    ...row,
    event_id: eventPublicId(row.event_id),
    last_attempt_at: optionalInstant(row.last_attempt_at),
    next_attempt_at: optionalInstant(row.next_attempt_at),
    created_at: formatInstant(row.created_at),
  };
}

async function getDelivery(db: Executor, companyId: string, endpointId: string, id: string) {
  const row = await selectDeliveries(db, companyId)
    .where('d.endpoint_id', '=', endpointId)
    .where('d.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook delivery');
  return toDeliveryView(row);
}

/** An endpoint's deliveries, newest first. */
/**
 * GET …/deliveries/{deliveryId}: one delivery with what its last attempt sent (the URL, the headers, the body:
 * the event's envelope, the same bytes on every attempt) and what came back (the status and the first 4 KB of
 * the body). `request` is null until an attempt sent something; `response` is null when no answer came.
 */
export async function getDeliveryDetail(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  endpointId: string,
  id: string,
): Promise<DeliveryDetailView> {
  const { companyId } = tenant;
  const row = await findDeliveryDetail(deps.db, companyId, endpointId, id);
  if (!row) throw notFound('Webhook delivery');
  const {
    url,
    event_type,
    event_data,
    event_created_at,
    last_request_headers,
    last_response_body,
    ...delivery
  } = row;
  const view = toDeliveryView({ ...delivery, event_type });
  const body = JSON.stringify(
    envelopeOf(companyId, {
      id: row.event_id,
      type: event_type,
      data: event_data,
      created_at: event_created_at,
    }),
  );
  return {
    ...view,
    request: last_request_headers ? { url, headers: last_request_headers, body } : null,
    response:
      row.last_response_status === null
        ? null
        : { status: row.last_response_status, body: last_response_body ?? '' },
  };
}

export async function listDeliveries(
  deps: Pick<AppDeps, 'db' | 'cursors'>,
  tenant: CompanyScope,
  endpointId: string,
  query: { limit?: number | undefined; cursor?: string | undefined },
): Promise<Page<DeliveryView>> {
  const { db, cursors: codec } = deps;
  const { companyId } = tenant;
  if (!(await findEndpoint(db, companyId, endpointId))) throw notFound('Webhook endpoint');
  const page = await keysetPage(selectDeliveries(db, companyId).where('d.endpoint_id', '=', endpointId), {
    codec,
    listing: `webhook-deliveries|endpoint=${endpointId}`,
    sort: [
      { column: 'd.created_at', kind: 'timestamp' },
      { column: 'd.id', kind: 'text' },
    ],
    direction: 'desc',
    limit: query.limit ?? 25,
    cursor: query.cursor,
    keyOf: (row) => [timestampKey(row.created_at), row.id],
  });
  return mapPage(page, toDeliveryView);
}

async function requireActiveEndpoint(db: Executor, companyId: string, endpointId: string) {
  const endpoint = await findEndpoint(db, companyId, endpointId, { lock: true });
  if (!endpoint) throw notFound('Webhook endpoint');
  if (endpoint.status !== 'active') {
    throw new ApiError(
      'conflict',
      'The webhook endpoint is disabled; re-enable it (PATCH status active) first.',
      {
        errors: { status: [endpoint.status] },
      },
    );
  }
  return endpoint;
}

/** POST …/test: a ping event, delivered to this endpoint alone. */
export async function sendPing(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  endpointId: string,
): Promise<DeliveryView> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  return await withSyncStamp(db, clock, companyId, async (tx, stamp) => {
    const at = toDate(stamp);
    await requireActiveEndpoint(tx, companyId, endpointId);
    const [eventId] = await recordEvents(tx, companyId, at, [{ type: 'ping', data: {} }]);
    const id = await insertDelivery(tx, companyId, { endpointId, eventId: eventId as string, at });
    return await getDelivery(tx, companyId, endpointId, id);
  });
}

/**
 * POST …/retry (issue 41): the delivery's next attempt, due now, whatever its state, with the same `webhook-id`. A
 * finished delivery gets one more attempt (if it fails, it is failed again); a pending one waiting for a scheduled
 * retry has it brought forward. A first attempt not yet sent, or an attempt in flight, is already being sent: the
 * delivery is answered as it is. A disabled endpoint is 409.
 */
export async function retryDelivery(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  endpointId: string,
  id: string,
): Promise<DeliveryView> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const at = toDate(clock.now());
  return await db.transaction().execute(async (tx) => {
    await requireActiveEndpoint(tx, companyId, endpointId);
    // Read first: a delivery of another endpoint (or tenant) is 404 before anything changes.
    await getDelivery(tx, companyId, endpointId, id);
    await makeDeliveriesDue(tx, companyId, { id }, at, 'single_attempt');
    return await getDelivery(tx, companyId, endpointId, id);
  });
}

/** How long finished deliveries, and then their events, are kept (the maintenance job's sweep). */
export const DELIVERY_RETENTION_DAYS = 30;

/** At most this many events a replay sends (narrow the range or the types past it). */
export const MAX_REPLAY_EVENTS = 10_000;

/**
 * POST …/replay (issue 41): every event of the tenant in [from, to) of the types the endpoint subscribes to (and
 * of `types`, when given) sent again to this endpoint, due now with the usual retries (an attempt already in
 * flight is that event's); each keeps its event's `webhook-id`, so a receiver that deduplicates sees nothing
 * twice. Events are kept for DELIVERY_RETENTION_DAYS after their deliveries end.
 */
export async function replayEvents(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  endpointId: string,
  body: { from: string; to: string; types?: string[] | undefined },
): Promise<{ deliveries: number; from: string; to: string; types: string[] }> {
  const { db, clock } = deps;
  const { companyId } = tenant;
  const from = Date.parse(body.from);
  const to = Date.parse(body.to);
  if (!(from < to)) throw invalid({ to: 'must be after from' });
  // Sync-stamped, as every write of deliveries (sendPing): the new deliveries' ids carry the stamp.
  return await withSyncStamp(db, clock, companyId, async (tx, stamp) => {
    const at = toDate(stamp);
    const endpoint = await requireActiveEndpoint(tx, companyId, endpointId);
    const types = endpoint.events.filter((type) => body.types === undefined || body.types.includes(type));
    if (types.length === 0) throw invalid({ types: 'names no event type this endpoint subscribes to' });
    const eventIds = await eventIdsBetween(
      tx,
      companyId,
      { fromId: firstIdAt(from), toId: firstIdAt(to) },
      types,
      MAX_REPLAY_EVENTS + 1,
    );
    if (eventIds.length > MAX_REPLAY_EVENTS) {
      throw invalid({
        to: `the range holds more than ${MAX_REPLAY_EVENTS} events of these types: narrow it, or name fewer types`,
      });
    }
    // An event already sent to this endpoint is sent again on its delivery (one per event and endpoint); one
    // it never had (subscribed later, or its delivery swept) gets a new one.
    await makeDeliveriesDue(tx, companyId, { endpointId, eventIds }, at, 'retries');
    const ids = idsAt(at, 0, eventIds.length);
    await insertReplayDeliveries(
      tx,
      companyId,
      endpointId,
      eventIds.map((eventId, index) => ({ eventId, id: ids[index] as string })),
      at,
    );
    return {
      deliveries: eventIds.length,
      from: formatInstant(new Date(from)),
      to: formatInstant(new Date(to)),
      types,
    };
  });
}

/**
 * Claims up to `limit` due deliveries, taking turns across tenants whose account has an active service (a tenant
 * without service keeps its deliveries pending, paused, until it is active again), and starts an attempt on each.
 * The claim commits before any request is sent: no network call happens inside a transaction.
 *
 * Two kinds of due delivery (decision 0021):
 * - A first attempt made by an event's fan-out has no next_attempt_at. It is taken through its tenant's cursor:
 *   the pending deliveries after it, in id order, up to the sync horizon. The cursor then moves past them, and one
 *   webhook_claims row records the range and its lease. Nothing is written on the deliveries: the attempt is
 *   counted with its outcome, and the API shows it as started by the claim. The cursor is locked SKIP LOCKED, so
 *   one claim at a time takes a tenant's first attempts.
 * - A delivery with a due time (a retry, a manual retry, a ping, a first attempt whose claim ended) is locked
 *   FOR UPDATE SKIP LOCKED and leased on its row: attempts + 1, last_attempt_at now, its answer not known yet.
 *
 * Fairness: at most `limit` tenants with due work are taken, longest-unserved first (queue_turns). Each offers up
 * to `limit` of its due deliveries of both kinds, oldest first (a first attempt is due since it was made), and the
 * batch interleaves them (every tenant's first, then every tenant's second …). So one tenant's backlog delays
 * another's first delivery by at most one claim.
 *
 * Claims whose lease has ended are ended first, every few seconds (endExpiredClaims).
 */
export async function claimDueDeliveries(db: Db, clock: Clock, limit: number): Promise<ClaimedDelivery[]> {
  const now = clock.now();
  const at = toDate(now);
  // Claims whose lease ended are looked for every few seconds, not at every claim: a lease is 60 s.
  const checked = expiryChecked.get(db);
  if (
    checked === undefined ||
    at.getTime() - checked >= EXPIRY_CHECK_MILLISECONDS ||
    at.getTime() < checked
  ) {
    expiryChecked.set(db, at.getTime());
    await endExpiredClaims(db, at);
  }
  // The horizon first, in a statement of its own: the claim's snapshot must come after it.
  const horizon = await readSyncHorizon(db, clock);
  return await claimDue(db, at, toDate(now.add({ seconds: LEASE_SECONDS })), limit, horizon);
}

const EXPIRY_CHECK_MILLISECONDS = 5_000;
/** When this process last ended expired claims, per database. */
const expiryChecked = new WeakMap<Db, number>();

/** What every attempt of a delivery sends of its event: the envelope's exact bytes and its public id (webhook-id). */
export type SentEvent = { body: string; eventId: string };

/** A delivery's SentEvent, made once for all the deliveries of one event that a worker claimed together. */
export function sentEventOf(delivery: ClaimedDelivery): SentEvent {
  const body = JSON.stringify(
    envelopeOf(delivery.company_id, {
      id: delivery.event_id,
      type: delivery.event_type,
      data: delivery.event_data,
      created_at: delivery.event_created_at,
    }),
  );
  return { body, eventId: eventPublicId(delivery.event_id) };
}

/** The signed request of one attempt at `at`, sending `event` (sentEventOf). */
export function signedRequestOf(delivery: ClaimedDelivery, at: Date, event: SentEvent): SignedRequest {
  return {
    url: delivery.url,
    eventId: event.eventId,
    timestamp: at,
    body: event.body,
    secret: delivery.secret,
  };
}

/**
 * Records an attempt's outcome. A failure schedules the next retry (or ends the delivery as failed), extends the
 * endpoint's failure streak, and disables the endpoint once the streak is 7 days old; a success ends the streak.
 * Fenced by `owned`.
 */
export async function recordOutcome(
  db: Db,
  clock: Clock,
  delivery: ClaimedDelivery,
  outcome: AttemptOutcome,
): Promise<void> {
  const now = clock.now();
  const at = toDate(now);
  const delay = delivery.automatic_retries ? RETRY_DELAYS_SECONDS[delivery.attempts - 1] : undefined;
  // The schedule runs from the attempt's start (its claim, as last_attempt_at records it), so that a slow
  // endpoint does not push its own retries later and the delays read the same in the deliveries' log.
  const attempted = Temporal.Instant.fromEpochMilliseconds(delivery.claimed_at.getTime());
  const next = !outcome.succeeded && delay !== undefined ? toDate(attempted.add({ seconds: delay })) : null;
  const status: WebhookDeliveryStatus = outcome.succeeded ? 'succeeded' : next ? 'pending' : 'failed';
  await db.transaction().execute(async (tx) => {
    const updated = await updateOwnedDelivery(tx, delivery, {
      status,
      next_attempt_at: next,
      last_response_status: outcome.responseStatus,
      last_error: outcome.error,
      last_request_headers: outcome.requestHeaders ? JSON.stringify(outcome.requestHeaders) : null,
      last_response_body: outcome.responseBody ?? null,
      updated_at: at,
    });
    if (!updated) return;
    webhookDeliveries.inc({ outcome: outcome.succeeded ? 'succeeded' : next ? 'retry' : 'failed' });
    if (outcome.succeeded) {
      await endFailureStreak(tx, delivery.company_id, delivery.endpoint_id);
      return;
    }
    const endpoint = await extendFailureStreak(tx, delivery.company_id, delivery.endpoint_id, at);
    const streakStart = endpoint?.failing_since;
    if (
      endpoint?.status === 'active' &&
      streakStart &&
      streakStart.getTime() <= now.subtract({ seconds: AUTO_DISABLE_AFTER_SECONDS }).epochMilliseconds
    ) {
      // The endpoint's new updated_at is a sync stamp; the delivery keeps the outcome's instant.
      const stamp = toDate(await syncStamp(tx, clock, delivery.company_id));
      await disableEndpoint(tx, delivery.company_id, delivery.endpoint_id, 'consecutive_failures', stamp);
      webhookEndpointsAutoDisabled.inc();
    }
  });
}

/** Successful attempts recorded together (one statement for the batch; deliveries.repo.ts recordSuccesses). */
export async function recordSucceeded(
  db: Db,
  clock: Clock,
  successes: Success[],
  finishedClaims: ClaimKey[] = [],
): Promise<void> {
  const recorded = await recordSuccesses(db, toDate(clock.now()), successes, finishedClaims);
  webhookDeliveries.inc({ outcome: 'succeeded' }, recorded);
}

/** A claimed delivery a stopping worker did not start: due again now, its attempt given back. */
export async function releaseClaim(db: Db, clock: Clock, delivery: ClaimedDelivery): Promise<void> {
  const at = toDate(clock.now());
  await updateOwnedDelivery(db, delivery, {
    attempts: delivery.attempts - 1,
    next_attempt_at: at,
    updated_at: at,
  });
}

/** A claimed delivery whose endpoint was disabled after the fan-out: it ends as failed without being sent. */
export async function abandonDelivery(db: Db, clock: Clock, delivery: ClaimedDelivery): Promise<void> {
  webhookDeliveries.inc({ outcome: 'abandoned' });
  await updateOwnedDelivery(db, delivery, {
    status: 'failed',
    // Nothing was sent: the claim's attempt is given back.
    attempts: delivery.attempts - 1,
    next_attempt_at: null,
    last_error: 'endpoint disabled before delivery',
    updated_at: toDate(clock.now()),
  });
}
