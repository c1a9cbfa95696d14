import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyRegistry } from '../../../../src/modules/verification/verification.service.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { joinPortal } from '../../../helpers/portal.ts';

/**
 * Issue 34's inspector: "an acknowledgement of 145:27 still stands after a correction made the month 145:57". A
 * correction applied into a closed month makes a new version of the worker's month, keeps the old one, and asks
 * the worker to acknowledge again.
 */
let ctx: TestContext;
let company: TestCompany;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());

describe('a correction into a closed month', () => {
  it('makes a new version of the worker’s month, which the worker acknowledges again', async () => {
    const { employee, worker } = await joinPortal(ctx, company.live, { hire_date: '2026-01-01' });
    const other = await joinPortal(ctx, company.live, { hire_date: '2026-01-01' });
    for (const [type, timestamp] of [
      ['in', '2026-10-05T07:00:00Z'],
      ['out', '2026-10-05T15:00:00Z'],
    ]) {
      expect(
        (await company.live.post('/v1/check-ins', { employee_id: employee.id, type, timestamp })).statusCode,
      ).toBe(201);
    }
    expect((await company.live.post('/v1/registry/months/2026-10/close')).statusCode).toBe(200);
    const first = await worker.send('POST', '/portal/api/registry/2026-10/acknowledge', {});
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ version: 1 });

    // The worker forgot a break: a correction both sides approve adds it into the closed month.
    const requested = await company.live.post('/v1/check-in-corrections', {
      employee_id: employee.id,
      reason: 'Pausa de 30 minutos no registrada',
      add: [
        { type: 'break_start', timestamp: '2026-10-05T11:00:00Z' },
        { type: 'break_end', timestamp: '2026-10-05T11:30:00Z' },
      ],
    });
    expect(requested.statusCode, requested.body).toBe(201);
    expect(
      (await worker.send('POST', `/portal/api/corrections/${requested.json().id}/accept`)).statusCode,
    ).toBe(200);
    const applied = await company.live.post(`/v1/check-in-corrections/${requested.json().id}/approve`);
    expect(applied.json().status).toBe('applied');

    const listed = (await company.live.get('/v1/registry/months/2026-10/acknowledgements')).json()
      .data as Array<Record<string, unknown>>;
    expect(listed.find((row) => row.employee_id === employee.id)).toMatchObject({
      acknowledged_at: null,
      version: 2,
      acknowledged_version: 1,
    });
    // Another worker's month did not change: no new version, their (absent) acknowledgement as it was.
    expect(listed.find((row) => row.employee_id === other.employee.id)).toMatchObject({ version: 1 });
    const month = (await worker.send('GET', '/portal/api/registry/2026-10')).json();
    expect(month).toMatchObject({ version: 2, acknowledged_version: 1, acknowledged_at: null });
    expect(month.seal).toBe((await company.live.get('/v1/registry/months')).json().data[0].seal);

    const again = await worker.send('POST', '/portal/api/registry/2026-10/acknowledge', {});
    expect(again.json()).toMatchObject({ version: 2 });
    const after = (await company.live.get('/v1/registry/months/2026-10/acknowledgements')).json()
      .data as Array<Record<string, unknown>>;
    expect(after.find((row) => row.employee_id === employee.id)).toMatchObject({
      version: 2,
      acknowledged_version: 2,
    });
    expect(await verifyRegistry(ctx.deps, company.id)).toMatchObject({ ok: true, problems: [] });
    // Deleting the second acknowledgement or the version behind the application's back is named.
    await ctx.db.transaction().execute(async (tx) => {
      await sql`set local session_replication_role = replica`.execute(tx);
      await sql`delete from registry_acknowledgements where employee_id = ${employee.id} and version = 2`.execute(
        tx,
      );
      await sql`delete from registry_month_versions where employee_id = ${employee.id}`.execute(tx);
    });
    const problems = (await verifyRegistry(ctx.deps, company.id)).problems.filter(
      (problem) => problem.employee_id === employee.id,
    );
    expect(problems.filter((problem) => problem.kind === 'entry_without_fact')).toHaveLength(2);
  });
});
