import type { FastifyInstance } from 'fastify';
import { requireTenant } from '../../platform/auth.ts';
import { IdParams } from '../../platform/common.schemas.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { route } from '../../platform/operation.ts';
import { ListOf } from '../../platform/pagination.ts';
import { readRoutes } from '../../platform/read-routes.ts';
import {
  DELIVERY_RETENTION_DAYS,
  getDeliveryDetail,
  listDeliveries,
  MAX_REPLAY_EVENTS,
  replayEvents,
  retryDelivery,
  sendPing,
} from './deliveries.service.ts';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  updateEndpoint,
} from './endpoints.service.ts';
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointBody,
  DeliveryParams,
  ListDeliveriesQuery,
  ListWebhookEndpointsQuery,
  ReplayWebhookEventsBody,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookReplay,
} from './webhooks.schemas.ts';

const tag = 'Webhooks';
const scope = 'webhooks:manage';

export function webhooksRoutes(app: FastifyInstance, deps: AppDeps): void {
  readRoutes(app, {
    url: '/v1/webhook-endpoints',
    tag,
    scope,
    item: WebhookEndpoint,
    querystring: ListWebhookEndpointsQuery,
    noun: { one: 'webhook endpoint', many: 'webhook endpoints' },
    list: (tenant, query) => listEndpoints(deps, tenant, query),
    get: (tenant, id) => getEndpoint(deps, tenant, id),
  });

  route(
    app,
    {
      method: 'POST',
      url: '/v1/webhook-endpoints',
      operationId: 'createWebhookEndpoint',
      summary: 'Create a webhook endpoint',
      description:
        'Subscribes an https:// URL to event types. The response carries the signing `secret`, shown this once; it is never kept by idempotency, so a replayed request creates another endpoint. At most 5 active endpoints per company: the sixth is 409 conflict.',
      tag,
      scope,
      body: CreateWebhookEndpointBody,
      idempotency: 'never',
      responses: {
        201: { description: 'The new endpoint, with its secret.', schema: CreatedWebhookEndpoint },
      },
      errors: ['conflict'],
    },
    async (request, reply) => {
      const endpoint = await createEndpoint(deps, requireTenant(request), request.body);
      return reply.code(201).send(endpoint);
    },
  );

  route(
    app,
    {
      method: 'PATCH',
      url: '/v1/webhook-endpoints/:id',
      operationId: 'updateWebhookEndpoint',
      summary: 'Update a webhook endpoint',
      description:
        'Changes `url`, `events`, `description` or `status`. Disabling ends the pending deliveries as failed; re-enabling clears `disabled_reason` and the failure streak, and is 409 conflict when 5 endpoints are already active. A body that changes nothing is a no-op.',
      tag,
      scope,
      params: IdParams,
      body: UpdateWebhookEndpointBody,
      responses: { 200: { description: 'The endpoint.', schema: WebhookEndpoint } },
      errors: ['conflict'],
    },
    async (request) => updateEndpoint(deps, requireTenant(request), request.params.id, request.body),
  );

  route(
    app,
    {
      method: 'DELETE',
      url: '/v1/webhook-endpoints/:id',
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      description:
        'Deletes the endpoint with its deliveries; pending deliveries are never sent. Works while the company has no active service.',
      tag,
      scope,
      params: IdParams,
      allowInactiveService: true,
      responses: { 204: { description: 'Deleted.', schema: null } },
    },
    async (request, reply) => {
      await deleteEndpoint(deps, requireTenant(request), request.params.id);
      return reply.code(204).send();
    },
  );

  route(
    app,
    {
      method: 'POST',
      url: '/v1/webhook-endpoints/:id/test',
      operationId: 'testWebhookEndpoint',
      summary: 'Send a ping to a webhook endpoint',
      description:
        'Records a `ping` event and queues its delivery to this endpoint alone. A disabled endpoint is 409 conflict.',
      tag,
      scope,
      params: IdParams,
      responses: { 202: { description: 'The queued delivery.', schema: WebhookDelivery } },
      errors: ['conflict'],
    },
    async (request, reply) => {
      const delivery = await sendPing(deps, requireTenant(request), request.params.id);
      return reply.code(202).send(delivery);
    },
  );

  route(
    app,
    {
      method: 'GET',
      url: '/v1/webhook-endpoints/:id/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: 'List the deliveries of a webhook endpoint',
      description: 'Newest first.',
      tag,
      scope,
      params: IdParams,
      querystring: ListDeliveriesQuery,
      responses: { 200: { description: 'A page of deliveries.', schema: ListOf(WebhookDelivery) } },
    },
    async (request) => listDeliveries(deps, requireTenant(request), request.params.id, request.query),
  );

  route(
    app,
    {
      method: 'GET',
      url: '/v1/webhook-endpoints/:id/deliveries/:deliveryId',
      operationId: 'getWebhookDelivery',
      summary: 'Get a delivery with what it sent and got back',
      description:
        'The delivery, the request its last attempt sent (URL, headers, signed body) and the answer (status, the body’s first 4 KB).',
      tag,
      scope,
      params: DeliveryParams,
      responses: { 200: { description: 'The delivery.', schema: WebhookDeliveryDetail } },
    },
    async (request) =>
      getDeliveryDetail(deps, requireTenant(request), request.params.id, request.params.deliveryId),
  );
  route(
    app,
    {
      method: 'POST',
      url: '/v1/webhook-endpoints/:id/deliveries/:deliveryId/retry',
      operationId: 'retryWebhookDelivery',
      summary: 'Retry a webhook delivery now',
      description:
        'Makes the next attempt due now, whatever the state, with the same `webhook-id`: a finished delivery gets one more; a scheduled retry is brought forward (its schedule goes on). A first attempt not yet sent, or one being sent, is answered as is. A disabled endpoint is 409 conflict.',
      tag,
      scope,
      params: DeliveryParams,
      responses: { 202: { description: 'The re-queued delivery.', schema: WebhookDelivery } },
      errors: ['conflict'],
    },
    async (request, reply) => {
      const { id, deliveryId } = request.params;
      const delivery = await retryDelivery(deps, requireTenant(request), id, deliveryId);
      return reply.code(202).send(delivery);
    },
  );
  route(
    app,
    {
      method: 'POST',
      url: '/v1/webhook-endpoints/:id/replay',
      operationId: 'replayWebhookEvents',
      summary: 'Send the events of a time range again',
      description: `Sends the company's events of [\`from\`, \`to\`) again to this endpoint, due now with the usual retries: those of the types it subscribes to, narrowed by \`types\`. Each keeps its \`webhook-id\`. Events are kept ${DELIVERY_RETENTION_DAYS} days after their deliveries end; at most ${MAX_REPLAY_EVENTS} a call (more is 422). A disabled endpoint is 409 conflict.`,
      tag,
      scope,
      params: IdParams,
      body: ReplayWebhookEventsBody,
      responses: { 202: { description: 'What is sent again.', schema: WebhookReplay } },
      errors: ['conflict', 'validation_failed'],
    },
    async (request, reply) => {
      const replay = await replayEvents(deps, requireTenant(request), request.params.id, request.body);
      return reply.code(202).send(replay);
    },
  );
}
