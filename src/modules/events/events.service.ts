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

/**
 * Writes events to the outbox. Call it with the transaction that makes the change, so the change and its
 * events commit or roll back together; the webhook dispatcher delivers them afterwards.
 */
export async function recordEvents(
  db: Executor,
  companyId: string,
  now: Date,
  events: PendingEvent[],
): Promise<EventEnvelope[]> {
  if (events.length === 0) return [];
  const rows = events.map((event) => ({
    company_id: companyId,
    id: newId(),
    type: event.type,
    data: JSON.stringify(event.data),
    created_at: now,
  }));
  await db.insertInto('events').values(rows).execute();
  return rows.map((row, index) => ({
    id: eventPublicId(row.id),
    type: events[index]?.type as EventType,
    created_at: formatInstant(now),
    company_id: companyId,
    data: events[index]?.data as Record<string, unknown>,
  }));
}
