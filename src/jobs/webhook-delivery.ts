import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { ClaimKey, Success } from '../modules/webhooks/deliveries.repo.ts';
import {
  abandonDelivery,
  type ClaimedDelivery,
  claimDueDeliveries,
  LEASE_SECONDS,
  recordOutcome,
  recordSucceeded,
  releaseClaim,
  type SentEvent,
  sentEventOf,
  signedRequestOf,
} from '../modules/webhooks/deliveries.service.ts';
import type { attemptDelivery } from '../modules/webhooks/sender.ts';
import type { TargetPolicy } from '../modules/webhooks/target.ts';
import { eventToDelivery } from '../platform/metrics.ts';
import { type Clock, toDate } from '../time/clock.ts';
import type { Job } from './runner.ts';

/**
 * The sender and its HTTP client (undici: a hundred modules, some 25 MB resident) are loaded at the first
 * delivery, not at start (issue 42: a node that has not delivered yet, or an API node, does not carry them).
 */
let sender: typeof attemptDelivery | null = null;
async function loadSender(): Promise<typeof attemptDelivery> {
  sender ??= (await import('../modules/webhooks/sender.ts')).attemptDelivery;
  return sender;
}

export type WebhookDeliveryDeps = { db: Db; clock: Clock; targets: TargetPolicy; log?: Logger };

/** Attempts one worker keeps in flight: a slow receiver (up to 10 s) holds one slot, not the whole worker. */
const DEFAULT_CONCURRENCY = 32;
/** Claimed ahead of the free slots, so that one claim statement serves several slots' worth of attempts. */
const CLAIM_AHEAD = 16;
/** Successes wait at most this long, or until there are this many, to be recorded in one statement. */
const SUCCESS_BATCH_MILLISECONDS = 40;
const SUCCESS_BATCH_SIZE = 512;
/**
 * A claimed row not yet started when half its lease has gone is left alone: its lease ends before the attempt
 * could, and another claim takes it then. (Only a worker stuck behind slow receivers gets there.)
 */
const START_WITHIN_MILLISECONDS = (LEASE_SECONDS * 1000) / 2;

/**
 * Sends due webhook deliveries (issue 19: at wire speed). Each tick claims a batch of due rows when its queue of
 * claimed rows runs low (up to CLAIM_AHEAD times the free slots, in the claim's fair order), and starts attempts
 * from the queue into the free slots without waiting for them. A failed attempt records its outcome at once (the
 * retry schedule and the endpoint's failure streak); successes are recorded together, in one statement per
 * batch, fenced by their claim like every outcome. A worker that dies before recording leaves its rows claimed:
 * their lease ends and they are sent again (at least once). Stopping waits for the attempts in flight (at most
 * the 10 s request limit) and records their successes.
 */
