import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaUsed } from '../../../../src/platform/auth.repo.ts';
import { LISTEN_PER_MINUTE } from '../../../../src/platform/auth.ts';
import { quotaMonth } from '../../../../src/platform/service-state.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';

/**
 * The sandbox's event feed on a budget of its own (issue 41): `jornada listen` long-polls it for as long as it
 * runs, and on the key's budget a listener left running spent the sandbox's monthly quota in about 30 hours. Its
 * requests count in a window of their own, exact across nodes, and in neither the key's rate limit nor the quota.
 */
let ctx: TestContext;
let company: TestCompany;
beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany();
});
afterAll(() => ctx.close());

const poll = (client = company.test) =>
  client.get('/v1/sandbox/events', { query: { after: 'latest', wait: 0 } });
const quota = () => quotaUsed(ctx.db, company.sandboxId, quotaMonth(ctx.clock.now()));

describe('the listen budget', () => {
  it('admits polls past the key’s rate limit, counts none in the quota, and stops at its own limit', async () => {
    ctx.clock.advance(60);
    const before = await quota();
    // A test key may make 30 requests a minute; the feed takes LISTEN_PER_MINUTE of its own.
    for (let index = 1; index <= LISTEN_PER_MINUTE; index += 1) {
      const answer = await poll();
      expect(answer.statusCode, `poll ${index}: ${answer.body}`).toBe(200);
      expect(answer.headers['x-ratelimit-limit']).toBe(String(LISTEN_PER_MINUTE));
      expect(answer.headers['x-ratelimit-remaining']).toBe(String(LISTEN_PER_MINUTE - index));
    }
    const over = await poll();
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(await quota()).toBe(before);
    // The key's own window was not touched: its next ordinary request is its first of the minute.
    const ordinary = await company.test.get('/v1/organization');
    expect(ordinary.statusCode).toBe(200);
    expect(ordinary.headers['x-ratelimit-remaining']).toBe('29');
    expect(await quota()).toBe(before + 1);
    // A new minute, a new window.
    ctx.clock.advance(60);
    expect((await poll()).statusCode).toBe(200);
  });

  it('still refuses what any request is refused: no key, a live key (404), a key without the scope, a revoked one', async () => {
    ctx.clock.advance(60);
    expect((await ctx.as(null).get('/v1/sandbox/events', { query: { after: 'latest' } })).statusCode).toBe(
      401,
    );
    expect(
      (await ctx.as('jrn_test_not-a-key-0000000000000000000000000000000').get('/v1/sandbox/events'))
        .statusCode,
    ).toBe(401);
    expect((await poll(company.live)).statusCode).toBe(404);
    const narrow = await ctx.createCompany({ scopes: ['org:empleados:read'] });
    const refused = await poll(narrow.test);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('invalid_scope');
    expect((await ctx.admin.delete(`/admin/v1/api-keys/${company.testKeyId}`)).statusCode).toBe(204);
    expect((await poll()).statusCode).toBe(401);
  });
});
