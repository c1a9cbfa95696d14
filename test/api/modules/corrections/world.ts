import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { approveCorrection } from '../../../../src/modules/corrections/corrections.service.ts';
import type { ActingTenant } from '../../../../src/platform/tenant.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { localInstant } from '../../../helpers/local-time.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * The world of the correction tests (corrections.test.ts, corrections-registry.test.ts): a test context, two
 * companies, and the helpers the files share. Corrections of the registry (issue 15, docs/registry.md): a recorded
 * check-in changes only through a correction that the company and the worker have both approved, and every step
 * is in the employee's chain.
 */
export let ctx: TestContext;
export let company: TestCompany;
export let other: TestCompany;

export const iso = (instant: Temporal.Instant) => instant.toString({ smallestUnit: 'second' });
/** An instant on a local date in Madrid. */
export const at = (date: string, time: string) => localInstant(date, time);

/** The worker's side, as the portal gives it: the same service, acting as the employee. */
export const asWorker = (employeeId: string): ActingTenant => ({
  companyId: company.id,
  accountId: company.id,
  timezone: 'Europe/Madrid',
  actor: { type: 'employee', id: employeeId },
});
export const workerAccepts = (employeeId: string, correctionId: string) =>
  approveCorrection(ctx.deps, asWorker(employeeId), correctionId);

export async function clock(employeeId: string, events: Array<[string, string]>, client = company.live) {
  const ids: string[] = [];
  for (const [type, timestamp] of events) {
    const response = await client.post('/v1/check-ins', { employee_id: employeeId, type, timestamp });
    expect(response.statusCode, response.body).toBe(201);
    ids.push(response.json().id);
  }
  return ids;
}

export async function day(employeeId: string, date: string) {
  const response = await company.live.get('/v1/work-summaries', {
    query: { period: 'day', employee_id: employeeId, from: date, to: date },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data[0];
}

/** The company's request to void one check-in of an employee (a double `in`), pending. */
export async function voidOf(employeeId: string, checkInId: string, reason = 'Double in') {
  const response = await company.live.post('/v1/check-in-corrections', {
    employee_id: employeeId,
    reason,
    void: [checkInId],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A worker hired long ago with a mistaken double `in` on 2026-10-05: the day is incomplete. */
export async function doubleIn() {
  const employee = await hire(company.live, { hire_date: '2025-01-01' });
  const [first, second, out] = await clock(employee.id, [
    ['in', at('2026-10-05', '09:00')],
    ['in', at('2026-10-05', '09:02')],
    ['out', at('2026-10-05', '17:00')],
  ]);
  return { employee, first: first as string, second: second as string, out: out as string };
}

export function useCorrectionsWorld(): void {
  beforeAll(async () => {
    ctx = await createTestContext();
    company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    other = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  });
  afterAll(() => ctx.close());
  // A fresh rate-limit window for each test (a key admits 120 requests a minute).
  beforeEach(() => ctx.clock.advance(60));
}
