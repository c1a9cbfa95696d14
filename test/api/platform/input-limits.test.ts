import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';
import { hire } from '../../helpers/resources.ts';

/** Issue 35's 500s from input: a body nested 20,000 levels deep, a timestamp with ten fractional digits. */
let ctx: TestContext;
let company: TestCompany;
beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());

const deep = (levels: number) => `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;

describe('input the API cannot read', () => {
  it('answers 422 problem+json to a body nested 20,000 levels deep, also before any login', async () => {
    for (const url of ['/dashboard/api/login', '/portal/api/login']) {
      const response = await ctx.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: `{"email":${deep(20_000)},"password":"x"}`,
      });
      expect(response.statusCode, `${url} ${response.body}`).toBe(422);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.json().code).toBe('validation_failed');
    }
    const keyed = await ctx.app.inject({
      method: 'POST',
      url: '/v1/check-ins',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${company.liveKey}` },
      payload: `{"employee_id":${deep(20_000)}}`,
    });
    expect(keyed.statusCode, keyed.body).toBe(422);
    // 64 levels are still read (and refused by the schema as usual, not by the guard).
    const shallow = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":${deep(60)},"password":"x"}`,
    });
    expect(shallow.statusCode).toBe(422);
    expect(JSON.stringify(shallow.json().errors)).not.toContain('nest deeper');
  });

  it('answers 422 to a timestamp with more than nine fractional digits', async () => {
    const worker = await hire(company.live, { hire_date: '2026-01-01' });
    const response = await company.live.post('/v1/check-ins', {
      employee_id: worker.id,
      type: 'in',
      timestamp: '2026-10-05T07:00:00.1234567891Z',
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().code).toBe('validation_failed');
    const nine = await company.live.post('/v1/check-ins', {
      employee_id: worker.id,
      type: 'in',
      timestamp: '2026-10-05T07:00:00.123456789Z',
    });
    expect(nine.statusCode, nine.body).toBe(201);
  });
});
