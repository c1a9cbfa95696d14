import { type Static, Type } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { named, Uuid } from '../../platform/common.schemas.ts';
import { idsAt, randomSequence } from '../../platform/ids.ts';
import { formatInstant } from '../../time/clock.ts';
import { insertEventsWithDeliveries } from './events.repo.ts';

const absence = (status: 'requested' | 'approved' | 'denied' | 'cancelled') =>
  Type.Object(
    { absence_id: Uuid(), employee_id: Uuid(), status: Type.Literal(status) },
    { additionalProperties: false },
  );
const correction = (status: 'pending' | 'applied' | 'rejected') =>
  Type.Object(
    { correction_id: Uuid(), employee_id: Uuid(), status: Type.Literal(status) },
    { additionalProperties: false },
  );
const shift = named(
  'ShiftEventData',
  Type.Object(
    { shift_id: Uuid(), employee_id: Uuid(), date: Type.String({ format: 'date' }) },
    { additionalProperties: false },
  ),
);
const employee = named(
  'EmployeeEventData',
  Type.Object({ employee_id: Uuid() }, { additionalProperties: false }),
);

/**
 * The event types of the public contract (spec, Events), each with its minimal `data`: public ids and state; the
 * full resource is fetched with GET. These schemas type the services' events and describe them in OpenAPI.
 */
export const EVENT_DATA = {
  'employee.created': employee,
  'employee.updated': employee,
  'employee.terminated': employee,
  'checkin.created': Type.Object(
    { check_in_id: Uuid(), employee_id: Uuid() },
    { additionalProperties: false },
  ),
  'check_in_correction.requested': correction('pending'),
  'check_in_correction.applied': Type.Object(
    {
      ...correction('applied').properties,
      affected_dates: Type.Optional(
        Type.Array(Type.String({ format: 'date' }), {
          description:
            'The worker’s dates whose figures it changed, and its check-ins’ dates. Absent on events before 2026-11-28.',
        }),
      ),
      affected_months: Type.Optional(
        Type.Array(Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' }), {
          description: 'The months of `affected_dates`.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  'check_in_correction.rejected': correction('rejected'),
  'absence.requested': absence('requested'),
  'absence.approved': absence('approved'),
  'absence.denied': absence('denied'),
  'absence.cancelled': absence('cancelled'),
  // A requested or approved absence counts a new number of days: the calendar under it changed (a holiday added
  // or removed, a contract's schedule, a move to another work centre, a termination; docs/time-rules.md).
  'absence.updated': Type.Object(
    {
      absence_id: Uuid(),
      employee_id: Uuid(),
      status: Type.Union([Type.Literal('requested'), Type.Literal('approved')]),
      days_count: Type.Number({ description: 'The days the absence counts now.' }),
    },
    { additionalProperties: false },
  ),
  'vacation_balance.updated': Type.Object(
    { employee_id: Uuid(), year: Type.Integer() },
    { additionalProperties: false },
  ),
  'shift.published': shift,
  'shift.updated': shift,
  'shift.deleted': shift,
  'compliance_alert.created': Type.Object(
    { alert_id: Uuid(), employee_id: Uuid(), date: Type.String({ format: 'date' }), rule: Type.String() },
    { additionalProperties: false },
  ),
  'registry_month.closed': Type.Object(
    {
      month: Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' }),
      seal: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'As `GET /v1/registry/months` gives it.' }),
      workers: Type.Integer({ minimum: 0, description: 'The workers the month holds.' }),
      closed_at: Type.String({ format: 'date-time' }),
    },
    { additionalProperties: false },
  ),
  'report.completed': Type.Object(
    { report_id: Uuid(), status: Type.Literal('completed') },
    { additionalProperties: false },
  ),
  ping: Type.Object({}, { additionalProperties: false }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export const EVENT_TYPES = Object.keys(EVENT_DATA) as EventType[];

export type EventData = { [T in EventType]: Static<(typeof EVENT_DATA)[T]> };

export type PendingEvent = { [T in EventType]: { type: T; data: EventData[T] } }[EventType];

export type EventEnvelope = {
  id: string;
  type: EventType;
  created_at: string;
  company_id: string;
  data: Record<string, unknown>;
};

/** `evt_` followed by the 32 hex digits of the row's UUID (v7, so ids sort by creation). */
export function eventPublicId(id: string): string {
  return `evt_${id.replaceAll('-', '')}`;
}

/** The body every delivery of an event carries (spec, Events: Envelope). */
export function envelopeOf(
  companyId: string,
  event: { id: string; type: string; data: Record<string, unknown>; created_at: Date },
): EventEnvelope {
  return {
    id: eventPublicId(event.id),
    type: event.type as EventType,
    created_at: formatInstant(event.created_at),
    company_id: companyId,
    data: event.data,
  };
}

/** Where the ids of each transaction's next events go on, so that its events sort in the order recorded. */
const nextSequence = new WeakMap<Executor, number>();

/**
 * Writes events to the outbox and fans each one out to the tenant's subscribed endpoints (events.repo.ts). Call
 * it with the transaction that makes the change, so the change, its events and their deliveries commit or roll
 * back together; the delivery workers send them afterwards. Returns the events' row ids. `now` is the
 * transaction's sync stamp (src/db/sync-stamp.ts): the events' ids carry it, in the order given.
 */
export async function recordEvents(
  db: Executor,
  companyId: string,
  now: Date,
  events: PendingEvent[],
): Promise<string[]> {
  if (events.length === 0) return [];
  const first = nextSequence.get(db) ?? randomSequence();
  nextSequence.set(db, first + events.length);
  const ids = idsAt(now, first, events.length);
  await insertEventsWithDeliveries(
    db,
    companyId,
    now,
    events.map((event, index) => ({ id: ids[index] as string, type: event.type, data: event.data })),
  );
  return ids;
}
