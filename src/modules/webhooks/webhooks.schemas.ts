import { Type } from 'typebox';
import { Instant, Nullable, Uuid } from '../../platform/common.schemas.ts';
import { PageQuery, UpdatedSinceQuery } from '../../platform/pagination.ts';
import { EVENT_TYPES } from '../events/events.service.ts';

/** Every event type but ping, which each endpoint receives implicitly through the test operation. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((type) => type !== 'ping');

export const MAX_ACTIVE_ENDPOINTS = 5;

const EventTypes = Type.Array(Type.Enum(SUBSCRIBABLE_EVENT_TYPES), {
  minItems: 1,
  maxItems: SUBSCRIBABLE_EVENT_TYPES.length,
  uniqueItems: true,
  description: 'The event types to receive, without duplicates. `ping` is implicit and is not listed.',
});

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'An https:// URL. It must not resolve to a loopback, private, link-local, CGNAT, multicast, reserved or unspecified address; it is checked again at every delivery. Credentials and fragments are refused.',
});

const Description = Type.String({ maxLength: 500 });

export const EndpointStatus = Type.Enum(['active', 'disabled']);

export const WebhookEndpoint = Type.Object({
  id: Uuid(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  status: EndpointStatus,
  disabled_reason: Nullable(
    Type.Enum(['consecutive_failures', 'manual'], {
      description:
        '`consecutive_failures`: every delivery failed for 7 days, and the endpoint was disabled automatically. `manual`: disabled by a PATCH. Null while active.',
    }),
  ),
  created_at: Instant(),
  updated_at: Instant(),
});

export const CreatedWebhookEndpoint = Type.Object({
  ...WebhookEndpoint.properties,
  secret: Type.String({
    description:
      'The signing secret, `whsec_` followed by base64 of 32 random bytes. Returned by this response only: store it now.',
  }),
});

export const CreateWebhookEndpointBody = Type.Object(
  { url: Url, events: EventTypes, description: Type.Optional(Nullable(Description)) },
  { additionalProperties: false },
);

export const UpdateWebhookEndpointBody = Type.Object(
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
);

export const ListWebhookEndpointsQuery = Type.Object(
  { ...PageQuery, ...UpdatedSinceQuery },
  { additionalProperties: false },
);

export const WebhookDelivery = Type.Object({
  id: Uuid(),
  endpoint_id: Uuid(),
  event_id: Type.String({ description: 'The `evt_…` id, sent as `webhook-id` on every attempt.' }),
  event_type: Type.String(),
  status: Type.Enum(['pending', 'succeeded', 'failed']),
  attempts: Type.Integer({ description: 'Attempts started so far.' }),
  last_attempt_at: Nullable(Instant()),
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
});

export const DeliveryParams = Type.Object(
  { id: Uuid(), deliveryId: Uuid() },
  { additionalProperties: false },
);

export const ListDeliveriesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
