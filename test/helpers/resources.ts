import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import type { Client } from './context.ts';

let sequence = 0;

/** Creates an employee through the API (201 expected) and returns its body. */
export async function hire(client: Client, fields: Record<string, unknown> = {}) {
  sequence += 1;
  const response = await client.post('/v1/employees', {
    first_name: 'Ana',
    last_name: `García ${sequence}`,
    email: `ana.${sequence}.${Math.random().toString(36).slice(2, 8)}@example.com`,
    hire_date: '2026-01-01',
    ...fields,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** The outbox rows of a tenant, oldest first. */
export async function eventsOf(db: Db, companyId: string) {
  return await db
    .selectFrom('events')
    .select(['id', 'type', 'data', 'created_at'])
    .where('company_id', '=', companyId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The outbox rows written by one action: the events recorded after `before` ran. */
export async function eventsDuring(db: Db, companyId: string, action: () => Promise<unknown>) {
  const before = new Set((await eventsOf(db, companyId)).map((event) => event.id));
  await action();
  return (await eventsOf(db, companyId))
    .filter((event) => !before.has(event.id))
    .map((event) => ({ type: event.type, data: event.data }));
}

/** Every 422's errors object names fields; this reads one field's messages. */
export function fieldErrors(body: { errors?: Record<string, string[]> }, field: string): string[] {
  return body.errors?.[field] ?? [];
}

/** The summary fields that add up from day rows to month rows. */
export const ADDITIVE_SUMMARY_FIELDS = [
  'worked_minutes',
  'break_minutes',
  'night_minutes',
  'overtime_minutes',
  'expected_minutes',
  'balance_minutes',
  'absences_minutes',
  'source_days',
  'incomplete_days',
  'anomalies',
] as const;
