import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import {
  abandonDelivery,
  type ClaimedDelivery,
  claimDueDeliveries,
  recordOutcome,
  signedRequestOf,
} from '../modules/webhooks/deliveries.service.ts';
import { attemptDelivery } from '../modules/webhooks/sender.ts';
import type { TargetPolicy } from '../modules/webhooks/target.ts';
import { type Clock, toDate } from '../time/clock.ts';
import type { Job } from './runner.ts';

export type WebhookDeliveryDeps = { db: Db; clock: Clock; targets: TargetPolicy; log?: Logger };

/** Attempts one worker keeps in flight: a slow receiver (up to 10 s) holds one slot, not the whole worker. */
const DEFAULT_CONCURRENCY = 32;

/**
 * Sends due webhook deliveries. Each tick claims as many due rows as there are free slots and starts their
 * attempts without waiting for them; a finished attempt records its outcome and frees its slot. Stopping waits
 * for the attempts in flight (at most the 10 s request limit).
 */
export function webhookDeliveryJob(
  deps: WebhookDeliveryDeps,
  options: { concurrency?: number; idleMilliseconds?: number } = {},
): Job {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const inFlight = new Set<Promise<void>>();

  const attempt = async (delivery: ClaimedDelivery) => {
    if (delivery.endpoint_status !== 'active') {
      await abandonDelivery(deps.db, deps.clock, delivery);
      return;
    }
    const outcome = await attemptDelivery(signedRequestOf(delivery, toDate(deps.clock.now())), deps.targets);
    if (outcome.detail) {
      deps.log?.info({ delivery: delivery.id, detail: outcome.detail }, `webhook attempt: ${outcome.error}`);
    }
    await recordOutcome(deps.db, deps.clock, delivery, outcome);
  };

  const start = (delivery: ClaimedDelivery) => {
    const running: Promise<void> = attempt(delivery)
      .catch((error: unknown) => {
        // The row stays claimed until its lease ends and is then attempted again: nothing is lost.
        deps.log?.error({ err: error, delivery: delivery.id }, 'webhook delivery attempt failed to complete');
      })
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  };

  return {
    name: 'webhook-delivery',
    idleMilliseconds: options.idleMilliseconds ?? 500,
    async tick() {
      if (inFlight.size >= concurrency) {
        await Promise.race(inFlight);
        return 1;
      }
      const claimed = await claimDueDeliveries(deps.db, deps.clock, concurrency - inFlight.size);
      for (const delivery of claimed) start(delivery);
      return claimed.length;
    },
    async drain() {
      await Promise.all(inFlight);
    },
  };
}
