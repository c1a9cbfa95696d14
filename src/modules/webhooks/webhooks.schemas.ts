import { Type } from 'typebox';
import { Instant, Nullable, NullableInstant, named, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';
import { EVENT_DATA, EVENT_TYPES, type EventType } from '../events/events.service.ts';

/** Every event type but ping, which each endpoint receives implicitly through the test operation. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((type) => type !== 'ping');

export const MAX_ACTIVE_ENDPOINTS = 5;

const EventTypes = named(
  'WebhookEventTypes',
  Type.Array(Type.Enum(SUBSCRIBABLE_EVENT_TYPES, { type: 'string' }), {
    minItems: 1,
    maxItems: SUBSCRIBABLE_EVENT_TYPES.length,
    uniqueItems: true,
    description: 'The event types to receive, without duplicates. `ping` is implicit and is not listed.',
  }),
);

const Url = named(
  'WebhookUrl',
  Type.String({
    minLength: 1,
    maxLength: 2048,
    description:
      'An https:// URL. It must not resolve to a loopback, private, link-local, CGNAT, multicast, reserved or unspecified address; it is checked again at every delivery. Credentials and fragments are refused.',
  }),
);

const Description = Type.String({ maxLength: 500 });

export const EndpointStatus = Type.Enum(['active', 'disabled']);

export const WebhookEndpoint = named(
  'WebhookEndpoint',
  Type.Object({
    id: Uuid(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    status: EndpointStatus,
    disabled_reason: named(
      'WebhookDisabledReason',
      Nullable(
        Type.Enum(['consecutive_failures', 'manual'], {
          description:
            '`consecutive_failures`: every delivery failed for 7 days, and the endpoint was disabled automatically. `manual`: disabled by a PATCH. Null while active.',
        }),
      ),
    ),
    created_at: Instant(),
    updated_at: Instant(),
  }),
);

export const CreatedWebhookEndpoint = named(
  'CreatedWebhookEndpoint',
  Type.Object({
    ...WebhookEndpoint.properties,
    secret: Type.String({
      description:
        'The signing secret, `whsec_` followed by base64 of 32 random bytes. Returned by this response only: store it now.',
    }),
  }),
);

export const CreateWebhookEndpointBody = named(
  'CreateWebhookEndpointBody',
  Type.Object(
    { url: Url, events: EventTypes, description: Type.Optional(Nullable(Description)) },
    { additionalProperties: false },
  ),
);

export const UpdateWebhookEndpointBody = named(
  'UpdateWebhookEndpointBody',
  Type.Object(
    {
      url: Type.Optional(Url),
      events: Type.Optional(EventTypes),
      description: Type.Optional(Nullable(Description)),
      status: Type.Optional(
        Type.Enum(['active', 'disabled'], {
          description:
            '`disabled` stops deliveries (pending ones end as failed); `active` re-enables the endpoint and clears its failure streak.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const ListWebhookEndpointsQuery = named(
  'ListWebhookEndpointsQuery',
  Type.Object({ ...PageQuery, ...UpdatedSinceQuery }, { additionalProperties: false }),
);

export const WebhookDelivery = named(
  'WebhookDelivery',
  Type.Object({
    id: Uuid(),
    endpoint_id: Uuid(),
    event_id: Type.String({ description: 'The `evt_…` id, sent as `webhook-id` on every attempt.' }),
    event_type: Type.String(),
    status: Type.Enum(['pending', 'succeeded', 'failed']),
    attempts: Type.Integer({ description: 'Attempts started so far.' }),
    last_attempt_at: NullableInstant(),
    last_response_status: Nullable(
      Type.Integer({ description: 'The HTTP status of the last answer; null when none came.' }),
    ),
    last_error: Nullable(
      Type.String({
        description: 'Why the last attempt failed (timeout, connection error, status, refused address).',
      }),
    ),
    next_attempt_at: Nullable(Instant('When the next attempt is due; null once finished.')),
    created_at: Instant(),
  }),
);

export const WebhookDeliveryDetail = named(
  'WebhookDeliveryDetail',
  Type.Intersect([
    WebhookDelivery,
    Type.Object({
      request: Nullable(
        Type.Object(
          {
            url: Type.String(),
            headers: Type.Record(Type.String(), Type.String(), {
              description: 'As sent: content type, user agent and the `webhook-*` signature headers.',
            }),
            body: Type.String({ description: 'The exact bytes sent and signed: the event’s envelope.' }),
          },
          { description: 'What the last attempt sent; null until an attempt sent something.' },
        ),
      ),
      response: Nullable(
        Type.Object(
          {
            status: Type.Integer(),
            body: Type.String({ description: 'The first 4 KB of the answer’s body, as text.' }),
          },
          { description: 'What came back to the last attempt; null when no answer came.' },
        ),
      ),
    }),
  ]),
);

export const DeliveryParams = Type.Object(
  { id: Uuid(), deliveryId: Uuid() },
  { additionalProperties: false },
);

export const ListDeliveriesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const ReplayWebhookEventsBody = named(
  'ReplayWebhookEventsBody',
  Type.Object(
    {
      from: Instant('Inclusive.'),
      to: Instant('Exclusive; after `from`.'),
      types: Type.Optional(
        Type.Array(Type.Enum(SUBSCRIBABLE_EVENT_TYPES, { type: 'string' }), {
          minItems: 1,
          maxItems: SUBSCRIBABLE_EVENT_TYPES.length,
          uniqueItems: true,
          description: 'Only these of the types the endpoint subscribes to (left out: all of them).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const WebhookReplay = named(
  'WebhookReplay',
  Type.Object({
    deliveries: Type.Integer({
      minimum: 0,
      description: 'How many events are sent again.',
    }),
    from: Instant(),
    to: Instant(),
    types: Type.Array(Type.String()),
  }),
);

/** What emits each event (the spec leaves it open; docs/decisions/0003 and 0004). */
const EVENT_SOURCES: Record<EventType, string> = {
  'employee.created': 'An employee was created (`POST /v1/employees`).',
  'employee.updated': 'A `PATCH /v1/employees/{id}` changed the employee (a no-op PATCH emits nothing).',
  'employee.terminated': 'An employee was terminated (`POST /v1/employees/{id}/terminate`).',
  'checkin.created': 'A check-in was recorded (an exact duplicate records nothing and emits nothing).',
  'check_in_correction.requested':
    'A correction of check-ins was requested (`POST /v1/check-in-corrections`, or by the worker in the portal).',
  'check_in_correction.applied':
    'Both the company and the worker approved a correction, and it was applied: `checkin.created` follows for each check-in it added.',
  'check_in_correction.rejected': 'The company or the worker rejected a pending correction.',
  'absence.requested': 'An absence was requested (`POST /v1/absences`).',
  'absence.approved': 'A requested absence was approved.',
  'absence.denied': 'A requested absence was rejected.',
  'absence.cancelled': 'A requested or approved absence was cancelled.',
  'absence.updated':
    'A requested or approved absence counts a new `days_count`: a holiday, a contract’s schedule, the work centre, a termination or the employment dates changed the calendar under it. A vacation’s `vacation_balance.updated` events follow.',
  'vacation_balance.updated':
    'A vacation absence that moves a balance was requested, approved, denied or cancelled, or counts a new number of days (`absence.updated`): one event per calendar year it touches.',
  'shift.published': 'A shift was published: its worker sees it, and it plans its day.',
  'shift.updated': 'A published shift changed.',
  'shift.deleted': 'A published shift was deleted.',
  'compliance_alert.created': 'A new legal-limit alert (`GET /v1/compliance-alerts`).',
  'registry_month.closed': 'A month of the registry was closed: its figures are final.',
  'report.completed': 'A report finished generating and can be downloaded.',
  ping: 'Sent by `POST /v1/webhook-endpoints/{id}/test` to that endpoint alone. Never subscribed explicitly.',
};

const SIGNATURE_HEADERS = [
  {
    key: 'WebhookId',
    name: 'webhook-id',
    description: 'The event id (`evt_…`), the same on every attempt: deduplicate by it.',
  },
  {
    key: 'WebhookTimestamp',
    name: 'webhook-timestamp',
    description: 'Unix time in seconds of this attempt. Reject if more than 5 minutes off.',
  },
  {
    key: 'WebhookSignature',
    name: 'webhook-signature',
    description:
      "`v1,<base64 HMAC-SHA256>` over `webhook-id.webhook-timestamp.raw_body`, keyed by the base64-decoded part of the endpoint's secret after `whsec_` (Standard Webhooks). Compare in constant time.",
  },
];

/** The signature headers of every webhook request, stated once in `components.parameters`. */
export const WEBHOOK_PARAMETERS = Object.fromEntries(
  SIGNATURE_HEADERS.map(({ key, ...header }) => [
    key,
    { in: 'header', required: true, schema: { type: 'string' }, ...header },
  ]),
);

/**
 * What every event carries besides its `type` and `data`, stated once (`#/components/schemas/EventEnvelope`):
 * each event's body is this envelope and its own `type` and `data`, nothing more.
 */
const EventEnvelope = named(
  'EventEnvelope',
  Type.Object(
    {
      id: Type.String({
        pattern: '^evt_[0-9a-f]{32}$',
        description: 'The event id, also sent as `webhook-id`.',
      }),
      created_at: Instant(),
      company_id: Uuid(),
    },
    { description: 'The fields every event has; `type` and `data` are each event’s own.' },
  ),
);

/** The answer a receiver gives, stated once: any 2xx acknowledges. */
export const WEBHOOK_RESPONSES = {
  WebhookAcknowledged: {
    description:
      'Any 2xx within 10 seconds acknowledges the delivery. Anything else, a redirect or no answer is a failure: the delivery is retried 1 min, 5 min, 30 min, 2 h, 12 h and 24 h after it.',
  },
};

/**
 * The OpenAPI 3.1 `webhooks` object: one entry per event type, with its signed headers and its body: the
 * envelope `{ id, created_at, company_id }` and its own `type` and `data`. Built from the same schemas that type
 * the events.
 */
export function webhookEventsOpenApi(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `${type.replace(/[._](\w)/g, (_match, letter: string) => letter.toUpperCase())}Event`,
          summary: `${type} event`,
          description: EVENT_SOURCES[type],
          tags: ['Webhook events'],
          security: [],
          parameters: SIGNATURE_HEADERS.map(({ key }) => ({ $ref: `#/components/parameters/${key}` })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  allOf: [EventEnvelope, Type.Object({ type: Type.Literal(type), data: EVENT_DATA[type] })],
                  unevaluatedProperties: false,
                },
              },
            },
          },
          responses: { '200': { $ref: '#/components/responses/WebhookAcknowledged' } },
        },
      },
    ]),
  );
}
