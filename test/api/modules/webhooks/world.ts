import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { WebhookDeliveriesTable } from '../../../../src/db/schema.ts';
import { webhookDeliveryJob } from '../../../../src/jobs/webhook-delivery.ts';
import type { ClaimedDelivery, Success } from '../../../../src/modules/webhooks/deliveries.repo.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { type Receiver, startReceiver } from '../../../helpers/receiver.ts';

/**
 * The world of the webhook tests (issue 36: one file became three, endpoints.test.ts, deliveries.test.ts and
 * claim.test.ts): a test context, a receiver, a fresh company per test, and the helpers they share. The bindings
 * are live: a test file reads them after useWebhookWorld()'s hooks have set them.
 */
export let ctx: TestContext;
export let receiver: Receiver;
export let company: TestCompany;

export function useWebhookWorld(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });
  beforeEach(async () => {
    company = await ctx.createCompany();
    receiver.requests.length = 0;
    receiver.respond = () => 200;
  });
  // Each test's endpoints (and, with them, their deliveries) go, so no test sends another test's deliveries.
  afterEach(async () => {
    await sql`delete from webhook_endpoints`.execute(ctx.db);
  });
}

export const job = () =>
  webhookDeliveryJob({ db: ctx.db, clock: ctx.clock, targets: ctx.deps.webhookTargets });

/** Runs the delivery worker until nothing is due: every claimed attempt is sent and its outcome recorded. */
export async function deliverDue(): Promise<void> {
  const worker = job();
  for (;;) {
    const claimed = await worker.tick();
    await worker.drain?.();
    if (claimed === 0) return;
  }
}

export async function subscribe(
  owner: TestCompany,
  events: string[],
  extra: Record<string, unknown> = {},
): Promise<{ id: string; secret: string; url: string }> {
  const response = await owner.live.post('/v1/webhook-endpoints', {
    url: `${receiver.url}/hooks/${Math.random().toString(36).slice(2)}`,
    events,
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** Columns of one delivery as stored, read from the table (for what the API does not show). */
export async function storedDelivery<Column extends keyof WebhookDeliveriesTable & string>(
  owner: TestCompany,
  id: string,
  columns: Column[],
) {
  return await ctx.db
    .selectFrom('webhook_deliveries')
    .select(columns)
    .where('company_id', '=', owner.id)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export async function deliveriesOf(owner: TestCompany, endpointId: string) {
  const response = await owner.live.get(`/v1/webhook-endpoints/${endpointId}/deliveries`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<Record<string, unknown> & { id: string }>;
}

export const seconds = (instant: unknown) => Date.parse(String(instant)) / 1000;

/** A 204 success of a claimed attempt, as the worker hands it to recordSuccesses. */
export const successOf = (delivery: ClaimedDelivery): Success => ({
  company_id: delivery.company_id,
  id: delivery.id,
  claim_id: delivery.claim_id,
  attempts: delivery.attempts,
  response_status: 204,
  request_headers: { 'webhook-id': 'evt_x' },
  response_body: '',
});
