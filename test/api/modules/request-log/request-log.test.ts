import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { createAdmin, type DashboardSession, dashboardSession } from '../../../helpers/dashboard.ts';

/**
 * The sandbox's request log (issue 18): the last 100 requests of a company's test keys, in the dashboard; live
 * traffic is never logged, and a company sees only its own.
 */
let ctx: TestContext;
let company: TestCompany;
let session: DashboardSession;
beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany();
  const admin = await createAdmin(ctx, company.id);
  session = await dashboardSession(ctx, admin.email, admin.password);
});
afterAll(() => ctx.close());

const logOf = async (who: DashboardSession = session) => {
  const response = await who.call('GET', '/dashboard/api/test/request-log');
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Array<Record<string, unknown>>;
};

describe('the request log', () => {
  it('records the test keys’ requests, newest first, without query strings; never the live ones', async () => {
    await company.live.get('/v1/organization');
    const missing = await company.test.get('/v1/employees/00000000-0000-7000-8000-000000000000');
    const listed = await company.test.get('/v1/employees', { query: { limit: 5 } });
    await expect.poll(async () => (await logOf()).length).toBe(2);
    const [newest, older] = await logOf();
    expect(newest).toMatchObject({
      method: 'GET',
      path: '/v1/employees',
      status: 200,
      request_id: listed.headers['x-request-id'],
      api_key_id: company.testKeyId,
    });
    expect(newest?.duration_ms).toEqual(expect.any(Number));
    expect(older).toMatchObject({ path: '/v1/employees/00000000-0000-7000-8000-000000000000', status: 404 });
    expect(older?.request_id).toBe(missing.headers['x-request-id']);
    // The live company keeps no such log.
    expect((await session.call('GET', '/dashboard/api/live/request-log')).statusCode).toBe(404);
  });

  it('keeps the last 100', async () => {
    for (let index = 0; index < 105; index += 1) await company.test.get(`/v1/units?limit=${index + 1}`);
    await expect.poll(async () => (await logOf())[0]?.path).toBe('/v1/units');
    await expect.poll(async () => (await logOf()).length).toBe(100);
    // Stored, not only shown: the table holds the last 100.
    const stored = await ctx.db
      .selectFrom('request_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', company.sandboxId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(100);
    // (The rate limit answered some with 429: they are requests of the integration too, and logged.)
    expect((await logOf()).some((row) => row.status === 429)).toBe(true);
  });

  it('shows a company its own log only', async () => {
    const other = await ctx.createCompany();
    const admin = await createAdmin(ctx, other.id);
    const theirs = await dashboardSession(ctx, admin.email, admin.password);
    await other.test.get('/v1/organization');
    await expect.poll(async () => (await logOf(theirs)).length).toBe(1);
    expect((await logOf()).every((row) => row.api_key_id === company.testKeyId)).toBe(true);
  });
});
