import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../../../src/db/database.ts';
import { allowAnySyncStamp, withSyncStamp } from '../../../../src/db/sync-stamp.ts';
import { recordEvents } from '../../../../src/modules/events/events.service.ts';
import {
  claimStatement,
  recordSuccesses,
  type Success,
} from '../../../../src/modules/webhooks/deliveries.repo.ts';
import {
  claimDueDeliveries,
  LEASE_SECONDS,
  RETRY_DELAYS_SECONDS,
  recordOutcome,
} from '../../../../src/modules/webhooks/deliveries.service.ts';
import { toDate } from '../../../../src/time/clock.ts';
import type { TestCompany } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

import {
  company,
  ctx,
  deliverDue,
  deliveriesOf,
  receiver,
  seconds,
  storedDelivery,
  subscribe,
  successOf,
  useWebhookWorld,
} from './world.ts';

/** Claims: disjoint claims and leases, paging, and first attempts claimed through the tenant's cursor. */
useWebhookWorld();

describe('claims and leases', () => {
  it('claims disjoint rows across concurrent workers, and re-claims a dead attempt only after its lease', async () => {
    const endpoint = await subscribe(company, ['checkin.created']);
    const employee = await hire(company.live);
    const base = ctx.clock.now().subtract({ hours: 40 });
    for (let index = 0; index < 40; index++) {
      await company.live.post('/v1/check-ins', {
        employee_id: employee.id,
        type: index % 2 === 0 ? 'in' : 'out',
        timestamp: base.add({ minutes: index * 30 }).toString({ smallestUnit: 'second' }),
      });
    }
    // Four workers at once, then again until nothing is left: a claim that finds the tenant's cursor taken by
    // another claim skips it (SKIP LOCKED), so no row is ever taken twice.
    const claims = await Promise.all(
      Array.from({ length: 4 }, () => claimDueDeliveries(ctx.db, ctx.clock, 15)),
    );
    for (let more = await claimDueDeliveries(ctx.db, ctx.clock, 15); more.length > 0; ) {
      claims.push(more);
      more = await claimDueDeliveries(ctx.db, ctx.clock, 15);
    }
    const claimed = claims.flat().map((delivery) => delivery.id);
    expect(claimed).toHaveLength(40);
    expect(new Set(claimed).size).toBe(40);

    // Nothing was recorded: as if the worker died mid-send. Before the lease ends, nobody takes the rows.
    expect(await claimDueDeliveries(ctx.db, ctx.clock, 100)).toEqual([]);
    ctx.clock.advance(LEASE_SECONDS + 1);
    const reclaimed = await claimDueDeliveries(ctx.db, ctx.clock, 100);
    expect(reclaimed).toHaveLength(40);
    expect(reclaimed.every((delivery) => delivery.attempts === 2)).toBe(true);

    // The dead worker's late outcome is fenced off: its claim ended with its lease (and the row's attempt number
    // moved on).
    const stale = claims.flat()[0];
    if (!stale) throw new Error('no claim');
    await recordOutcome(ctx.db, ctx.clock, stale, { succeeded: true, responseStatus: 200, error: null });
    const row = await storedDelivery(company, stale.id, ['status', 'attempts']);
    expect(row).toEqual({ status: 'pending', attempts: 2 });
    expect(await deliveriesOf(company, endpoint.id)).toHaveLength(25);

    // The same fence holds when successes are recorded together: the stale one changes nothing, the owner's counts.
    const owner = reclaimed.find((delivery) => delivery.id === stale.id);
    if (!owner) throw new Error('not reclaimed');
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(stale)])).toBe(0);
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(owner)])).toBe(1);
    const recorded = await storedDelivery(company, stale.id, [
      'status',
      'attempts',
      'last_response_status',
      'next_attempt_at',
    ]);
    expect(recorded).toEqual({
      status: 'succeeded',
      attempts: 2,
      last_response_status: 204,
      next_attempt_at: null,
    });
  });

  it('never claims a first attempt twice when a claim moves the cursor after a racing claim took its snapshot', async () => {
    // A claim whose snapshot predates another claim's commit locks the moved cursor (the lock follows the row to its
    // newest version) and must move it from there: it once updated the cursor by the address its snapshot knew,
    // found nothing, and left the cursor behind, so the next claim sent the same deliveries again. The race needs
    // claims to overlap; many small rounds of six at once make it happen in every run of the old statement.
    await subscribe(company, ['checkin.created']);
    const employee = await hire(company.live);
    const base = ctx.clock.now().subtract({ hours: 100 });
    const claimed: string[] = [];
    let made = 0;
    for (let round = 0; round < 9; round++) {
      for (let index = 0; index < 12; index++, made++) {
        const response = await company.live.post('/v1/check-ins', {
          employee_id: employee.id,
          type: made % 2 === 0 ? 'in' : 'out',
          timestamp: base.add({ minutes: made * 30 }).toString({ smallestUnit: 'second' }),
        });
        expect(response.statusCode, response.body).toBe(201);
      }
      const claims = await Promise.all(
        Array.from({ length: 6 }, () => claimDueDeliveries(ctx.db, ctx.clock, 3)),
      );
      for (let more = await claimDueDeliveries(ctx.db, ctx.clock, 3); more.length > 0; ) {
        claims.push(more);
        more = await claimDueDeliveries(ctx.db, ctx.clock, 3);
      }
      claimed.push(...claims.flat().map((delivery) => delivery.id));
    }
    expect(new Set(claimed).size).toBe(made);
    expect(claimed).toHaveLength(made);
  });

  it('records nothing for a success whose lease is taken over while the batch is being recorded', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    const [claimed] = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    if (!claimed) throw new Error('nothing claimed');
    // Another worker's claim of the same row, not yet committed when the batch starts: the batch reads the row
    // as claimed by its own attempt, waits for that transaction, and must then leave the row to it.
    const { promise: committed, resolve: takeOver } = Promise.withResolvers<void>();
    const { promise: locked, resolve: updated } = Promise.withResolvers<void>();
    const other = ctx.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('webhook_deliveries')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('company_id', '=', company.id)
        .where('id', '=', claimed.id)
        .execute();
      updated();
      await committed;
    });
    // The other transaction holds the row (updated, not committed) before the batch starts.
    await locked;
    const recording = recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(claimed)]);
    // The batch is waiting on the other transaction's row lock.
    await new Promise((resolve) => setTimeout(resolve, 200));
    takeOver();
    await other;
    expect(await recording).toBe(0);
    const [row] = await deliveriesOf(company, endpoint.id);
    expect(row).toMatchObject({ status: 'pending', attempts: claimed.attempts + 1 });
  });

  it('pages deliveries newest first with a cursor', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    const hired = [];
    for (let index = 0; index < 5; index++) {
      hired.push(await hire(company.live));
      ctx.clock.advance(1);
    }
    const first = (
      await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, { query: { limit: 3 } })
    ).json();
    expect(first.meta.has_more).toBe(true);
    const second = (
      await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, {
        query: { limit: 3, cursor: first.meta.next_cursor },
      })
    ).json();
    expect(second.meta).toEqual({ next_cursor: null, has_more: false });
    const all = [...first.data, ...second.data];
    expect(all).toHaveLength(5);
    const created = all.map((delivery: { created_at: string }) => delivery.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const tampered = await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, {
      query: { cursor: `${first.meta.next_cursor}x` },
    });
    expect(tampered.statusCode).toBe(422);
  });
});

