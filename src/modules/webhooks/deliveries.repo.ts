import { sql, type Updateable } from 'kysely';
import { type Db, type Executor, executePrepared, executePreparedArrays } from '../../db/database.ts';
import { awaitingFirstAttempt, leaseDue } from '../../db/queues.ts';
import type {
  WebhookDeliveriesTable,
  WebhookDisabledReason,
  WebhookEndpointStatus,
} from '../../db/schema.ts';
import { firstIdAt, NIL_ID, newId } from '../../platform/ids.ts';
import { activeServiceSql } from '../../platform/service-state.ts';

/**
 * Deletes up to `batch` deliveries that reached their final state before `before`; returns how many. They are
 * found endpoint by endpoint, oldest first, through each endpoint's deliveries by creation (migration 0029): a
 * delivery finished before the cutoff was created before it. A pending delivery created before the cutoff (a
 * tenant without service keeps them) is read past, never deleted.
 */
export async function deleteFinishedDeliveries(db: Executor, before: Date, batch: number): Promise<number> {
  const result = await sql`
    delete from webhook_deliveries d using (
      select old.company_id, old.id
      from webhook_endpoints w cross join lateral (
        select x.company_id, x.id from webhook_deliveries x
        where x.company_id = w.company_id and x.endpoint_id = w.id and x.created_at < ${before}
          and x.status <> 'pending' and x.updated_at < ${before}
        order by x.created_at
        limit ${batch}
      ) old
      limit ${batch}
    ) old
    where d.company_id = old.company_id and d.id = old.id`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Pending deliveries of a disabled endpoint end as failed, so a client who re-enables it decides what to retry.
 * They are found without reading the endpoint's finished history: those with a due time through
 * webhook_deliveries_retry, first attempts by id from the earliest one a claim of the tenant or its cursor still
 * covers (migration 0031), read first so that the planner sees how recent it is.
 */
export async function failPendingDeliveries(
  tx: Executor,
  companyId: string,
  endpointId: string,
  reason: WebhookDisabledReason,
  at: Date,
): Promise<void> {
  const { rows } = await sql<{ first: string | null }>`
    select least(
      (select c.first_id from webhook_claims c where c.company_id = ${companyId} order by c.first_id limit 1),
      (select cur.after_id from webhook_delivery_cursors cur where cur.company_id = ${companyId})) as first`.execute(
    tx,
  );
  const first = rows[0]?.first ?? NIL_ID;
  await sql`
    update webhook_deliveries d
    set status = 'failed', next_attempt_at = null, leased_until = null,
        last_error = ${`endpoint disabled (${reason}) before delivery`}, updated_at = ${at}
    from (
      select r.id from webhook_deliveries r
      where r.company_id = ${companyId} and r.next_attempt_at is not null and r.endpoint_id = ${endpointId}
      union all
      select f.id from webhook_deliveries f
      where f.company_id = ${companyId} and f.id >= ${first}::uuid and f.endpoint_id = ${endpointId}
        and ${awaitingFirstAttempt('f')}
    ) pending
    where d.company_id = ${companyId} and d.id = pending.id and d.status = 'pending'`.execute(tx);
}

/** A tenant's deliveries with their event's type, explicit columns. */
export const selectDeliveries = (db: Executor, companyId: string) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', (join) =>
      join.onRef('e.company_id', '=', 'd.company_id').onRef('e.id', '=', 'd.event_id'),
    )
    // A first attempt in flight is known by its claim (migration 0031): it shows as started when the claim was
    // made, its answer not known yet, next due when the claim's lease ends, as a leased row does.
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('webhook_claims as c')
          .select(['c.claimed_at', 'c.leased_until'])
          .whereRef('c.company_id', '=', 'd.company_id')
          .whereRef('c.first_id', '<=', 'd.id')
          .whereRef('c.last_id', '>=', 'd.id')
          .where(awaitingFirstAttempt('d'))
          .orderBy('c.first_id', 'desc')
          .limit(1)
          .as('c'),
      (join) => join.onTrue(),
    )
    .select([
      'd.id',
      'd.endpoint_id',
      'd.event_id',
      'e.type as event_type',
      'd.status',
      sql<number>`d.attempts + (c.claimed_at is not null)::int`.as('attempts'),
      sql<Date | null>`coalesce(c.claimed_at, d.last_attempt_at)`.as('last_attempt_at'),
      'd.last_response_status',
      'd.last_error',
      // While an attempt is in flight, when its lease ends (migration 0028); a first attempt not yet claimed is
      // due since the delivery was made.
      sql<Date | null>`case when d.status = 'pending'
        then coalesce(greatest(d.next_attempt_at, d.leased_until), c.leased_until, d.created_at) end`.as(
        'next_attempt_at',
      ),
      'd.created_at',
    ])
    .where('d.company_id', '=', companyId);

