import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type AuthenticationInput, authenticateMany, quotaUsed } from '../../../src/platform/auth.repo.ts';
import { windowOf } from '../../../src/platform/auth.ts';
import { groupAdmission } from '../../../src/platform/batched-authentication.ts';
import { sha256 } from '../../../src/platform/secrets.ts';
import { toDate } from '../../../src/time/clock.ts';
import { useCompanyContext } from '../../helpers/context.ts';

/** A run function that records its batches and answers when told to. */
function recordingRun() {
  const batches: number[][] = [];
  const waiting: Array<{ inputs: readonly number[]; settle: (fail?: boolean) => void }> = [];
  const run = (inputs: readonly number[]) =>
    new Promise<readonly string[]>((resolve, reject) => {
      batches.push([...inputs]);
      waiting.push({
        inputs,
        settle: (fail) =>
          fail ? reject(new Error('statement failed')) : resolve(inputs.map((n) => `r${n}`)),
      });
    });
  return { batches, waiting, run };
}

describe('group admission', () => {
  it('sends the requests of one turn together, and those made during a batch in the next one, in order', async () => {
    const { batches, waiting, run } = recordingRun();
    const admit = groupAdmission(run, { maxBatch: 100 });
    const first = [admit(1), admit(2)];
    await nextTurn();
    expect(batches).toEqual([[1, 2]]);
    const second = [admit(3), admit(4), admit(5)];
    await nextTurn();
    // Nothing new is sent while the first batch is in flight.
    expect(batches).toEqual([[1, 2]]);
    waiting[0]?.settle();
    expect(await Promise.all(first)).toEqual(['r1', 'r2']);
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    waiting[1]?.settle();
    expect(await Promise.all(second)).toEqual(['r3', 'r4', 'r5']);
    // Idle again: a lone request goes alone, without waiting for more.
    const lone = admit(6);
    await nextTurn();
    expect(batches.at(-1)).toEqual([6]);
    waiting[2]?.settle();
    expect(await lone).toBe('r6');
  });

  it('splits a queue longer than maxBatch', async () => {
    const { batches, waiting, run } = recordingRun();
    const admit = groupAdmission(run, { maxBatch: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => admit(n));
    await nextTurn();
    for (let index = 0; index < 3; index += 1) {
      waiting[index]?.settle();
      await nextTurn();
    }
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    expect(await Promise.all(all)).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
  });

  it('fails only the requests of a failed batch, and goes on with the next', async () => {
    const { waiting, run } = recordingRun();
    const admit = groupAdmission(run, { maxBatch: 10 });
    const failed = [admit(1), admit(2)];
    await nextTurn();
    const next = admit(3);
    waiting[0]?.settle(true);
    for (const request of failed) await expect(request).rejects.toThrow('statement failed');
    await nextTurn();
    waiting[1]?.settle();
    expect(await next).toBe('r3');
  });

  it('fails a batch whose statement answers a different number of results', async () => {
    const admit = groupAdmission(async (inputs: readonly number[]) => inputs.slice(1), { maxBatch: 10 });
    await expect(Promise.all([admit(1), admit(2)])).rejects.toThrow('returned 1 results');
  });
});

describe('jornada_authenticate_many', () => {
  const env = useCompanyContext();

  function request(secret: string, extra: Partial<AuthenticationInput> = {}): AuthenticationInput {
    const now = env.ctx.clock.now();
    const window = windowOf(now);
    return {
      secretHash: sha256(secret),
      mode: secret.startsWith('jrn_live_') ? 'live' : 'test',
      now: toDate(now),
      windowStart: window.windowStart,
      month: window.month,
      ip: '192.0.2.7',
      allowInactiveService: false,
      ...extra,
    };
  }

  async function setCounts(companyId: string, keyId: string, window: number, quota: number) {
    const { windowStart, month } = windowOf(env.ctx.clock.now());
    await env.ctx.db
      .insertInto('rate_limit_windows')
      .values({ company_id: companyId, api_key_id: keyId, window_start: windowStart, request_count: window })
      .onConflict((c) =>
        c.columns(['company_id', 'api_key_id', 'window_start']).doUpdateSet({ request_count: window }),
      )
      .execute();
    await env.ctx.db
      .insertInto('quota_usage')
      .values({ company_id: companyId, month, request_count: quota })
      .onConflict((c) => c.columns(['company_id', 'month']).doUpdateSet({ request_count: quota }))
      .execute();
  }

  async function counts(companyId: string, keyId: string) {
    const { windowStart, month } = windowOf(env.ctx.clock.now());
    const window = await env.ctx.db
      .selectFrom('rate_limit_windows')
      .select('request_count')
      .where('company_id', '=', companyId)
      .where('api_key_id', '=', keyId)
      .where('window_start', '=', windowStart)
      .executeTakeFirst();
    return { window: window?.request_count ?? 0, quota: await quotaUsed(env.ctx.db, companyId, month) };
  }

  it('answers each request of a mixed batch as if they were admitted one after the other, in input order', async () => {
    const { ctx } = env;
    // A test key one request below its window (30 a minute), another tenant one below its quota (5,000).
    const windowFull = await ctx.createCompany();
    await setCounts(windowFull.sandboxId, windowFull.testKeyId, 29, 100);
    const quotaFull = await ctx.createCompany();
    await setCounts(quotaFull.sandboxId, quotaFull.testKeyId, 3, 4_999);
    const closed = await ctx.createCompany();
    await ctx.db.updateTable('companies').set({ addon_enabled: false }).where('id', '=', closed.id).execute();
    const revoked = await ctx.createKey(env.company.id, 'live', ['org:empleados:read']);
    expect((await ctx.admin.delete(`/admin/v1/api-keys/${revoked.id}`)).statusCode).toBe(204);

    const results = await authenticateMany(ctx.db, [
      request(windowFull.testKey),
      request(`jrn_live_${'A'.repeat(43)}`),
      request(quotaFull.testKey),
      request(windowFull.testKey),
      request(closed.liveKey),
      request(quotaFull.testKey),
      request(env.company.liveKey.replace('jrn_live_', 'jrn_test_'), { mode: 'test' }),
      request(revoked.secret),
      request(windowFull.testKey),
      request(env.company.liveKey),
    ]);
    expect(results.map((result) => result.outcome)).toEqual([
      'admitted',
      'unauthenticated',
      'admitted',
      'rate_limited',
      'refused',
      'quota_exceeded',
      'unauthenticated',
      'unauthenticated',
      'rate_limited',
      'admitted',
    ]);
    const usage = results.map((result) =>
      result.outcome === 'unauthenticated' ? null : [result.window_count, result.quota_count],
    );
    expect(usage).toEqual([
      [30, 101],
      null,
      [4, 5_000],
      [30, 101],
      [0, 0],
      [4, 5_000],
      null,
      null,
      [30, 101],
      [1, 1],
    ]);
    expect(results[0]).toMatchObject({
      company_id: windowFull.sandboxId,
      api_key_id: windowFull.testKeyId,
      mode: 'test',
      sandbox: true,
    });
    // The counters hold what the answers said: the quota written once with the batch's count.
    expect(await counts(windowFull.sandboxId, windowFull.testKeyId)).toEqual({ window: 30, quota: 101 });
    expect(await counts(quotaFull.sandboxId, quotaFull.testKeyId)).toEqual({ window: 4, quota: 5_000 });
    expect(await counts(closed.id, closed.liveKeyId)).toEqual({ window: 0, quota: 0 });
  });

  it('admits exactly the limits from concurrent batches over several tenants, in any order, without deadlock', async () => {
    const { ctx } = env;
    const companies = await Promise.all([0, 1, 2].map(() => ctx.createCompany()));
    const keys = companies.map((company) => company.testKey);
    for (const company of companies) {
      for (let index = 0; index < 2; index += 1) {
        keys.push((await ctx.createKey(company.id, 'test', ['org:empleados:read'])).secret);
      }
    }
    // 9 test keys (30 a minute each), 45 requests per key, spread over 12 batches in shuffled orders.
    const requests = keys.flatMap((key) => Array.from({ length: 45 }, () => key));
    for (let index = requests.length - 1; index > 0; index -= 1) {
      const other = Math.floor(Math.random() * (index + 1));
      [requests[index], requests[other]] = [requests[other] as string, requests[index] as string];
    }
    const batches = Array.from({ length: 12 }, (_, batch) =>
      requests.filter((_, index) => index % 12 === batch),
    );
    const results = (
      await Promise.all(
        batches.map((batch) =>
          authenticateMany(
            ctx.db,
            batch.map((key) => request(key)),
          ),
        ),
      )
    ).flat();
    const sent = batches.flat();
    const admitted = new Map<string, number>();
    for (const [index, result] of results.entries()) {
      expect(['admitted', 'rate_limited']).toContain(result.outcome);
      if (result.outcome === 'admitted') {
        const key = sent[index] as string;
        admitted.set(key, (admitted.get(key) ?? 0) + 1);
      }
    }
    for (const key of keys) expect(admitted.get(key)).toBe(30);
    const { month } = windowOf(ctx.clock.now());
    for (const company of companies) expect(await quotaUsed(ctx.db, company.sandboxId, month)).toBe(90);
  });

  it('keeps jornada_authenticate, one request through the same function, for a node of the previous release', async () => {
    const { ctx } = env;
    const other = await ctx.createCompany();
    const input = request(other.liveKey);
    const { rows } = await sql<{
      outcome: string;
      api_key_id: string;
      window_count: number;
      quota_count: number;
    }>`
      select outcome, api_key_id, window_count, quota_count from jornada_authenticate(
        ${input.secretHash}, 'live', ${input.now}::timestamptz, ${input.windowStart}::timestamptz,
        ${input.month}::date, '192.0.2.8', false, 120, 30, 5000, 10000, 1000, 100000)`.execute(ctx.db);
    expect(rows).toEqual([
      { outcome: 'admitted', api_key_id: other.liveKeyId, window_count: 1, quota_count: 1 },
    ]);
    expect(await counts(other.id, other.liveKeyId)).toEqual({ window: 1, quota: 1 });
  });
});
