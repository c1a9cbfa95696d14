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
  }),
);