export type DeliveryRow = Awaited<ReturnType<ReturnType<typeof selectDeliveries>['executeTakeFirstOrThrow']>>;

/** One delivery of an endpoint with what its detail shows: the endpoint's URL, the event, the last exchange. */
export async function findDeliveryDetail(db: Executor, companyId: string, endpointId: string, id: string) {
  return await selectDeliveries(db, companyId)
    .innerJoin('webhook_endpoints as w', (join) =>
      join.onRef('w.company_id', '=', 'd.company_id').onRef('w.id', '=', 'd.endpoint_id'),
    )
    .select([
      'w.url',
      'e.data as event_data',
      'e.created_at as event_created_at',
      'd.last_request_headers',
      'd.last_response_body',
    ])
    .where('d.endpoint_id', '=', endpointId)
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/** A ping's delivery to one endpoint, due now; returns its id. */
export async function insertDelivery(
  db: Executor,
  companyId: string,
  input: { endpointId: string; eventId: string; at: Date },
): Promise<string> {
  const { id } = await db
    .insertInto('webhook_deliveries')
    .values({
      company_id: companyId,
      id: newId(),
      endpoint_id: input.endpointId,
      event_id: input.eventId,
      status: 'pending',
      next_attempt_at: input.at,
      created_at: input.at,
      updated_at: input.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** An event's deliveries to every active endpoint of the tenant (a sample ping), due now; returns how many. */
export async function insertDeliveriesToActiveEndpoints(
  db: Executor,
  companyId: string,
  input: { eventId: string; at: Date },
): Promise<number> {
  const result = await sql`
    insert into webhook_deliveries
      (company_id, id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
    select company_id, uuidv7(), id, ${input.eventId}, 'pending', ${input.at}, ${input.at}, ${input.at}
    from webhook_endpoints where company_id = ${companyId} and status = 'active'`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** How many deliveries an event has. */
export async function countEventDeliveries(
  db: Executor,
  companyId: string,
  eventId: string,
): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('company_id', '=', companyId)
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Makes deliveries' next attempts due now: one delivery (a manual retry, issue 41) or an endpoint's deliveries of
 * some events (a replay). A finished delivery gets one more attempt, with the automatic schedule after it for a
 * replay and without for a retry; a pending one waiting for a scheduled retry has it brought forward (its schedule
 * goes on). A delivery already due at once or in flight is left as it is: a first attempt its tenant's cursor
 * takes, or an attempt whose lease runs.
 */
export async function makeDeliveriesDue(
  db: Executor,
  companyId: string,
  which: { id: string } | { endpointId: string; eventIds: readonly string[] },
  at: Date,
  after: 'single_attempt' | 'retries',
): Promise<void> {
  if ('eventIds' in which && which.eventIds.length === 0) return;
  let query = db
    .updateTable('webhook_deliveries')
    .set({
      status: 'pending',
      next_attempt_at: at,
      // SET reads the row as it was.
      automatic_retries: after === 'retries' ? true : sql<boolean>`status = 'pending' and automatic_retries`,
      updated_at: at,
    })
    .where('company_id', '=', companyId);
  query =
    'id' in which
      ? query.where('id', '=', which.id)
      : query.where('endpoint_id', '=', which.endpointId).where('event_id', 'in', which.eventIds);
  await query
    .where((eb) =>
      eb.or([
        eb('status', '<>', 'pending'),
        eb.and([
          eb('next_attempt_at', 'is not', null),
          eb.or([eb('leased_until', 'is', null), eb('leased_until', '<=', at)]),
        ]),
      ]),
    )
    .execute();
}

/**
 * The ids of a tenant's events in [from, to) of the given types, oldest first, at most `limit` (a replay, issue
 * 41). Event ids are UUIDv7 of their instant, so the range is a range of the primary key.
 */
export async function eventIdsBetween(
  db: Executor,
  companyId: string,
  range: { fromId: string; toId: string },
  types: readonly string[],
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('events')
    .select('id')
    .where('company_id', '=', companyId)
    .where('id', '>=', range.fromId)
    .where('id', '<', range.toId)
    .where('type', 'in', types)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * New deliveries of these events to one endpoint, due now, with automatic retries, for the events that have none
 * to it (one delivery per event and endpoint).
 */
export async function insertReplayDeliveries(
  db: Executor,
  companyId: string,
  endpointId: string,
  events: Array<{ eventId: string; id: string }>,
  at: Date,
): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('webhook_deliveries')
    .values(
      events.map((event) => ({
        company_id: companyId,
        id: event.id,
        endpoint_id: endpointId,
        event_id: event.eventId,
        status: 'pending' as const,
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      })),
    )
    .onConflict((conflict) => conflict.columns(['company_id', 'event_id', 'endpoint_id']).doNothing())
    .execute();
}

/** A delivery claimed for one attempt, with what the attempt needs. */
export type ClaimedDelivery = {
  company_id: string;
  id: string;
  /** The claim of a first attempt taken through the tenant's cursor (its fence); null for a leased row. */
  claim_id: string | null;
  endpoint_id: string;
  /** This attempt's number: the attempts made before it, plus one. */
  attempts: number;
  /** When the claim was made: the attempt's start, as last_attempt_at records it. */
  claimed_at: Date;
  automatic_retries: boolean;
  url: string;
  secret: string;
  endpoint_status: WebhookEndpointStatus;
  event_id: string;
  event_type: string;
  event_data: Record<string, unknown>;
  event_created_at: Date;
};

/**
 * A claimed delivery as the claim statement returns it: its columns, in the order of its select list. Its
 * endpoint's columns come on one row of each endpoint in the claim and its event's on one row of each event, null
 * on the others (claimDue fills them in): a claim's deliveries share a few endpoints and events (each event goes
 * to every endpoint subscribed to it), and each value returned is a string for pg to read.
 */
type ClaimRow = [
  company_id: string,
  id: string,
  claim_id: string | null,
  endpoint_id: string,
  attempts: number,
  automatic_retries: boolean,
  event_id: string,
  url: string | null,
  secret: string | null,
  endpoint_status: WebhookEndpointStatus | null,
  event_type: string | null,
  event_data: Record<string, unknown> | null,
  event_created_at: Date | null,
];

/** The claim statement of claimDueDeliveries (deliveries.service.ts says how it takes turns). */
export async function claimDue(
  db: Db,
  at: Date,
  leaseUntil: Date,
  limit: number,
  horizon: number,
): Promise<ClaimedDelivery[]> {
  // A prepared statement: planned once per connection, not at every claim (executePrepared).
  // Rows as arrays (executePreparedArrays): a claim hands hundreds of rows to the worker at once.
  const rows = await executePreparedArrays(db, claimStatement(at, leaseUntil, limit, horizon));
  // By tenant and id: ids are keyed by tenant in the database too.
  const endpoints = new Map<string, ClaimRow>();
  const events = new Map<string, ClaimRow>();
  for (const row of rows) {
    if (row[7] !== null) endpoints.set(row[0] + row[3], row);
    if (row[10] !== null) events.set(row[0] + row[6], row);
  }
  return rows.map((row) => {
    const endpoint = endpoints.get(row[0] + row[3]);
    const event = events.get(row[0] + row[6]);
    // The statement's snapshot holds every delivery's endpoint and event (foreign keys), on one row each.
    if (!endpoint || !event) throw new Error(`claimed delivery ${row[1]} came without its endpoint or event`);
    return {
      company_id: row[0],
      id: row[1],
      claim_id: row[2],
      endpoint_id: row[3],
      attempts: row[4],
      // Every attempt of a claim starts at the claim's time: set here rather than sent and parsed with each row.
      claimed_at: at,
      automatic_retries: row[5],
      url: endpoint[7] as string,
      secret: endpoint[8] as string,
      endpoint_status: endpoint[9] as WebhookEndpointStatus,
      event_id: row[6],
      event_type: event[10] as string,
      event_data: event[11] as Record<string, unknown>,
      event_created_at: event[12] as Date,
    };
  });
}

/**
 * The claim statement itself (claimDue), also for the plan's tests. `horizon` is the sync horizon in epoch
 * milliseconds, read by an earlier statement (readSyncHorizon): read inside this one, it would come after this
 * statement's snapshot, and a transaction committing in between would be neither seen nor waited for.
 */
export function claimStatement(at: Date, leaseUntil: Date, limit: number, horizon: number) {
  return sql<ClaimRow>`
    with recursive retrying (company_id) as (
      (select d.company_id from webhook_deliveries d where d.next_attempt_at is not null
       order by d.company_id limit 1)
      union all
      select (select d.company_id from webhook_deliveries d
              where d.next_attempt_at is not null and d.company_id > t.company_id order by d.company_id limit 1)
      from retrying t where t.company_id is not null
    ), horizon as (
      -- The sync horizon as the smallest UUIDv7 of its millisecond: no transaction still running when it was read
      -- can make a delivery with a smaller id, and every one that had made one has committed.
      select ${firstIdAt(horizon)}::uuid as id
    ), fresh (company_id) as (
      -- The tenants with new first attempts (migration 0032), by a loose scan: one probe per tenant.
      (select n.company_id from webhook_new_deliveries n order by n.company_id limit 1)
      union all
      select (select n.company_id from webhook_new_deliveries n
              where n.company_id > f.company_id order by n.company_id limit 1)
      from fresh f where f.company_id is not null
    ), tenants as (
      select company_id from retrying where company_id is not null
      union
      select company_id from fresh where company_id is not null
    ), served as (
      -- Each tenant's service looked up by its key (lateral: the tenants with work are few, the companies many).
      select t.company_id from tenants t
      cross join lateral (
        select from companies tenant
        join companies account on account.id = coalesce(tenant.sandbox_of, tenant.id)
        where tenant.id = t.company_id and ${activeServiceSql('account')}
        limit 1
      ) active
      left join queue_turns q on q.queue = 'webhooks' and q.company_id = t.company_id
      order by q.last_claimed_at nulls first
      limit ${limit}
    ), leasable as (
      -- Deliveries with a due time: each is leased on its row (migration 0028).
      select c.* from served s cross join lateral (
        select d.company_id, d.id, d.next_attempt_at as due_at, false as ranged, d.endpoint_id, d.event_id,
               d.attempts, d.automatic_retries, d.ctid as tid
        from webhook_deliveries d
        where d.company_id = s.company_id and ${leaseDue('d', at)}
        order by d.next_attempt_at
        limit ${limit}
        for update of d skip locked
      ) c
    ), cursors as (
      -- The tenant's cursor, locked so that one claim at a time moves it; another worker's claim skips it.
      select cur.company_id, cur.after_id from served s cross join lateral (
        select cur.company_id, cur.after_id from webhook_delivery_cursors cur
        where cur.company_id = s.company_id
        for update skip locked
      ) cur
    ), ranged as (
      -- First attempts after the cursor, up to the horizon, in the order of their ids (their creation).
      select c.* from cursors cur cross join horizon cross join lateral (
        select d.company_id, d.id, d.created_at as due_at, true as ranged, d.endpoint_id, d.event_id,
               d.attempts, d.automatic_retries, null::tid as tid
        from webhook_deliveries d
        where d.company_id = cur.company_id and d.id > cur.after_id and d.id < horizon.id
          and ${awaitingFirstAttempt('d')}
        order by d.id
        limit ${limit}
      ) c
    ), candidates as (
      select c.*, row_number() over (partition by c.company_id order by c.due_at, c.id) as turn
      from (select * from leasable union all select * from ranged) c
    ), due as (
      select * from candidates order by turn, due_at limit ${limit}
    ), ranges as (
      -- What the claim took of each tenant's first attempts: a prefix, in id order, of what follows its cursor.
      select company_id, uuidv7() as claim_id, (array_agg(id order by id))[1] as first_id,
             (array_agg(id order by id desc))[1] as last_id
      from due where ranged group by company_id
    ), moved as (
      -- By the cursors' keys (each locked by this statement): no scan of every tenant's cursor. Not by the row
      -- addresses the lock read: when another claim moved a cursor and committed after this statement's snapshot
      -- was taken, the lock follows to the moved row, whose version this snapshot cannot see, so an update by
      -- its address would find nothing and leave the cursor where it was (the next claim would take the same
      -- first attempts again). By its key, the update follows the row to the version it locked.
      update webhook_delivery_cursors cur
      set after_id = (select r.last_id from ranges r where r.company_id = cur.company_id)
      where cur.company_id = any (array(select r.company_id from ranges r))
    ), taken_new as (
      -- A transaction's record of new first attempts goes once the cursor has passed its last one; and when
      -- nothing of the tenant is left to take below the horizon (its deliveries failed or were deleted first), the
      -- records before the horizon go too.
      -- (Each found through the key by an upper bound, and deleted by its address.)
      delete from webhook_new_deliveries n
      where n.ctid = any (array(
        select y.ctid from cursors cur
        cross join horizon
        left join ranges r on r.company_id = cur.company_id
        cross join lateral (
          select y.ctid from webhook_new_deliveries y
          where y.company_id = cur.company_id and y.last_id <= r.last_id
          union all
          select y.ctid from webhook_new_deliveries y
          where y.company_id = cur.company_id and y.last_id < horizon.id and r.company_id is null
            and not exists (select from ranged x where x.company_id = cur.company_id)
        ) y
      ))
    ), claims as (
      insert into webhook_claims (company_id, id, first_id, last_id, claimed_at, leased_until)
      select company_id, claim_id, first_id, last_id, ${at}, ${leaseUntil} from ranges
    ), leased as (
      -- By the row addresses the lock read (locked, so still there).
      update webhook_deliveries d
      set attempts = d.attempts + 1, last_attempt_at = ${at}, last_response_status = null, last_error = null,
          leased_until = ${leaseUntil}
      where d.ctid = any (array(select due.tid from due where not due.ranged))
      returning d.company_id, d.id
    ), taken as (
      select due.company_id, due.id, r.claim_id, due.endpoint_id, due.event_id, due.attempts + 1 as attempts,
             due.automatic_retries, due.turn, due.due_at
      from due left join ranges r on due.ranged and r.company_id = due.company_id
      where due.ranged or exists (select from leased l where l.company_id = due.company_id and l.id = due.id)
    ), turn as (
      insert into queue_turns (queue, company_id, last_claimed_at)
      select distinct 'webhooks', company_id, ${at}::timestamptz from due
      on conflict (queue, company_id) do update set last_claimed_at = excluded.last_claimed_at
    )
    -- In the order of ClaimRow. An endpoint's columns on one of its rows, an event's on one of its rows (ClaimRow).
    select t.company_id, t.id, t.claim_id, t.endpoint_id, t.attempts, t.automatic_retries, t.event_id, w.url,
           w.secret, w.status, e.type, e.data, e.created_at
    from (
      select taken.*, row_number() over (partition by taken.company_id, taken.endpoint_id) = 1 as endpoint_first,
             row_number() over (partition by taken.company_id, taken.event_id) = 1 as event_first
      from taken
    ) t
    -- Each looked up by its key, for its first row only: a lookup per row (offset 0 keeps the subquery from being
    -- merged into a join, which the planner would make by hashing the whole table of events at every claim).
    left join lateral (
      select w.url, w.secret, w.status from webhook_endpoints w
      where t.endpoint_first and w.company_id = t.company_id and w.id = t.endpoint_id
      offset 0
    ) w on true
    left join lateral (
      select e.type, e.data, e.created_at from events e
      where t.event_first and e.company_id = t.company_id and e.id = t.event_id
      offset 0
    ) e on true
    order by t.turn, t.due_at`;
}

/**
 * Ends the claims whose lease has passed before `at` (their worker stopped, or lost its connection): each
 * delivery of theirs still pending without an outcome counts the attempt as made (it may have been sent) and is
 * due again at once, as a leased row whose lease ended is. Returns how many deliveries. A late outcome of such an
 * attempt is not recorded: its claim is gone (the fence).
 */
export async function endExpiredClaims(db: Db, at: Date): Promise<number> {
  return await db.transaction().execute(async (tx) => {
    const expired = await tx
      .deleteFrom('webhook_claims')
      .where('leased_until', '<=', at)
      .returning(['company_id', 'first_id', 'last_id', 'claimed_at'])
      .execute();
    if (expired.length === 0) return 0;
    const result = await sql`
      update webhook_deliveries d
      set attempts = d.attempts + 1, last_attempt_at = x.claimed_at, next_attempt_at = ${at}, updated_at = ${at}
      from unnest(${expired.map((claim) => claim.company_id)}::uuid[], ${expired.map((claim) => claim.first_id)}::uuid[],
                  ${expired.map((claim) => claim.last_id)}::uuid[],
                  ${expired.map((claim) => claim.claimed_at)}::timestamptz[]) as x (company_id, first_id, last_id, claimed_at)
      where d.company_id = x.company_id and d.id between x.first_id and x.last_id
        and ${awaitingFirstAttempt('d')}`.execute(tx);
    return Number(result.numAffectedRows ?? 0n);
  });
}

/**
 * Updates a claimed delivery only while this attempt still owns it: still pending, at the attempt it claimed,
 * and, for a first attempt taken through the cursor, while its claim is there (locked until the update commits,
 * so that an expiry waits for it). A late outcome of an attempt whose lease was taken over, or whose endpoint was
 * disabled or deleted, changes nothing. A first attempt's row records its start with its outcome.
 */
export async function updateOwnedDelivery(
  db: Executor,
  delivery: Pick<ClaimedDelivery, 'company_id' | 'id' | 'attempts' | 'claim_id' | 'claimed_at'>,
  changes: Updateable<WebhookDeliveriesTable>,
): Promise<boolean> {
  const claimId = delivery.claim_id;
  const query =
    claimId === null
      ? db
          .updateTable('webhook_deliveries')
          // Every outcome ends the attempt's lease.
          .set({ ...changes, leased_until: null })
          .where('attempts', '=', delivery.attempts)
      : db
          .with('live', (qb) =>
            qb
              .selectFrom('webhook_claims')
              .select('id')
              .where('company_id', '=', delivery.company_id)
              .where('id', '=', claimId)
              .forShare(),
          )
          .updateTable('webhook_deliveries')
          .set({ attempts: delivery.attempts, last_attempt_at: delivery.claimed_at, ...changes })
          .where('attempts', '=', delivery.attempts - 1)
          .where('next_attempt_at', 'is', null)
          .where((eb) => eb.exists(eb.selectFrom('live').select('id')));
  const updated = await query
    .where('company_id', '=', delivery.company_id)
    .where('id', '=', delivery.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** A claim of first attempts (migration 0031), by its key. */
export type ClaimKey = { company_id: string; id: string };

/** A successful attempt's outcome, waiting to be recorded with others. */
export type Success = Pick<ClaimedDelivery, 'company_id' | 'id' | 'attempts' | 'claim_id'> & {
  response_status: number;
  request_headers: Record<string, string> | null;
  response_body: string | null;
};

/**
 * Records many successful attempts in one statement, each fenced as in updateOwnedDelivery (still pending, at
 * the attempt it claimed, its claim still there), ends the failure streak of their endpoints, and deletes the
 * claims in `finished` (every delivery of theirs has an outcome). Returns how many were recorded.
 */
export async function recordSuccesses(
  db: Db,
  at: Date,
  successes: Success[],
  finished: ClaimKey[] = [],
): Promise<number> {
  if (successes.length === 0 && finished.length === 0) return 0;
  // The batch travels as columns, zipped back into rows by ROWS FROM: the ids and numbers as array literals
  // (uuid_in and int4in read them; nothing to escape), the request headers and the bodies as one JSON array each,
  // made by one native JSON.stringify. PostgreSQL parses JSON slowly (about 10 ns a byte), so the columns that
  // need no JSON are not sent as JSON: as one JSON document of objects, the batch cost PostgreSQL 15–20% more.
  const column = (value: (success: Success) => string | number | null) =>
    `{${successes.map((success) => value(success) ?? 'NULL').join(',')}}`;
  // A prepared statement, like the claim's.
  const [result] = await executePrepared(
    db,
    sql<{ recorded: number }>`
    with done as (
      select * from rows from (
        unnest(${column((success) => success.company_id)}::uuid[], ${column((success) => success.id)}::uuid[],
               ${column((success) => success.claim_id)}::uuid[], ${column((success) => success.attempts)}::int[],
               ${column((success) => success.response_status)}::int[]),
        json_array_elements(${JSON.stringify(successes.map((success) => success.request_headers))}::json),
        json_array_elements_text(${JSON.stringify(successes.map((success) => success.response_body))}::json)
      ) as done (company_id, id, claim_id, attempts, response_status, request_headers, response_body)
    ), live as (
      -- The claims of the batch's first attempts, locked until the batch commits, so that an expiry waits for it
      -- and then finds these deliveries recorded. A first attempt was made at its claim's time (last_attempt_at).
      select c.company_id, c.id, c.claimed_at from webhook_claims c
      where (c.company_id, c.id) in (select company_id, claim_id from done) for share
    ), owned as (
      -- Each delivery found by its primary key alone (offset 0 keeps the lookup a lookup per row), then fenced.
      -- The fence is checked outside the lookup so that no other index looks as good to the planner: with
      -- statistics older than a burst of deliveries, it would otherwise read every pending delivery of the
      -- tenant, or hash them all, for each batch.
      select owned.tid, live.claimed_at, done.*
      from done left join live on live.company_id = done.company_id and live.id = done.claim_id
      cross join lateral (
        select d.ctid as tid, d.status, d.attempts, d.next_attempt_at from webhook_deliveries d
        where d.company_id = done.company_id and d.id = done.id
        offset 0
      ) owned
      where owned.status = 'pending'
        and case when done.claim_id is null then owned.attempts = done.attempts
                 else owned.attempts = done.attempts - 1 and owned.next_attempt_at is null
                      and live.id is not null end
    ), recorded as (
      -- By row address, the version the fence read: a delivery changed meanwhile by another statement (its lease
      -- taken over) has a new address, so it is left as that statement made it. A first attempt's success
      -- changes no indexed column: a heap-only update (migration 0031).
      update webhook_deliveries d
      set status = 'succeeded', attempts = owned.attempts,
          last_attempt_at = case when owned.claim_id is null then d.last_attempt_at else owned.claimed_at end,
          next_attempt_at = null, leased_until = null, last_response_status = owned.response_status,
          last_error = null,
          last_request_headers = case when json_typeof(owned.request_headers) <> 'null' then owned.request_headers end,
          last_response_body = owned.response_body,
          updated_at = ${at}
      from owned
      where d.ctid = owned.tid
      returning d.company_id, d.endpoint_id
    ), streaks as (
      update webhook_endpoints w set failing_since = null
      from (select distinct company_id, endpoint_id from recorded) r
      where w.company_id = r.company_id and w.id = r.endpoint_id and w.failing_since is not null
    ), ended as (
      delete from webhook_claims c
      using unnest(${finished.map((claim) => claim.company_id)}::uuid[], ${finished.map((claim) => claim.id)}::uuid[])
        as f (company_id, id)
      where c.company_id = f.company_id and c.id = f.id
    )
    select count(*)::int as recorded from recorded`,
  );
  return result?.recorded ?? 0;
}
