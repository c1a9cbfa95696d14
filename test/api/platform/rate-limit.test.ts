import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';

let ctx: TestContext;
let company: TestCompany;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany();
  // Start each test at the beginning of a fresh minute window.
  const now = ctx.clock.now().epochMilliseconds;
  ctx.clock.advance((60_000 - (now % 60_000)) / 1000 + 0.5);
});
afterAll(() => ctx.close());

function nextWindow() {
  const now = ctx.clock.now().epochMilliseconds;
  ctx.clock.advance((60_000 - (now % 60_000)) / 1000 + 0.5);
}

describe('per-minute rate limit', () => {
  it('reports the window on every counted response', async () => {
    nextWindow();
    const response = await company.live.get('/v1/organization');
    expect(response.headers['x-ratelimit-limit']).toBe('120');
    expect(response.headers['x-ratelimit-remaining']).toBe('119');
    const reset = Number(response.headers['x-ratelimit-reset']);
    expect(reset % 60).toBe(0);
    expect(reset * 1000).toBeGreaterThan(ctx.clock.now().epochMilliseconds);
    expect(response.headers['x-service-quota-remaining']).toBe('9999');
  });

  it('admits exactly the limit from a concurrent burst, then 429 with Retry-After', async () => {
    nextWindow();
    const key = await ctx.createKey(company.id, 'test', ['org:empleados:read']);
    const api = ctx.as(key.secret);
    const responses = await Promise.all(Array.from({ length: 45 }, () => api.get('/v1/organization')));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    const limited = responses.filter((response) => response.statusCode === 429);
    expect(limited).toHaveLength(15);
    for (const response of limited) {
      expect(response.json().code).toBe('rate_limited');
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(response.headers['x-ratelimit-remaining']).toBe('0');
    }
    nextWindow();
    expect((await api.get('/v1/organization')).statusCode).toBe(200);
  });

  it('counts per key: another key of the same tenant has its own window', async () => {
    nextWindow();
    const a = await ctx.createKey(company.id, 'test', ['org:empleados:read']);
    const b = await ctx.createKey(company.id, 'test', ['org:empleados:read']);
    for (let i = 0; i < 30; i++) await ctx.as(a.secret).get('/v1/organization');
    expect((await ctx.as(a.secret).get('/v1/organization')).statusCode).toBe(429);
    expect((await ctx.as(b.secret).get('/v1/organization')).statusCode).toBe(200);
  });
});

describe('monthly quota', () => {
  async function setQuotaUsed(companyId: string, used: number) {
    const now = ctx.clock.now().toZonedDateTimeISO('UTC');
    const month = `${now.year}-${String(now.month).padStart(2, '0')}-01`;
    await ctx.db
      .insertInto('quota_usage')
      .values({ company_id: companyId, month, request_count: used })
      .onConflict((conflict) =>
        conflict.columns(['company_id', 'month']).doUpdateSet({ request_count: used }),
      )
      .execute();
  }

  it('answers 429 quota_exceeded when the month is used up, without consuming the window', async () => {
    nextWindow();
    const other = await ctx.createCompany();
    await setQuotaUsed(other.sandboxId, 4_998);
    const first = await other.test.get('/v1/organization');
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-service-quota-remaining']).toBe('1');
    expect((await other.test.get('/v1/organization')).headers['x-service-quota-remaining']).toBe('0');
    const refused = await other.test.get('/v1/organization');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('quota_exceeded');
    expect(refused.headers['x-service-quota-remaining']).toBe('0');
    // When it resets (issue 41): the next month's start in UTC, as errors.resets_at and Retry-After.
    const now = ctx.clock.now();
    const resets = now
      .toZonedDateTimeISO('UTC')
      .toPlainDate()
      .toPlainYearMonth()
      .add({ months: 1 })
      .toPlainDate({ day: 1 })
      .toZonedDateTime('UTC')
      .toInstant();
    expect(refused.json().errors).toEqual({ resets_at: resets.toString() });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Math.abs(retryAfter - (resets.epochMilliseconds - now.epochMilliseconds) / 1000)).toBeLessThan(5);
    // The refused request gave its window slot back: 2 used of 30.
    expect(refused.headers['x-ratelimit-remaining']).toBe('28');
  });

  it('does not let rate-limited requests consume quota', async () => {
    nextWindow();
    const other = await ctx.createCompany();
    for (let i = 0; i < 35; i++) await other.test.get('/v1/organization');
    const usage = await ctx.db
      .selectFrom('quota_usage')
      .select('request_count')
      .where('company_id', '=', other.sandboxId)
      .executeTakeFirstOrThrow();
    expect(usage.request_count).toBe(30);
  });

  it('resets with the calendar month (UTC)', async () => {
    const other = await ctx.createCompany();
    await setQuotaUsed(other.sandboxId, 5_000);
    expect((await other.test.get('/v1/organization')).json().code).toBe('quota_exceeded');
    const now = ctx.clock.now().toZonedDateTimeISO('UTC');
    const nextMonth = now.with({ day: 1, hour: 0, minute: 0, second: 1 }).add({ months: 1 });
    ctx.clock.advance(now.until(nextMonth).total('seconds'));
    expect((await other.test.get('/v1/organization')).statusCode).toBe(200);
  });

  it('sizes the live quota by active employees, capped at 100,000', async () => {
    const other = await ctx.createCompany();
    await ctx.db
      .updateTable('companies')
      .set({ active_employee_count: 7 })
      .where('id', '=', other.id)
      .execute();
    expect((await other.live.get('/v1/organization')).json().monthly_quota).toBe(17_000);
    await ctx.db
      .updateTable('companies')
      .set({ active_employee_count: 500 })
      .where('id', '=', other.id)
      .execute();
    expect((await other.live.get('/v1/organization')).json().monthly_quota).toBe(100_000);
  });
});
