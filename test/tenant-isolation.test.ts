import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from './helpers/context.ts';

/**
 * Company A's key against company B's ids, on every route that takes an id, and every listing: the answer is
 * always 404 not_found (never 403), and no listing shows another tenant's rows. Each module adds its routes.
 */
let ctx: TestContext;
let a: TestCompany;
let b: TestCompany;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext();
  a = await ctx.createCompany({ name: 'A' });
  b = await ctx.createCompany({ name: 'B' });
  ids.location = (
    await ctx.admin.post(`/admin/v1/companies/${b.id}/locations`, { name: 'B site' })
  ).json().id;
  ids.unit = (await ctx.admin.post(`/admin/v1/companies/${b.id}/units`, { name: 'B unit' })).json().id;
  ids.apiKey = b.liveKeyId;
  ids.sandboxLocation = (
    await ctx.admin.post(`/admin/v1/companies/${a.sandboxId}/locations`, { name: 'A test site' })
  ).json().id;
});
afterAll(() => ctx.close());

const ROUTES_WITH_IDS: Array<[method: 'GET' | 'DELETE', url: (ids: Record<string, string>) => string]> = [
  ['GET', (i) => `/v1/locations/${i.location}`],
  ['GET', (i) => `/v1/units/${i.unit}`],
  ['DELETE', (i) => `/v1/api-keys/${i.apiKey}`],
];

const LISTINGS = ['/v1/locations', '/v1/units', '/v1/api-keys'];

describe('tenant isolation', () => {
  for (const [method, url] of ROUTES_WITH_IDS) {
    it(`${method} ${url({ location: '{B}', unit: '{B}', apiKey: '{B}' })} answers 404 for another company`, async () => {
      const response = await a.live.request(method, url(ids));
      expect(response.statusCode).toBe(404);
      expect(response.json().code).toBe('not_found');
    });
  }

  it('keeps B’s key alive after A tried to revoke it', async () => {
    expect((await b.live.get('/v1/organization')).statusCode).toBe(200);
  });

  for (const listing of LISTINGS) {
    it(`${listing} never shows another company's rows`, async () => {
      const response = await a.live.get(listing, { query: { limit: 100 } });
      expect(response.statusCode).toBe(200);
      const listed = response.json().data.map((row: { id: string }) => row.id);
      for (const id of Object.values(ids)) {
        if (id !== ids.sandboxLocation) expect(listed).not.toContain(id);
      }
    });
  }

  it('separates a company from its own sandbox', async () => {
    expect((await a.live.get(`/v1/locations/${ids.sandboxLocation}`)).statusCode).toBe(404);
    expect((await a.test.get(`/v1/locations/${ids.sandboxLocation}`)).statusCode).toBe(200);
  });
});