export function webhookDeliveryJob(
  deps: WebhookDeliveryDeps,
  options: { concurrency?: number; idleMilliseconds?: number } = {},
): Job {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const inFlight = new Set<Promise<void>>();
  /** Claimed deliveries not started yet, each with what it sends of its event (made once per event). */
  const queue: Array<{ delivery: ClaimedDelivery; event: SentEvent; claimedAt: number }> = [];
  let successes: Success[] = [];
  /**
   * The claims of first attempts this worker holds (migration 0031), by id: how many of their deliveries have no
   * outcome handed over yet, and whether one of them may still need the claim to expire (an attempt not started,
   * or an outcome that failed to be recorded), in which case the worker never deletes it.
   */
  const claims = new Map<string, { outstanding: number; keep: boolean }>();
  /** Claims with every outcome handed over, deleted with the next batch of successes. */
  let finishedClaims: ClaimKey[] = [];
  const settle = (delivery: ClaimedDelivery, keep = false) => {
    if (delivery.claim_id === null) return;
    const claim = claims.get(delivery.claim_id);
    if (!claim) return;
    claim.outstanding--;
    if (keep) claim.keep = true;
    if (claim.outstanding > 0) return;
    claims.delete(delivery.claim_id);
    if (!claim.keep) finishedClaims.push({ company_id: delivery.company_id, id: delivery.claim_id });
  };
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  /** Claims with a success that failed to be recorded: left to expire, so that their deliveries are sent again. */
  const failedClaims = new Set<string>();
  let draining = false;
  /** Wakes a tick waiting for a free slot (one waiter at most: the runner runs one tick at a time). */
  let slotFreed: (() => void) | null = null;

  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    const batch = successes;
    successes = [];
    // A claim is finished once its last outcome was handed over: its last success is in this batch or an earlier
    // one, never a later one.
    const ended = finishedClaims;
    finishedClaims = [];
    if (batch.length === 0 && ended.length === 0) return flushing;
    let finished: ClaimKey[] = [];
    flushing = flushing
      .then(() => {
        // A claim whose success an earlier batch failed to record is kept (below), not deleted: it expires. (Its
        // id is forgotten here: a claim is finished once.)
        finished = ended.filter((claim) => !failedClaims.delete(claim.id));
        return recordSucceeded(deps.db, deps.clock, batch, finished);
      })
      .catch((error: unknown) => {
        // Not recorded: the rows stay claimed until their lease ends, then they are sent again. A claim this batch
        // was to end stays too, and no later batch names it.
        const ending = new Set(finished.map((claim) => claim.id));
        for (const { claim_id } of batch)
          if (claim_id !== null && !ending.has(claim_id)) failedClaims.add(claim_id);
        deps.log?.error({ err: error, deliveries: batch.length }, 'webhook successes failed to be recorded');
      });
    return flushing;
  };

  /**
   * The instant of the attempts started in one turn of the event loop (their webhook-timestamp), read from the
   * clock once for all of them.
   */
  let turnInstant: Date | null = null;
  const attemptInstant = (): Date => {
    if (turnInstant === null) {
      turnInstant = toDate(deps.clock.now());
      setImmediate(() => {
        turnInstant = null;
      });
    }
    return turnInstant;
  };

  const attempt = async (delivery: ClaimedDelivery, event: SentEvent) => {
    if (delivery.endpoint_status !== 'active') {
      await abandonDelivery(deps.db, deps.clock, delivery);
      settle(delivery);
      return;
    }
    const send = sender ?? (await loadSender());
    const outcome = await send(signedRequestOf(delivery, attemptInstant(), event), deps.targets);
    if (outcome.detail) {
      deps.log?.info({ delivery: delivery.id, detail: outcome.detail }, `webhook attempt: ${outcome.error}`);
    }
    if (outcome.succeeded) {
      eventToDelivery.observe(
        Math.max(0, deps.clock.now().epochMilliseconds - delivery.event_created_at.getTime()) / 1000,
      );
    }
    if (outcome.succeeded && outcome.responseStatus !== null) {
      successes.push({
        company_id: delivery.company_id,
        id: delivery.id,
        claim_id: delivery.claim_id,
        attempts: delivery.attempts,
        response_status: outcome.responseStatus,
        request_headers: outcome.requestHeaders ?? null,
        response_body: outcome.responseBody ?? null,
      });
      if (successes.length >= SUCCESS_BATCH_SIZE) void flush();
      else flushTimer ??= setTimeout(() => void flush(), SUCCESS_BATCH_MILLISECONDS);
      settle(delivery);
      return;
    }
    await recordOutcome(deps.db, deps.clock, delivery, outcome);
    settle(delivery);
    if (finishedClaims.length > 0) flushTimer ??= setTimeout(() => void flush(), SUCCESS_BATCH_MILLISECONDS);
  };

  let startScheduled = false;
  const start = (delivery: ClaimedDelivery, event: SentEvent) => {
    const running: Promise<void> = attempt(delivery, event)
      .catch((error: unknown) => {
        // The row stays claimed until its lease ends and is then attempted again: nothing is lost. (Not settled
        // yet: whatever threw came before.)
        settle(delivery, true);
        deps.log?.error({ err: error, delivery: delivery.id }, 'webhook delivery attempt failed to complete');
      })
      .finally(() => {
        inFlight.delete(running);
        // The freed slot takes the next claimed row in this turn of the event loop, also while the tick awaits a
        // claim, once the answers that came together have been handled: the attempts they free go out together
        // (the receiver is then woken once for several, not once each). A tick waiting for a slot wakes after.
        if (startScheduled) return;
        startScheduled = true;
        setImmediate(() => {
          startScheduled = false;
          if (!draining) startQueued();
          slotFreed?.();
          slotFreed = null;
        });
      });
    inFlight.add(running);
  };

  const startQueued = () => {
    while (inFlight.size < concurrency && queue.length > 0) {
      const next = queue.shift() as (typeof queue)[number];
      if (performance.now() - next.claimedAt > START_WITHIN_MILLISECONDS) {
        settle(next.delivery, true);
        continue;
      }
      start(next.delivery, next.event);
    }
  };

  return {
    name: 'webhook-delivery',
    idleMilliseconds: options.idleMilliseconds ?? 500,
    async tick() {
      startQueued();
      // The queue is refilled when half empty, in claims of up to CLAIM_AHEAD times the slots: a claim takes
      // longer than the attempts already queued, so waiting for the queue to run dry would leave slots idle.
      if (queue.length < (concurrency * CLAIM_AHEAD) / 2) {
        const claimed = await claimDueDeliveries(
          deps.db,
          deps.clock,
          concurrency * CLAIM_AHEAD - queue.length,
        );
        const claimedAt = performance.now();
        // An event delivered to several endpoints is sent the same: made once per claim (by tenant and id, as the
        // database keys events).
        const events = new Map<string, SentEvent>();
        for (const delivery of claimed) {
          if (delivery.claim_id !== null) {
            const claim = claims.get(delivery.claim_id);
            if (claim) claim.outstanding++;
            else claims.set(delivery.claim_id, { outstanding: 1, keep: false });
          }
          const key = delivery.company_id + delivery.event_id;
          let event = events.get(key);
          if (event === undefined) {
            event = sentEventOf(delivery);
            events.set(key, event);
          }
          queue.push({ delivery, event, claimedAt });
        }
        startQueued();
        // Nothing due: the runner waits its idle time (attempts in flight finish on their own).
        return claimed.length;
      }
      // The queue holds more than the slots: wait for a slot. (One promise per wait, not Promise.race over the
      // attempts in flight, which would add a reaction to each of them at every tick.)
      if (inFlight.size > 0) {
        await new Promise<void>((resolve) => {
          slotFreed = resolve;
        });
      }
      return 1;
    },
    async drain() {
      draining = true;
      await Promise.all(inFlight);
      // Rows claimed but not started are due again at once, for another worker (or this one after a restart).
      const unstarted = queue.splice(0);
      await Promise.all(
        unstarted.map(async ({ delivery }) => {
          await releaseClaim(deps.db, deps.clock, delivery);
          settle(delivery);
        }),
      );
      await flush();
    },
  };
}
