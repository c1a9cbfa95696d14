import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { newId } from '../../platform/ids.ts';
import { formatInstant } from '../../time/clock.ts';

/** The event types of the public contract (spec, Events). */
export const EVENT_TYPES = [
  'employee.created',
  'employee.updated',
  'employee.terminated',
  'checkin.created',
  'absence.requested',
  'absence.approved',
  'absence.denied',
  'absence.cancelled',
  'vacation_balance.updated',
  'report.completed',
  'ping',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The minimal `data` of each event: public ids and state; the full resource is fetched with GET. */
export type EventData = {
  'employee.created': { employee_id: string };
  'employee.updated': { employee_id: string };
  'employee.terminated': { employee_id: string };
  'checkin.created': { check_in_id: string; employee_id: string };
  'absence.requested': { absence_id: string; employee_id: string; status: 'requested' };
  'absence.approved': { absence_id: string; employee_id: string; status: 'approved' };
  'absence.denied': { absence_id: string; employee_id: string; status: 'denied' };
  'absence.cancelled': { absence_id: string; employee_id: string; status: 'cancelled' };
  'vacation_balance.updated': { employee_id: string; year: number };
  'report.completed': { report_id: string; status: 'completed' };
  ping: Record<string, never>;
};

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

/**
 * Writes events to the outbox and fans each one out, in the same statement, to every active webhook endpoint of
 * the tenant subscribed to its type: one pending delivery row per event and endpoint, due now. Call it with the
 * transaction that makes the change, so the change, its events and their deliveries commit or roll back
 * together; the delivery workers send them afterwards. Returns the events' row ids.
 */
export async function recordEvents(
  db: Executor,
  companyId: string,
  now: Date,
  events: PendingEvent[],
): Promise<string[]> {
  if (events.length === 0) return [];
  const ids = events.map(() => newId());
  await sql`
    with recorded as (
      insert into events (company_id, id, type, data, created_at)
      select ${companyId}, event.id, event.type, event.data, ${now}
      from unnest(${ids}::uuid[], ${events.map((event) => event.type)}::text[],
                  ${events.map((event) => JSON.stringify(event.data))}::jsonb[]) as event (id, type, data)
      returning id, type
    )
    insert into webhook_deliveries
      (company_id, id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
    select endpoint.company_id, uuidv7(), endpoint.id, recorded.id, 'pending', ${now}, ${now}, ${now}
    from recorded
    join webhook_endpoints endpoint
      on endpoint.company_id = ${companyId} and endpoint.status = 'active' and recorded.type = any (endpoint.events)
  `.execute(db);
  return ids;
}
