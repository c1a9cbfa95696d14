import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { withSyncStamp } from '../../../../src/db/sync-stamp.ts';
import { startJobs } from '../../../../src/jobs/runner.ts';
import { webhookDeliveryJob } from '../../../../src/jobs/webhook-delivery.ts';
import { recordEvents } from '../../../../src/modules/events/events.service.ts';
import { toDate } from '../../../../src/time/clock.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { type Receiver, startReceiver } from '../../../helpers/receiver.ts';

/**
 * Decision 0021's promise under concurrency: with fan-out transactions of several tenants committing in any
 * order (some held open while later ones commit) and two workers claiming at the same time, every delivery is
 * sent and recorded, and nothing is left behind (no claim, no record of new deliveries).
 */
let ctx: TestContext;
let receiver: Receiver;
beforeAll(async () => {
  ctx = await createTestContext();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await ctx.close();
});

/** A deterministic sequence of numbers in [0, 1), so that a failure can be run again as it was. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

it('sends every delivery once the fan-outs are in, whatever order they committed in, with two workers', {
  timeout: 60_000,
}, async () => {
  const next = random(19);
  const tenants: TestCompany[] = [];
  for (let index = 0; index < 3; index++) {
    const tenant = await ctx.createCompany({ name: `Tenant ${index}` });
    for (let endpoint = 0; endpoint < 2; endpoint++) {
      const created = await tenant.live.post('/v1/webhook-endpoints', {
        url: `${receiver.url}/tenant-${index}/${endpoint}`,
        events: ['employee.updated'],
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    tenants.push(tenant);
  }
  const deps = { db: ctx.db, clock: ctx.clock, targets: ctx.deps.webhookTargets };
  const workers = startJobs(
    [webhookDeliveryJob(deps, { idleMilliseconds: 5 }), webhookDeliveryJob(deps, { idleMilliseconds: 5 })],
    pino({ level: 'warn' }),
  );
  try {
    // 120 event transactions of random tenants, 3 at a time; about one in four stays open 20–80 ms after
    // recording its event, so that later ones of the same tenant commit first.
    const transactions = Array.from({ length: 120 }, () => ({
      tenant: tenants[Math.floor(next() * tenants.length)] as TestCompany,
      holdMilliseconds: next() < 0.25 ? 20 + Math.floor(next() * 60) : 0,
    }));
    const lanes = Array.from({ length: 3 }, async (_, lane) => {
      for (let index = lane; index < transactions.length; index += 3) {
        const { tenant, holdMilliseconds } = transactions[index] as (typeof transactions)[number];
        await withSyncStamp(ctx.db, ctx.clock, tenant.id, async (tx, stamp) => {
          await recordEvents(tx, tenant.id, toDate(stamp), [
            { type: 'employee.updated', data: { employee_id: '00000000-0000-7000-8000-000000000000' } },
          ]);
          if (holdMilliseconds > 0) await new Promise((resolve) => setTimeout(resolve, holdMilliseconds));
        });
      }
    });
    await Promise.all(lanes);
    const expected = transactions.length * 2;
    await receiver.waitFor(expected, 30_000);
    await expect
      .poll(
        async () =>
          (
            await sql<{ pending: number }>`
              select count(*)::int as pending from webhook_deliveries where status <> 'succeeded'`.execute(
              ctx.db,
            )
          ).rows[0]?.pending,
        { timeout: 10_000, interval: 50 },
      )
      .toBe(0);
  } finally {
    await workers.stop();
  }
  const counts = await sql<{ deliveries: number; claims: number; records: number }>`
    select (select count(*)::int from webhook_deliveries where status = 'succeeded') as deliveries,
           (select count(*)::int from webhook_claims) as claims,
           (select count(*)::int from webhook_new_deliveries) as records`.execute(ctx.db);
  expect(counts.rows[0]).toEqual({ deliveries: 240, claims: 0, records: 0 });
  // Each delivery reached its endpoint (at least once: a kept-alive connection the receiver closed unanswered
  // is sent once more, by design).
  const ids = receiver.requests.map((request) => `${request.path} ${request.headers['webhook-id']}`);
  expect(new Set(ids).size).toBe(240);
  expect(ids.length).toBeGreaterThanOrEqual(240);
});
