import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Static } from 'typebox';
import type { Db, Tx } from '../../db/database.ts';
import type { WebhookDisabledReason } from '../../db/schema.ts';
import { syncStamp, withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { mapPage, type Page, type SyncQuery, syncPage } from '../../platform/pagination.ts';
import type { CompanyScope } from '../../platform/tenant.ts';
import { type Clock, formatInstant, toDate } from '../../time/clock.ts';
import { failPendingDeliveries } from './deliveries.repo.ts';
import {
  countActiveEndpoints,
  deleteEndpointRow,
  disableActiveEndpoint,
  type EndpointRow,
  findEndpoint,
  insertEndpoint,
  lockTenantEndpoints,
  selectEndpoints,
  updateEndpointRow,
} from './endpoints.repo.ts';
import { type TargetPolicy, targetProblem } from './target.ts';
import type { CreateWebhookEndpointBody, UpdateWebhookEndpointBody } from './webhooks.schemas.ts';

export { type EndpointRow, findEndpoint } from './endpoints.repo.ts';

import { MAX_ACTIVE_ENDPOINTS, type WebhookEndpoint } from './webhooks.schemas.ts';

export type EndpointView = Static<typeof WebhookEndpoint>;

export type EndpointDeps = { db: Db; clock: Clock; targets: TargetPolicy };

export function toEndpointView(row: EndpointRow): EndpointView {
  return { ...row, created_at: formatInstant(row.created_at), updated_at: formatInstant(row.updated_at) };
}

export async function getEndpoint(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<EndpointView> {
  const { db } = deps;
  const { companyId } = tenant;
  const row = await findEndpoint(db, companyId, id);
  if (!row) throw notFound('Webhook endpoint');
  return toEndpointView(row);
}

export async function listEndpoints(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: CompanyScope,
  query: SyncQuery,
): Promise<Page<EndpointView>> {
  const { db, cursors: codec, syncHorizon: horizon } = deps;
  const { companyId } = tenant;
  const page = await syncPage(selectEndpoints(db, companyId), {
    codec,
    horizon: horizon.of(companyId),
    listing: 'webhook-endpoints',
    query,
  });
  return mapPage(page, toEndpointView);
}

async function requireTarget(targets: TargetPolicy, url: string): Promise<void> {
  // Resolving the host is network I/O: it happens before the transaction opens.
  const problem = await targetProblem(url, targets);
  if (problem !== null) throw invalid({ url: problem });
}

/**
 * The cap on active endpoints holds under concurrency: creations and re-enablings of one tenant take the same
 * transaction-scoped advisory lock before counting.
 */
async function ensureActiveSlot(tx: Tx, companyId: string): Promise<void> {
  await lockTenantEndpoints(tx, companyId);
  const active = await countActiveEndpoints(tx, companyId);
  if (Number(active) >= MAX_ACTIVE_ENDPOINTS) {
    throw new ApiError(
      'conflict',
      `A company may have at most ${MAX_ACTIVE_ENDPOINTS} active webhook endpoints. Disable or delete one first.`,
      { errors: { active_endpoints: [String(active)] } },
    );
  }
}

/** `whsec_` followed by base64 of 32 random bytes (Standard Webhooks). */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export async function createEndpoint(
  deps: Pick<AppDeps, 'db' | 'clock' | 'webhookTargets'>,
  tenant: CompanyScope,
  input: Static<typeof CreateWebhookEndpointBody>,
): Promise<EndpointView & { secret: string }> {
  const { companyId } = tenant;
  await requireTarget(deps.webhookTargets, input.url);
  return await withSyncStamp(deps.db, deps.clock, companyId, async (tx, stamp) => {
    const at = toDate(stamp);
    await ensureActiveSlot(tx, companyId);
    const row: EndpointRow = {
      id: newId(),
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      status: 'active',
      disabled_reason: null,
      created_at: at,
      updated_at: at,
    };
    const secret = newSecret();
    await insertEndpoint(tx, companyId, row, secret);
    return { ...toEndpointView(row), secret };
  });
}

/** Stops an active endpoint: fan-out only targets active endpoints, and its pending deliveries end as failed. */
export async function disableEndpoint(
  tx: Tx,
  companyId: string,
  id: string,
  reason: WebhookDisabledReason,
  at: Date,
): Promise<void> {
  if (await disableActiveEndpoint(tx, companyId, id, reason, at)) {
    await failPendingDeliveries(tx, companyId, id, reason, at);
  }
}

export async function updateEndpoint(
  deps: Pick<AppDeps, 'db' | 'clock' | 'webhookTargets'>,
  tenant: CompanyScope,
  id: string,
  input: Static<typeof UpdateWebhookEndpointBody>,
): Promise<EndpointView> {
  const { companyId } = tenant;
  if (input.url !== undefined) await requireTarget(deps.webhookTargets, input.url);
  return await deps.db.transaction().execute(async (tx) => {
    const current = await findEndpoint(tx, companyId, id, { lock: true });
    if (!current) throw notFound('Webhook endpoint');
    const status = input.status ?? current.status;
    const next: EndpointRow = {
      ...current,
      url: input.url ?? current.url,
      events: input.events ?? current.events,
      description: input.description !== undefined ? input.description : current.description,
      status,
      disabled_reason:
        status === current.status ? current.disabled_reason : status === 'active' ? null : 'manual',
    };
    if (isDeepStrictEqual(next, current)) return toEndpointView(current);

    const at = toDate(await syncStamp(tx, deps.clock, companyId));
    next.updated_at = at;
    const enabling = current.status === 'disabled' && status === 'active';
    if (enabling) await ensureActiveSlot(tx, companyId);
    await updateEndpointRow(tx, companyId, id, {
      url: next.url,
      events: next.events,
      description: next.description,
      status: next.status,
      disabled_reason: next.disabled_reason,
      updated_at: at,
      // Re-enabling starts a new failure streak.
      ...(enabling ? { failing_since: null } : {}),
    });
    if (current.status === 'active' && status === 'disabled') {
      await failPendingDeliveries(tx, companyId, id, 'manual', at);
    }
    return toEndpointView(next);
  });
}

/** Deletes the endpoint and, with it, its deliveries: pending ones are never sent. */
export async function deleteEndpoint(
  deps: Pick<AppDeps, 'db'>,
  tenant: CompanyScope,
  id: string,
): Promise<void> {
  const { db } = deps;
  const { companyId } = tenant;
  if (!(await deleteEndpointRow(db, companyId, id))) throw notFound('Webhook endpoint');
}
