import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowAnySyncStamp } from '../../../src/db/sync-stamp.ts';
import { MAX_PENDING_REPORTS } from '../../../src/modules/reports/reports.service.ts';
import { claimDueDeliveries } from '../../../src/modules/webhooks/deliveries.service.ts';
import {
  createTestContext,
  generateReports,
  reportWorker,
  type TestCompany,
  type TestContext,
} from '../../helpers/context.ts';
import { hire } from '../../helpers/resources.ts';

/** One tenant's backlog does not hold up another's work by more than one claim round. */
let ctx: TestContext;
let busy: TestCompany;
let quiet: TestCompany;
beforeAll(async () => {
  ctx = await createTestContext();
  busy = await ctx.createCompany({ name: 'Busy' });
  quiet = await ctx.createCompany({ name: 'Quiet' });
});
afterAll(() => ctx.close());

const registry = { type: 'time_registry_monthly', format: 'csv', params: { month: '2026-01' } };

describe('reports', () => {
  it(`caps a company at ${MAX_PENDING_REPORTS} reports processing, also under concurrency (429 with Retry-After)`, async () => {
    ctx.clock.advance(61);
    const company = await ctx.createCompany({ name: 'Eager' });
    const answers = await Promise.all(
      Array.from({ length: MAX_PENDING_REPORTS + 5 }, () => company.live.post('/v1/reports', registry)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 202)).toHaveLength(MAX_PENDING_REPORTS);
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(refused).toHaveLength(5);
    for (const answer of refused) {
      expect(answer.json().code).toBe('rate_limited');
      expect(answer.headers['retry-after']).toBe('30');
    }
  });

  it("generates another company's first report within one claim of a full backlog", async () => {
    await generateReports(ctx); // an empty queue to start from
    ctx.clock.advance(61);
    for (let index = 0; index < MAX_PENDING_REPORTS; index++) {
      expect((await busy.live.post('/v1/reports', registry)).statusCode).toBe(202);
    }
    ctx.clock.advance(1);
    const mine = await quiet.live.post('/v1/reports', registry);
    expect(mine.statusCode).toBe(202);
    const status = async () => (await quiet.live.get(`/v1/reports/${mine.json().id}`)).json().status;
    // The first claim is the backlog's oldest report; the second is the other company's.
    const worker = reportWorker(ctx);
    await worker.tick();
    await worker.tick();
    expect(await status()).toBe('completed');
    const busyDone = await ctx.db
      .selectFrom('reports')
      .select('id')
      .where('company_id', '=', busy.id)
      .where('status', '=', 'completed')
      .execute();
    expect(busyDone).toHaveLength(1);
  });
});

describe('webhook deliveries', () => {
  it("claims another company's first delivery in the first claim, behind a backlog of 2,000", async () => {
    const endpoint = await busy.live.post('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/busy',
      events: ['employee.created'],
    });
    expect(endpoint.statusCode).toBe(201);
    const old = new Date(ctx.clock.now().subtract({ hours: 1 }).epochMilliseconds);
    // A backlog loaded in bulk, an hour old: a transaction that may stamp any instant (0030_sync_stamps.sql).
    await ctx.db.transaction().execute(async (tx) => {
      await allowAnySyncStamp(tx);
      await sql`
      with made as (
        insert into events (company_id, id, type, data, created_at)
        select ${busy.id}::uuid, uuidv7(), 'employee.created', '{}'::jsonb, ${old}
        from generate_series(1, 2000)
        returning company_id, id
      )
      insert into webhook_deliveries (company_id, id, endpoint_id, event_id, status, attempts, next_attempt_at,
                                      created_at, updated_at)
      select company_id, uuidv7(), ${endpoint.json().id}::uuid, id, 'pending', 0, ${old}, ${old}, ${old}
      from made`.execute(tx);
    });
    const quietEndpoint = await quiet.live.post('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/quiet',
      events: ['employee.created'],
    });
    expect(quietEndpoint.statusCode).toBe(201);
    ctx.clock.advance(1);
    await hire(quiet.live);
    const first = await claimDueDeliveries(ctx.db, ctx.clock, 32);
    expect(first).toHaveLength(32);
    expect(first.filter((delivery) => delivery.company_id === quiet.id)).toHaveLength(1);
    // Claims keep taking turns: with the quiet company served, the backlog fills the next batch.
    const second = await claimDueDeliveries(ctx.db, ctx.clock, 32);
    expect(second.every((delivery) => delivery.company_id === busy.id)).toBe(true);
    expect(second).toHaveLength(32);
  });
});
