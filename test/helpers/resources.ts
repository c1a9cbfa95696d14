import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { approveCorrection } from '../../src/modules/corrections/corrections.service.ts';
import type { AppDeps } from '../../src/platform/deps.ts';
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

/**
 * Voids one check-in by a correction that both sides approve: the company requests it over the API, the worker
 * accepts it (the portal's service, acting as the employee) and the company approves it, which applies it.
 */
export async function voidByCorrection(
  ctx: { deps: AppDeps },
  company: { id: string; live: Client },
  employeeId: string,
  checkInId: string,
  reason: string,
): Promise<string> {
  const requested = await company.live.post('/v1/check-in-corrections', {
    employee_id: employeeId,
    reason,
    void: [checkInId],
  });
  expect(requested.statusCode, requested.body).toBe(201);
  const id = requested.json().id as string;
  await approveCorrection(
    ctx.deps,
    {
      companyId: company.id,
      accountId: company.id,
      timezone: 'Europe/Madrid',
      actor: { type: 'employee', id: employeeId },
    },
    id,
  );
  const approved = await company.live.post(`/v1/check-in-corrections/${id}/approve`);
  expect(approved.json().status, approved.body).toBe('applied');
  return id;
}
