import { describe, expect, it } from 'vitest';
import { MAX_FAILURES, WINDOW_MINUTES } from '../../../src/modules/logins/logins.service.ts';
import { SESSION_RATE_LIMIT_PER_MINUTE } from '../../../src/platform/session-gate.ts';
import { useCompanyContext } from '../../helpers/context.ts';
import { createAdmin, dashboardSession } from '../../helpers/dashboard.ts';

const env = useCompanyContext();

const login = (email: string, password: string, remoteAddress = '198.51.100.7') =>
  env.ctx.app.inject({
    method: 'POST',
    url: '/dashboard/api/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email, password }),
    remoteAddress,
  });

describe('login throttling', () => {
  it('refuses an email with 429 and Retry-After after 10 failures in 15 minutes, without checking the password', async () => {
    env.ctx.clock.advance(3600);
    const admin = await createAdmin(env.ctx, env.company.id);
    for (let attempt = 0; attempt < MAX_FAILURES; attempt++) {
      const wrong = await login(admin.email, 'not the password at all', `203.0.113.${attempt + 1}`);
      expect(wrong.statusCode).toBe(401);
      env.ctx.clock.advance(10);
    }
    // The right password, from a fresh address: refused all the same, since it is not even checked.
    const locked = await login(admin.email, admin.password, '203.0.113.200');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'rate_limited', status: 429 });
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MINUTES * 60);
    // Once the first failure has left the window, the login works again, and a success clears the count.
    env.ctx.clock.advance(retryAfter);
    expect((await login(admin.email, admin.password, '203.0.113.201')).statusCode).toBe(200);
    expect((await login(admin.email, 'wrong again, once', '203.0.113.202')).statusCode).toBe(401);
    expect((await login(admin.email, admin.password, '203.0.113.203')).statusCode).toBe(200);
  });

  it('refuses an address after 10 failures across any emails', async () => {
    env.ctx.clock.advance(3600);
    const admin = await createAdmin(env.ctx, env.company.id);
    for (let attempt = 0; attempt < MAX_FAILURES; attempt++) {
      expect(
        (await login(`nobody${attempt}@example.com`, 'guess guess guess', '192.0.2.50')).statusCode,
      ).toBe(401);
    }
    const locked = await login(admin.email, admin.password, '192.0.2.50');
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect((await login(admin.email, admin.password, '192.0.2.51')).statusCode).toBe(200);
    env.ctx.clock.advance(WINDOW_MINUTES * 60 + 1);
    expect((await login(admin.email, admin.password, '192.0.2.50')).statusCode).toBe(200);
  });
});

describe('login throttling under parallel attempts (issue 35)', () => {
  it('checks at most 10 of 400 parallel dashboard logins from one address, one of them right', async () => {
    env.ctx.clock.advance(3600);
    const admin = await createAdmin(env.ctx, env.company.id);
    const guesses = Array.from({ length: 400 }, (_, n) =>
      n === 200 ? admin.password : `wrong guess number ${n}`,
    );
    const statuses = (
      await Promise.all(guesses.map((guess) => login(admin.email, guess, '198.51.100.99')))
    ).map((response) => response.statusCode);
    const checked = statuses.filter((status) => status === 401 || status === 200);
    expect(checked.length).toBeLessThanOrEqual(MAX_FAILURES);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(400 - MAX_FAILURES);
    expect(statuses.every((status) => [200, 401, 429].includes(status))).toBe(true);
  });

  it('checks at most 10 of 150 parallel portal logins for one email', async () => {
    env.ctx.clock.advance(3600);
    const attempts = Array.from({ length: 150 }, (_, n) =>
      env.ctx.app.inject({
        method: 'POST',
        url: '/portal/api/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'worker@example.com', password: `guess ${n} guess guess` }),
        remoteAddress: `203.0.113.${(n % 200) + 1}`,
      }),
    );
    const statuses = (await Promise.all(attempts)).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(MAX_FAILURES);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(150 - MAX_FAILURES);
  });
});

describe('dashboard metering', () => {
  it('gives each session a per-minute window and does not count toward the monthly quota', async () => {
    env.ctx.clock.advance(3600);
    const admin = await createAdmin(env.ctx, env.company.id);
    const session = await dashboardSession(env.ctx, admin.email, admin.password);
    // Start at the beginning of a minute, so that the whole burst falls in one window.
    env.ctx.clock.advance(60 - (Math.floor(env.ctx.clock.now().epochMilliseconds / 1000) % 60));
    const quota = () =>
      env.ctx.db
        .selectFrom('quota_usage')
        .select('request_count')
        .where('company_id', '=', env.company.sandboxId)
        .execute();
    const before = await quota();
    const statuses: number[] = [];
    for (let call = 0; call <= SESSION_RATE_LIMIT_PER_MINUTE; call++) {
      statuses.push((await session.call('GET', '/dashboard/api/test/employees?limit=1')).statusCode);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(SESSION_RATE_LIMIT_PER_MINUTE);
    const refused = await session.call('GET', '/dashboard/api/test/employees?limit=1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await quota()).toEqual(before);
    env.ctx.clock.advance(60);
    expect((await session.call('GET', '/dashboard/api/session')).statusCode).toBe(200);
  }, 60_000);

  it('meters the person, not the session: four sessions of one administrator share one window (issue 35)', async () => {
    env.ctx.clock.advance(3600);
    const admin = await createAdmin(env.ctx, env.company.id);
    const sessions = await Promise.all(
      Array.from({ length: 4 }, () => dashboardSession(env.ctx, admin.email, admin.password)),
    );
    env.ctx.clock.advance(60 - (Math.floor(env.ctx.clock.now().epochMilliseconds / 1000) % 60));
    const statuses: number[] = [];
    for (let call = 0; call < SESSION_RATE_LIMIT_PER_MINUTE + 8; call++) {
      const session = sessions[call % 4] as (typeof sessions)[number];
      statuses.push((await session.call('GET', '/dashboard/api/session')).statusCode);
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(SESSION_RATE_LIMIT_PER_MINUTE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(8);
  }, 60_000);
});
