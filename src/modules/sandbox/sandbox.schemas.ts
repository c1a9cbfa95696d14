import { Type } from 'typebox';
import { Instant, named, Uuid } from '../../platform/common.schemas.ts';
import { EVENT_TYPES } from '../events/events.service.ts';

/** Any event type, `ping` included: stated once (`#/components/schemas/EventType`). */
const EventTypeName = named('EventType', Type.Enum(EVENT_TYPES));

export const EmitSampleEventBody = named(
  'EmitSampleEventBody',
  Type.Object({ type: EventTypeName }, { additionalProperties: false }),
);

/** The event a sandbox sent, as its deliveries carry it. */
export const SampleEvent = named(
  'SampleEvent',
  Type.Object({
    id: Type.String({ pattern: '^evt_[0-9a-f]{32}$' }),
    type: EventTypeName,
    created_at: Instant(),
    company_id: Uuid(),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: "The event type's `data`, as described under Webhook events.",
    }),
    deliveries: Type.Integer({
      minimum: 0,
      description:
        'How many endpoints it was queued for: the active ones subscribed to its type (every active one for `ping`).',
    }),
    listeners: Type.Integer({
      minimum: 0,
      description:
        'How many `jornada listen` processes will forward it (callers that polled the feed in the last minute).',
    }),
  }),
);

/** An event of the sandbox's feed: its envelope, as a delivery carries it. */
const FeedEvent = Type.Object({
  id: Type.String({ pattern: '^evt_[0-9a-f]{32}$' }),
  type: EventTypeName,
  created_at: Instant(),
  company_id: Uuid(),
  data: Type.Record(Type.String(), Type.Unknown()),
});

export const ListenQuery = Type.Object(
  {
    after: Type.String({
      pattern: '^(latest|evt_[0-9a-f]{32})$',
      description: 'An event id: the events after it. `latest`: none, only the cursor to start from now.',
    }),
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 20,
        default: 20,
        description: 'Seconds to wait for an event when there is none yet (long polling).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const EventFeed = named(
  'EventFeed',
  Type.Object({
    data: Type.Array(FeedEvent, { maxItems: 100 }),
    next_after: Type.String({ description: 'Pass it as `after` for the events that follow.' }),
  }),
);
