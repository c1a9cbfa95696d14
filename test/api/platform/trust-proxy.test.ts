import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';
import { createAdmin } from '../../helpers/dashboard.ts';

/**
 * JORNADA_TRUST_PROXY (issue 18): behind a reverse proxy the client's address comes from X-Forwarded-For, and
 * only from the proxies the setting names; off by default, so a client cannot choose its own address.
 */
const CLIENT = '203.0.113.9';

describe('the setting', () => {
  it('is off by default and takes true, a number of proxies, or addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ JORNADA_TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ JORNADA_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ JORNADA_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ JORNADA_TRUST_PROXY: '10.0.0.0/8, loopback,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      'loopback',
      '::1',
    ]);
    expect(() => loadConfig({ JORNADA_TRUST_PROXY: 'proxy.internal' })).toThrow(ConfigError);
    expect(() => loadConfig({ JORNADA_TRUST_PROXY: '10.0.0.0/99' })).toThrow(/JORNADA_TRUST_PROXY/);
  });
});

/** The address a key was last used from, after one request with X-Forwarded-For. */
async function addressSeen(ctx: TestContext, company: TestCompany): Promise<string> {
  const response = await company.live.get('/v1/organization', { headers: { 'x-forwarded-for': CLIENT } });
  expect(response.statusCode, response.body).toBe(200);
  const keys = (await ctx.admin.get(`/admin/v1/companies/${company.id}/api-keys`)).json().data;
  return keys.find((key: { id: string }) => key.id === company.liveKeyId).last_used_ip;
}

describe('off', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('keeps the connection’s address, whatever X-Forwarded-For says', async () => {
    expect(await addressSeen(ctx, await ctx.createCompany())).toBe('127.0.0.1');
  });
});

describe('trusting the proxy on this host', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ trustProxy: ['loopback'] });
  });
  afterAll(() => ctx.close());

  it('records the client’s address as the key’s last_used_ip', async () => {
    expect(await addressSeen(ctx, await ctx.createCompany())).toBe(CLIENT);
  });

  it('throttles logins by the client’s address, not the proxy’s', async () => {
    const company = await ctx.createCompany();
    const admin = await createAdmin(ctx, company.id);
    const login = (email: string, from: string) =>
      ctx.as(null).post(
        '/dashboard/api/login',
        { email, password: 'not the password at all' },
        {
          headers: { 'x-forwarded-for': from },
        },
      );
    // Ten failures from one client, each for another address, lock that client out…
    for (let index = 0; index < 10; index += 1) {
      expect((await login(`nobody${index}@example.com`, CLIENT)).statusCode).toBe(401);
    }
    expect((await login(admin.email, CLIENT)).statusCode).toBe(429);
    // …and no one else behind the same proxy: another client still gets to try.
    const other = await ctx.as(null).post(
      '/dashboard/api/login',
      { email: admin.email, password: admin.password },
      {
        headers: { 'x-forwarded-for': '198.51.100.4' },
      },
    );
    expect(other.statusCode, other.body).toBe(200);
  });
});
