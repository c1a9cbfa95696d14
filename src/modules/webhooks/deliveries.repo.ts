import { sql, type Updateable } from 'kysely';
import { type Db, type Executor, executePrepared } from '../../db/database.ts';
import { deliveryDue } from '../../db/queues.ts';
import type {
  WebhookDeliveriesTable,
  WebhookDisabledReason,
  WebhookEndpointStatus,
} from '../../db/schema.ts';
import { newId } from '../../platform/ids.ts';
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

/** Pending deliveries of a disabled endpoint end as failed, so a client who re-enables it decides what to retry. */
export async function failPendingDeliveries(
  tx: Executor,
  companyId: string,
  endpointId: string,
  reason: WebhookDisabledReason,
  at: Date,
): Promise<void> {
  await tx
    .updateTable('webhook_deliveries')
    .set({
      status: 'failed',
      next_attempt_at: null,
      leased_until: null,
      last_error: `endpoint disabled (${reason}) before delivery`,
      updated_at: at,
    })
    .where('company_id', '=', companyId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
}

/** A tenant's deliveries with their event's type, explicit columns. */
export const selectDeliveries = (db: Executor, companyId: string) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('events as e', (join) =>
      join.onRef('e.company_id', '=', 'd.company_id').onRef('e.id', '=', 'd.event_id'),
    )
    .select([
      'd.id',
      'd.endpoint_id',
      'd.event_id',
      'e.type as event_type',
      'd.status',
      'd.attempts',
      'd.last_attempt_at',
      'd.last_response_status',
      'd.last_error',
      // While an attempt is in flight, when its lease ends (migration 0028).
      sql<Date | null>`greatest(d.next_attempt_at, d.leased_until)`.as('next_attempt_at'),
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

/** Queues a finished delivery for one manual attempt, due now; false when it is still pending. */
export async function requeueFinishedDelivery(
  db: Executor,
  companyId: string,
  id: string,
  at: Date,
): Promise<boolean> {
  const queued = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: at, automatic_retries: false, updated_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('status', '<>', 'pending')
    .executeTakeFirst();
  return queued.numUpdatedRows > 0n;
}

/** A delivery claimed for one attempt, with what the attempt needs. */
export type ClaimedDelivery = {
  company_id: string;
  id: string;
  endpoint_id: string;
  attempts: number;
  automatic_retries: boolean;
  url: string;
  secret: string;
  endpoint_status: WebhookEndpointStatus;
  event_id: string;
  event_type: string;
  event_data: Record<string, unknown>;
  event_created_at: Date;
};

/** The claim statement of claimDueDeliveries (deliveries.service.ts says how it takes turns). */
export async function claimDue(
  db: Db,
  at: Date,
  leaseUntil: Date,
  limit: number,
): Promise<ClaimedDelivery[]> {
  // A prepared statement: planned once per connection, not at every claim (executePrepared).
  return await executePrepared(
    db,
    sql<ClaimedDelivery>`
    with recursive tenants (company_id) as (
      (select d.company_id from webhook_deliveries d where d.status = 'pending' order by d.company_id limit 1)
      union all
      select (select d.company_id from webhook_deliveries d
              where d.status = 'pending' and d.company_id > t.company_id order by d.company_id limit 1)
      from tenants t where t.company_id is not null
    ), served as (
      select t.company_id from tenants t
      join companies tenant on tenant.id = t.company_id
      join companies account on account.id = coalesce(tenant.sandbox_of, tenant.id)
      left join queue_turns q on q.queue = 'webhooks' and q.company_id = t.company_id
      where t.company_id is not null and ${activeServiceSql('account')}
        and exists (select from webhook_deliveries d where d.company_id = t.company_id and ${deliveryDue('d', at)})
      order by q.last_claimed_at nulls first
      limit ${limit}
    ), candidates as (
      select c.company_id, c.id, c.next_attempt_at,
             row_number() over (partition by c.company_id order by c.next_attempt_at) as turn
      from served s cross join lateral (
        select d.company_id, d.id, d.next_attempt_at from webhook_deliveries d
        where d.company_id = s.company_id and ${deliveryDue('d', at)}
        order by d.next_attempt_at
        limit ${limit}
        for update of d skip locked
      ) c
    ), due as (
      select company_id, id from candidates order by turn, next_attempt_at limit ${limit}
    ), turn as (
      insert into queue_turns (queue, company_id, last_claimed_at)
      select distinct 'webhooks', company_id, ${at}::timestamptz from due
      on conflict (queue, company_id) do update set last_claimed_at = excluded.last_claimed_at
    )
    update webhook_deliveries d
    set attempts = d.attempts + 1, last_attempt_at = ${at}, last_response_status = null, last_error = null,
        leased_until = ${leaseUntil}
    from due, webhook_endpoints w, events e
    where d.company_id = due.company_id and d.id = due.id
      and w.company_id = d.company_id and w.id = d.endpoint_id
      and e.company_id = d.company_id and e.id = d.event_id
    returning d.company_id, d.id, d.endpoint_id, d.attempts, d.automatic_retries, w.url, w.secret,
              w.status as endpoint_status, e.id as event_id, e.type as event_type, e.data as event_data,
              e.created_at as event_created_at`,
  );
}

/**
 * Updates a claimed delivery only while this attempt still owns it: still pending, at the attempt it claimed.
 * A late outcome of an attempt whose lease was taken over, or whose endpoint was disabled or deleted, changes
 * nothing.
 */
export async function updateOwnedDelivery(
  db: Executor,
  delivery: Pick<ClaimedDelivery, 'company_id' | 'id' | 'attempts'>,
  changes: Updateable<WebhookDeliveriesTable>,
): Promise<boolean> {
  const updated = await db
    .updateTable('webhook_deliveries')
    // Every outcome ends the attempt's lease.
    .set({ ...changes, leased_until: null })
    .where('company_id', '=', delivery.company_id)
    .where('id', '=', delivery.id)
    .where('status', '=', 'pending')
    .where('attempts', '=', delivery.attempts)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** A successful attempt's outcome, waiting to be recorded with others. */
export type Success = Pick<ClaimedDelivery, 'company_id' | 'id' | 'attempts'> & {
  responseStatus: number;
  requestHeaders: Record<string, string> | null;
  responseBody: string | null;
};

/**
 * Records many successful attempts in one statement, each fenced as in updateOwnedDelivery (still pending, at
 * the attempt it claimed), and ends the failure streak of their endpoints. Returns how many were recorded.
 */
export async function recordSuccesses(db: Db, at: Date, successes: Success[]): Promise<number> {
  if (successes.length === 0) return 0;
  // The batch travels as one JSON document, read by json_to_recordset: one native JSON.stringify here and one
  // parse there, instead of six arrays escaped element by element.
  const rows = JSON.stringify(
    successes.map((success) => ({
      company_id: success.company_id,
      id: success.id,
      attempts: success.attempts,
      response_status: success.responseStatus,
      request_headers: success.requestHeaders,
      response_body: success.responseBody,
    })),
  );
  // A prepared statement, like the claim's.
  const [result] = await executePrepared(
    db,
    sql<{ recorded: number }>`
    with done as (
      select * from json_to_recordset(${rows}::json) as done (
        company_id uuid, id uuid, attempts int, response_status int, request_headers jsonb, response_body text
      )
    ), owned as (
      -- Each delivery found by its primary key alone (offset 0 keeps the lookup a lookup per row), then fenced.
      -- The fence is checked outside the lookup so that no other index looks as good to the planner: with
      -- statistics older than a burst of deliveries, it would otherwise read every pending delivery of the
      -- tenant (the partial index of pending rows), or hash them all, for each batch.
      select owned.tid, done.*
      from done cross join lateral (
        select d.ctid as tid, d.status, d.attempts from webhook_deliveries d
        where d.company_id = done.company_id and d.id = done.id
        offset 0
      ) owned
      where owned.status = 'pending' and owned.attempts = done.attempts
    ), recorded as (
      -- By row address, the version the fence read: a delivery changed meanwhile by another statement (its lease
      -- taken over) has a new address, so it is left as that statement made it.
      update webhook_deliveries d
      set status = 'succeeded', next_attempt_at = null, leased_until = null, last_response_status = owned.response_status,
          last_error = null, last_request_headers = owned.request_headers, last_response_body = owned.response_body,
          updated_at = ${at}
      from owned
      where d.ctid = owned.tid
      returning d.company_id, d.endpoint_id
    ), streaks as (
      update webhook_endpoints w set failing_since = null
      from (select distinct company_id, endpoint_id from recorded) r
      where w.company_id = r.company_id and w.id = r.endpoint_id and w.failing_since is not null
    )
    select count(*)::int as recorded from recorded`,
  );
  return result?.recorded ?? 0;
}
