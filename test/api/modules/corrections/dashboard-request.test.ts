import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, pinClock, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';
import { joinPortal, type PortalWorker } from '../../../helpers/portal.ts';

/**
 * Issue 39's first rough edge: a correction an administrator requests in the dashboard carries the company's
 * approval, so once the worker accepts it, it applies (it used to wait for "la empresa: por aprobar"). A
 * correction an API key requests keeps the public API's explicit approve step.
 */
let ctx: TestContext;
let company: TestCompany;
let session: DashboardSession;
let worker: PortalWorker;
let workerId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  pinClock(ctx.clock, '2027-03-03T10:00:00Z');
  const admin = await createAdmin(ctx, company.id);
  session = await dashboardSession(ctx, admin.email, admin.password);
  const joined = await joinPortal(ctx, company.live, { first_name: 'Rosa', last_name: 'Corrige' });
  worker = joined.worker;
  workerId = joined.employee.id;
});
afterAll(() => ctx.close());

const body = (timestamp: string) => ({
  employee_id: workerId,
  reason: 'Salida olvidada',
  add: [
    { type: 'in', timestamp: timestamp.replace('T17', 'T08') },
    { type: 'out', timestamp },
  ],
});

describe('a correction requested by an administrator in the dashboard', () => {
  it('carries the company’s approval, so the worker’s acceptance applies it', async () => {
    const asked = await session.call(
      'POST',
      '/dashboard/api/live/check-in-corrections',
      body('2027-03-01T17:00:00Z'),
    );
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({
      status: 'pending',
      company_approval: { by: { type: 'admin' } },
    });
    expect(asked.json().employee_approval).toBeNull();
    const accepted = await worker.send('POST', `/portal/api/corrections/${asked.json().id}/accept`, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().status).toBe('applied');
    // The company's approval is in the worker's chain like any other: verification finds nothing wrong.
    const verified = await ctx.admin.get('/admin/v1/registry/verify', { query: { company_id: company.id } });
    expect(verified.json().ok, verified.body.slice(0, 500)).toBe(true);
  });

  it('keeps the explicit approve step for an API key', async () => {
    const asked = await company.live.post('/v1/check-in-corrections', body('2027-03-02T17:00:00Z'));
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().company_approval).toBeNull();
    const accepted = await worker.send('POST', `/portal/api/corrections/${asked.json().id}/accept`, {});
    expect(accepted.json().status).toBe('pending');
  });
});
