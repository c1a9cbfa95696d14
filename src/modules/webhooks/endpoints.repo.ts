import { type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { WebhookDisabledReason, WebhookEndpointsTable } from '../../db/schema.ts';
import { NIL_ID } from '../../platform/ids.ts';

export type EndpointRow = Omit<Selectable<WebhookEndpointsTable>, 'company_id' | 'secret' | 'failing_since'>;

const ENDPOINT_COLUMNS = [
  'id',
  'url',
  'events',
  'description',
  'status',
  'disabled_reason',
  'created_at',
  'updated_at',
] as const;

/** A tenant's endpoints, explicit columns (never the secret); listings page it with syncPage. */
export const selectEndpoints = (db: Executor, companyId: string) =>
  db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('company_id', '=', companyId);

export async function findEndpoint(
  db: Executor,
  companyId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<EndpointRow | undefined> {
  let query = selectEndpoints(db, companyId).where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return await query.executeTakeFirst();
}

/** Serialises the tenant's endpoint creations and re-enablings (the cap on active endpoints) for the transaction. */
export async function lockTenantEndpoints(db: Executor, companyId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`webhook_endpoints:${companyId}`}, 0))`.execute(
    db,
  );
}

export async function countActiveEndpoints(db: Executor, companyId: string): Promise<number> {
  const { active } = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('active'))
    .where('company_id', '=', companyId)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(active);
}

export async function insertEndpoint(
  db: Executor,
  companyId: string,
  row: EndpointRow,
  secret: string,
): Promise<void> {
  await db
    .insertInto('webhook_endpoints')
    .values({ company_id: companyId, ...row, secret })
    .execute();
  // The tenant's delivery cursor (migration 0031), from the start: every delivery made later is after it.
  await db
    .insertInto('webhook_delivery_cursors')
    .values({ company_id: companyId, after_id: NIL_ID })
    .onConflict((conflict) => conflict.column('company_id').doNothing())
    .execute();
}

/** Disables the endpoint if it is active; returns whether it was. */
export async function disableActiveEndpoint(
  db: Executor,
  companyId: string,
  id: string,
  reason: WebhookDisabledReason,
  at: Date,
): Promise<boolean> {
  const disabled = await db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, updated_at: at })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return disabled.numUpdatedRows > 0n;
}

export async function updateEndpointRow(
  db: Executor,
  companyId: string,
  id: string,
  changes: Updateable<WebhookEndpointsTable>,
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set(changes)
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();
}

/** Deletes the endpoint (its deliveries cascade); returns whether it existed. */
export async function deleteEndpointRow(db: Executor, companyId: string, id: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('webhook_endpoints')
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** A success ends the endpoint's failure streak. */
export async function endFailureStreak(db: Executor, companyId: string, id: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('failing_since', 'is not', null)
    .execute();
}

/** A failure starts the streak unless one is running; returns the streak's start and the endpoint's status. */
export async function extendFailureStreak(db: Executor, companyId: string, id: string, at: Date) {
  return await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(at)) }))
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .returning(['failing_since', 'status'])
    .executeTakeFirst();
}