describe("first attempts, claimed through the tenant's cursor (migration 0031)", () => {
  const claimsOf = async (owner: TestCompany) =>
    await ctx.db.selectFrom('webhook_claims').selectAll().where('company_id', '=', owner.id).execute();

  /** Records an employee.updated event (and its deliveries) in a stamped transaction, as the services do. */
  const recordEvent = (tx: Executor, stamp: Temporal.Instant) =>
    recordEvents(tx, company.id, toDate(stamp), [
      { type: 'employee.updated', data: { employee_id: '00000000-0000-7000-8000-000000000000' } },
    ]);

  it('never passes a delivery whose transaction commits after a later one: the claim ends at the sync horizon', async () => {
    const endpoint = await subscribe(company, ['employee.updated']);
    const held = Promise.withResolvers<void>();
    const recorded = Promise.withResolvers<string>();
    const early = withSyncStamp(ctx.db, ctx.clock, company.id, async (tx, stamp) => {
      const [eventId] = await recordEvent(tx, stamp);
      recorded.resolve(eventId as string);
      await held.promise;
    });
    const earlyEvent = await recorded.promise;
    ctx.clock.advance(1);
    const [lateEvent] = await withSyncStamp(ctx.db, ctx.clock, company.id, (tx, stamp) =>
      recordEvent(tx, stamp),
    );

    // The later delivery is committed, but the earlier transaction may still add one before it: nothing is
    // claimed (a cursor moved past the later one would never come back for the earlier).
    expect(await claimDueDeliveries(ctx.db, ctx.clock, 10)).toEqual([]);
    held.resolve();
    await early;
    const claimed = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    expect(claimed.map((delivery) => delivery.event_id)).toEqual([earlyEvent, lateEvent]);
    expect(claimed.every((delivery) => delivery.claim_id !== null && delivery.attempts === 1)).toBe(true);

    // In flight, each shows as its claim started it: one attempt, next due when the claim's lease ends.
    const listed = await deliveriesOf(company, endpoint.id);
    expect(listed).toHaveLength(2);
    for (const delivery of listed) {
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_status: null });
      expect(seconds(delivery.next_attempt_at) - seconds(delivery.last_attempt_at)).toBe(LEASE_SECONDS);
    }
  });

  it('deletes each claim once every delivery it took has an outcome', async () => {
    const good = await subscribe(company, ['employee.created']);
    const bad = await subscribe(company, ['employee.created']);
    const badPath = new URL(bad.url).pathname;
    receiver.respond = (request) => (request.path === badPath ? 500 : 204);
    await hire(company.live);
    await hire(company.live);
    await deliverDue();

    expect(receiver.requests).toHaveLength(4);
    expect(await claimsOf(company)).toEqual([]);
    for (const delivery of await deliveriesOf(company, good.id)) {
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, next_attempt_at: null });
      expect(delivery.last_attempt_at).toEqual(expect.any(String));
    }
    for (const delivery of await deliveriesOf(company, bad.id)) {
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_status: 500 });
      expect(seconds(delivery.next_attempt_at) - seconds(delivery.last_attempt_at)).toBe(
        RETRY_DELAYS_SECONDS[0],
      );
    }
  });

  it('keeps a claim with a success that failed to be recorded: its lease ends and that delivery is sent again', async () => {
    // One event, two endpoints: one claim of two deliveries. The first answer's success is refused; the second
    // answers later, in another batch, which would otherwise end the claim and leave the first without one.
    const refused = await subscribe(company, ['employee.created']);
    const recorded = await subscribe(company, ['employee.created']);
    const laterPath = new URL(recorded.url).pathname;
    receiver.respond = (request) =>
      request.path === laterPath ? { status: 204, afterMilliseconds: 300 } : 204;
    await hire(company.live);
    await sql`
      create function refuse_success() returns trigger language plpgsql as $$
      begin
        if new.status = 'succeeded' and new.endpoint_id = ${sql.lit(refused.id)}::uuid then
          raise exception 'refused for the test';
        end if;
        return new;
      end $$`.execute(ctx.db);
    await sql`create trigger refuse_success before update on webhook_deliveries
      for each row execute function refuse_success()`.execute(ctx.db);
    try {
      await deliverDue();
    } finally {
      await sql`drop trigger refuse_success on webhook_deliveries`.execute(ctx.db);
      await sql`drop function refuse_success()`.execute(ctx.db);
    }
    expect(receiver.requests).toHaveLength(2);
    expect(await deliveriesOf(company, recorded.id)).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
    expect(await deliveriesOf(company, refused.id)).toMatchObject([{ status: 'pending', attempts: 1 }]);
    expect(await claimsOf(company)).toHaveLength(1);

    // Before the lease ends nothing is sent; after it, the refused one is sent again, with the same webhook-id.
    await deliverDue();
    expect(receiver.requests).toHaveLength(2);
    ctx.clock.advance(LEASE_SECONDS + 1);
    await deliverDue();
    expect(receiver.requests).toHaveLength(3);
    const refusedPath = new URL(refused.url).pathname;
    const [first, again] = receiver.requests.filter((request) => request.path === refusedPath);
    expect(again?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(await claimsOf(company)).toEqual([]);
    expect(await deliveriesOf(company, refused.id)).toMatchObject([{ status: 'succeeded', attempts: 2 }]);
  });

  it('fails every pending delivery of an endpoint disabled by hand: unclaimed, in flight, waiting to retry', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    await hire(company.live);
    await deliverDue();
    receiver.respond = () => 500;
    await hire(company.live);
    await deliverDue();
    await hire(company.live);
    const [inFlight] = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    if (!inFlight) throw new Error('nothing claimed');
    await hire(company.live);
    const before = (await deliveriesOf(company, endpoint.id)).map((delivery) => delivery.status);
    expect(before).toEqual(['pending', 'pending', 'pending', 'succeeded']);

    const disabled = await company.live.patch(`/v1/webhook-endpoints/${endpoint.id}`, { status: 'disabled' });
    expect(disabled.statusCode).toBe(200);
    const after = await deliveriesOf(company, endpoint.id);
    expect(after.map((delivery) => delivery.status)).toEqual(['failed', 'failed', 'failed', 'succeeded']);
    for (const delivery of after.slice(0, 3)) {
      expect(delivery).toMatchObject({ next_attempt_at: null });
    }
    const detail = await company.live.get(`/v1/webhook-endpoints/${endpoint.id}/deliveries/${after[0]?.id}`);
    expect(detail.json()).toMatchObject({ last_error: 'endpoint disabled (manual) before delivery' });
    // The attempt in flight answers late: its success is not recorded over the failure.
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(inFlight)])).toBe(0);
  });

  it('finds the tenants with new first attempts without reading the deliveries, and forgets them once taken', async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    const newOf = async () =>
      await ctx.db
        .selectFrom('webhook_new_deliveries')
        .selectAll()
        .where('company_id', '=', company.id)
        .execute();
    await hire(company.live);
    await hire(company.live);
    // One record per transaction that made deliveries: its greatest delivery id.
    const made = await newOf();
    expect(made).toHaveLength(2);
    await deliverDue();
    expect(await newOf()).toEqual([]);

    // Deliveries gone before any claim (the endpoint deleted): the next claim forgets the tenant's record.
    await hire(company.live);
    expect(await newOf()).toHaveLength(1);
    await company.live.delete(`/v1/webhook-endpoints/${endpoint.id}`);
    expect(await claimDueDeliveries(ctx.db, ctx.clock, 10)).toEqual([]);
    expect(await newOf()).toEqual([]);

    // With a history of finished deliveries, the claim's plan reads no delivery to find work: a probe per tenant
    // became a scan of the whole table (about 30 ms with 200,000 rows and nothing due).
    const other = await subscribe(company, ['employee.created']);
    await ctx.db.transaction().execute(async (tx) => {
      await allowAnySyncStamp(tx);
      await sql`
        with made as (
          insert into events (company_id, id, type, data, created_at)
          select ${company.id}::uuid, uuidv7(), 'employee.created', '{}'::jsonb, now()
          from generate_series(1, 3000) returning company_id, id
        )
        insert into webhook_deliveries
          (company_id, id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
        select company_id, uuidv7(), ${other.id}::uuid, id, 'succeeded', 1, null, now(), now() from made`.execute(
        tx,
      );
    });
    await sql`analyze webhook_deliveries`.execute(ctx.db);
    const now = toDate(ctx.clock.now());
    const statement = claimStatement(now, now, 256, now.getTime()).compile(ctx.db);
    const plan = await ctx.db.transaction().execute(async (tx) => {
      await sql`set local plan_cache_mode = force_generic_plan`.execute(tx);
      return await tx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]),
      );
    });
    const text = plan.rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).not.toContain('Seq Scan on webhook_deliveries');
    // A claim's events are looked up by key, not hashed from the whole table (3,000 rows here) at every claim.
    expect(text).not.toContain('Seq Scan on events');
  });

  it("makes the tenant's cursor when a fan-out finds none, so that no delivery waits for ever", async () => {
    const endpoint = await subscribe(company, ['employee.created']);
    // Made with the endpoint; gone here as if a row were lost to a manual repair.
    await ctx.db.deleteFrom('webhook_delivery_cursors').where('company_id', '=', company.id).execute();
    await hire(company.live);
    await deliverDue();
    expect(receiver.requests).toHaveLength(1);
    expect(await deliveriesOf(company, endpoint.id)).toMatchObject([{ status: 'succeeded', attempts: 1 }]);
  });

  it("records a first attempt's time as its claim's, however late the success batch is written", async () => {
    await subscribe(company, ['employee.created']);
    await hire(company.live);
    const [claimed] = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    if (!claimed?.claim_id) throw new Error('no first attempt claimed');
    const claimedAt = toDate(ctx.clock.now());
    ctx.clock.advance(30);
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), [successOf(claimed)])).toBe(1);
    const row = await storedDelivery(company, claimed.id, [
      'status',
      'attempts',
      'last_attempt_at',
      'updated_at',
    ]);
    expect(row.status).toBe('succeeded');
    expect(row.attempts).toBe(1);
    const attemptedAt = row.last_attempt_at?.getTime() ?? Number.NaN;
    expect(Math.abs(attemptedAt - claimedAt.getTime())).toBeLessThan(1_000);
    expect(row.updated_at.getTime() - attemptedAt).toBeGreaterThanOrEqual(29_000);
  });

  it("hands each claimed delivery its own endpoint's and event's values, across tenants, endpoints and events", async () => {
    const other = await ctx.createCompany();
    const endpoints = new Map<string, { url: string; secret: string }>();
    for (const owner of [company, other]) {
      for (let index = 0; index < 2; index++) {
        const endpoint = await subscribe(owner, ['employee.created']);
        endpoints.set(endpoint.id, endpoint);
      }
      for (let index = 0; index < 3; index++) await hire(owner.live);
    }
    const claimed = await claimDueDeliveries(ctx.db, ctx.clock, 100);
    expect(claimed).toHaveLength(12);
    const events = await ctx.db
      .selectFrom('events')
      .select(['company_id', 'id', 'type', 'data', 'created_at'])
      .where('company_id', 'in', [company.id, other.id])
      .execute();
    for (const delivery of claimed) {
      const endpoint = endpoints.get(delivery.endpoint_id);
      const event = events.find(
        (row) => row.company_id === delivery.company_id && row.id === delivery.event_id,
      );
      expect(event, delivery.id).toBeDefined();
      expect(delivery).toMatchObject({
        url: endpoint?.url,
        secret: endpoint?.secret,
        endpoint_status: 'active',
        event_type: event?.type,
        event_data: event?.data,
        event_created_at: event?.created_at,
      });
    }
    // Both tenants' deliveries, every endpoint and event among them.
    expect(new Set(claimed.map((delivery) => delivery.endpoint_id)).size).toBe(4);
    expect(new Set(claimed.map((delivery) => delivery.event_id)).size).toBe(6);
  });

  it('records each success of a batch exactly as it came: its headers in the order sent, any body text', async () => {
    await subscribe(company, ['employee.created']);
    for (let index = 0; index < 4; index++) await hire(company.live);
    const claimed = await claimDueDeliveries(ctx.db, ctx.clock, 10);
    expect(claimed).toHaveLength(4);
    const bodies = ['say "hi" \\ {a,b} NULL\n\ttab', 'ñandú 🦤 \u00e9', null, ''];
    const headers: Array<Record<string, string> | null> = [
      { 'webhook-signature': 'v1,abc=', 'content-type': 'application/json', 'x-quote': 'a "b" \\ c' },
      { b: '1', a: '2' },
      null,
      { 'webhook-id': 'evt_x' },
    ];
    const successes = claimed.map(
      (delivery, index): Success => ({
        ...successOf(delivery),
        response_status: 200 + index,
        request_headers: headers[index] ?? null,
        response_body: bodies[index] ?? null,
      }),
    );
    expect(await recordSuccesses(ctx.db, toDate(ctx.clock.now()), successes)).toBe(4);
    const { rows } = await sql<{
      id: string;
      status: string;
      code: number;
      headers: string | null;
      body: string | null;
    }>`
      select id, status, last_response_status as code, last_request_headers::text as headers,
             last_response_body as body
      from webhook_deliveries where company_id = ${company.id}`.execute(ctx.db);
    expect(rows).toHaveLength(4);
    for (const [index, delivery] of claimed.entries()) {
      const row = rows.find((candidate) => candidate.id === delivery.id);
      expect(row).toEqual({
        id: delivery.id,
        status: 'succeeded',
        code: 200 + index,
        // The exact text stored, so the keys' order too.
        headers: headers[index] ? JSON.stringify(headers[index]) : null,
        body: bodies[index],
      });
    }
  });

  it('indexes no column a first success changes, so that the success is a heap-only update', async () => {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_indexdef(i.indexrelid) as definition from pg_index i
      where i.indrelid = 'webhook_deliveries'::regclass`.execute(ctx.db);
    expect(rows.length).toBeGreaterThan(0);
    // next_attempt_at may be indexed: a first attempt's success leaves it null, as the fan-out made it.
    const changed = [
      'status',
      'attempts',
      'last_attempt_at',
      'last_response_status',
      'last_error',
      'last_request_headers',
      'last_response_body',
      'leased_until',
      'updated_at',
    ];
    for (const { definition } of rows) {
      for (const column of changed) expect(definition).not.toMatch(new RegExp(`\\b${column}\\b`));
    }
  });
});
