import { sql } from 'kysely';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSyncStamp } from '../../../src/db/sync-stamp.ts';
import {
  createTestContext,
  generateReports,
  type TestCompany,
  type TestContext,
} from '../../helpers/context.ts';
import { hire } from '../../helpers/resources.ts';

/**
 * GET /metrics (issue 18): Prometheus text, read back by a Prometheus text-format parser, with the series an
 * operator needs: requests and latency by route and status, limit refusals, the queues, deliveries, reports, the
 * pool and database errors. Only with JORNADA_METRICS_TOKEN, and only for its bearer.
 */
const TOKEN = 'metrics-token-for-the-tests';

type Sample = {
  labels?: Record<string, string>;
  value?: string;
  buckets?: Record<string, string>;
  count?: string;
};
type Family = { name: string; help: string; type: string; metrics: Sample[] };

let ctx: TestContext;
let company: TestCompany;
beforeAll(async () => {
  ctx = await createTestContext({ metricsToken: TOKEN });
  company = await ctx.createCompany();
});
afterAll(() => ctx.close());

let text = '';
async function scrape(): Promise<Map<string, Family>> {
  const response = await ctx.as(TOKEN).get('/metrics');
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  text = response.body;
  const families = parsePrometheusTextFormat(response.body) as Family[];
  return new Map(families.map((family) => [family.name, family]));
}

/**
 * A labelled histogram's observation count. The parser merges a histogram's label sets into one (its known
 * limit), so the count is read from the `_count` line the parser accepted.
 */
function histogramCount(name: string, labels: Record<string, string>): number {
  const line = text
    .split('\n')
    .find(
      (row) =>
        row.startsWith(`${name}_count{`) &&
        Object.entries(labels).every(([key, value]) => row.includes(`${key}="${value}"`)),
    );
  return Number(line?.split(' ').at(-1));
}

const sample = (family: Family | undefined, labels: Record<string, string>) =>
  family?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );

describe('/metrics', () => {
  it('exists only with JORNADA_METRICS_TOKEN, and answers only its bearer', async () => {
    const without = await createTestContext();
    try {
      expect((await without.as(TOKEN).get('/metrics')).statusCode).toBe(404);
    } finally {
      await without.close();
    }
    expect((await ctx.as(null).get('/metrics')).statusCode).toBe(401);
    expect((await ctx.as('not-the-metrics-token').get('/metrics')).statusCode).toBe(401);
    expect((await ctx.as(company.liveKey).get('/metrics')).statusCode).toBe(401);
  });

  it('counts requests and their latency by route pattern and status, and the refusals of a limit', async () => {
    const worker = await hire(company.live);
    await company.live.get(`/v1/employees/${worker.id}`);
    await company.live.get('/v1/employees/00000000-0000-7000-8000-000000000000');
    // A test key may make 30 requests a minute: the 31st is refused.
    for (let index = 0; index < 31; index += 1) await company.test.get('/v1/organization');
    const families = await scrape();
    const requests = families.get('jornada_http_requests_total');
    expect(requests?.type).toBe('COUNTER');
    expect(
      Number(sample(requests, { method: 'GET', route: '/v1/employees/:id', status: '200' })?.value),
    ).toBeGreaterThanOrEqual(1);
    expect(
      Number(sample(requests, { method: 'GET', route: '/v1/employees/:id', status: '404' })?.value),
    ).toBeGreaterThanOrEqual(1);
    // A URL's ids never become labels.
    expect(requests?.metrics.some((metric) => metric.labels?.route?.includes(worker.id))).toBe(false);
    const latency = families.get('jornada_http_request_duration_seconds');
    expect(latency?.type).toBe('HISTOGRAM');
    expect(
      histogramCount('jornada_http_request_duration_seconds', { route: '/v1/employees/:id', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    const refusals = families.get('jornada_rate_limit_refusals_total');
    expect(Number(sample(refusals, { code: 'rate_limited' })?.value)).toBeGreaterThanOrEqual(1);
  });

  it('shows how many requests each admission statement admitted: concurrent requests share one', async () => {
    const before = await scrape();
    const count = (families: Map<string, Family>) =>
      Number(families.get('jornada_api_admission_batch_size')?.metrics[0]?.count ?? 0);
    const sum = (families: Map<string, Family>) =>
      Number((families.get('jornada_api_admission_batch_size')?.metrics[0] as { sum?: string })?.sum ?? 0);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => company.live.get('/v1/organization')),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    const after = await scrape();
    expect(after.get('jornada_api_admission_batch_size')?.type).toBe('HISTOGRAM');
    expect(sum(after) - sum(before)).toBe(20);
    // 20 requests sent together need fewer statements than requests.
    const statements = count(after) - count(before);
    expect(statements).toBeGreaterThanOrEqual(1);
    expect(statements).toBeLessThan(20);
  });

  it('shows the queues, the deliveries, the reports, the pool and the database errors', async () => {
    // A report waiting, then generated.
    const requested = await company.live.post('/v1/reports', {
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-01-01', to: '2026-01-31' },
    });
    expect(requested.statusCode, requested.body).toBe(202);
    const waiting = await scrape();
    expect(
      Number(sample(waiting.get('jornada_queue_due'), { queue: 'reports' })?.value),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(waiting.get('jornada_queue_due'), { queue: 'webhook_deliveries' })).toBeDefined();
    // A first attempt not yet claimed is due (it waits after its tenant's delivery cursor), since it was made.
    const endpoint = await company.live.post('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/metrics',
      events: ['employee.created'],
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const dueBefore = Number(
      sample(waiting.get('jornada_queue_due'), { queue: 'webhook_deliveries' })?.value,
    );
    await hire(company.live);
    ctx.clock.advance(30);
    const delivering = await scrape();
    expect(Number(sample(delivering.get('jornada_queue_due'), { queue: 'webhook_deliveries' })?.value)).toBe(
      dueBefore + 1,
    );
    expect(
      Number(
        sample(delivering.get('jornada_queue_oldest_due_age_seconds'), { queue: 'webhook_deliveries' })
          ?.value,
      ),
    ).toBeGreaterThanOrEqual(30);
    expect(sample(waiting.get('jornada_queue_oldest_due_age_seconds'), { queue: 'reports' })).toBeDefined();
    await generateReports(ctx);
    const after = await scrape();
    expect(Number(sample(after.get('jornada_queue_due'), { queue: 'reports' })?.value)).toBe(0);
    const reports = after.get('jornada_report_generation_seconds');
    expect(reports?.type).toBe('HISTOGRAM');
    expect(
      histogramCount('jornada_report_generation_seconds', {
        type: 'check_ins_export',
        format: 'csv',
        outcome: 'completed',
      }),
    ).toBeGreaterThanOrEqual(1);
    const pool = after.get('jornada_db_pool_connections');
    expect(Number(sample(pool, { state: 'total' })?.value)).toBeGreaterThanOrEqual(1);
    expect(sample(pool, { state: 'waiting' })).toBeDefined();
    for (const name of ['jornada_webhook_delivery_attempts_total', 'jornada_database_errors_total']) {
      expect(after.get(name)?.type, name).toBe('COUNTER');
    }
    // The sync horizon: near 0 at rest; held back by a write transaction that runs long.
    expect(Number(after.get('jornada_sync_horizon_lag_seconds')?.metrics[0]?.value)).toBeLessThan(5);
    const held = Promise.withResolvers<void>();
    const published = Promise.withResolvers<void>();
    const writer = withSyncStamp(ctx.db, ctx.clock, company.id, async () => {
      published.resolve();
      await held.promise;
    });
    await published.promise;
    ctx.clock.advance(30);
    try {
      const lagging = await scrape();
      expect(
        Number(lagging.get('jornada_sync_horizon_lag_seconds')?.metrics[0]?.value),
      ).toBeGreaterThanOrEqual(30);
    } finally {
      held.resolve();
      await writer;
    }
    // The process's own: memory, CPU, event-loop lag.
    expect(after.get('jornada_process_resident_memory_bytes')).toBeDefined();
    expect(after.get('jornada_nodejs_eventloop_lag_seconds')).toBeDefined();
  });
});

describe('/metrics, across tenants', () => {
  it("names the busiest companies' quota use (10 at most) and the endpoints' health, read at most once a minute", async () => {
    // Twelve companies with 1 to 12 requests each this month (keys of their own, counted toward their quota).
    const busy: TestCompany[] = [];
    for (let index = 1; index <= 12; index++) {
      const tenant = await ctx.createCompany();
      for (let request = 0; request < index; request++) {
        expect((await tenant.live.get('/v1/employees')).statusCode).toBe(200);
      }
      busy.push(tenant);
    }
    const endpoint = await company.live.post('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/health',
      events: ['employee.created'],
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    ctx.clock.advance(61);
    const first = await scrape();
    const requests = first.get('jornada_company_requests_month');
    expect(requests?.metrics.length).toBe(10);
    const counted = async (tenant: TestCompany) =>
      (
        await sql<{
          n: number;
        }>`select request_count as n from quota_usage where company_id = ${tenant.id}`.execute(ctx.db)
      ).rows[0]?.n ?? 0;
    const busiest = busy.at(-1) as TestCompany;
    expect(Number(sample(requests, { company: busiest.id })?.value)).toBe(await counted(busiest));
    // The least busy of the twelve are not named.
    expect(sample(requests, { company: (busy[0] as TestCompany).id })).toBeUndefined();
    // A live company with no employee has a quota of 10,000 requests.
    expect(
      Number(sample(first.get('jornada_company_quota_used_ratio'), { company: busiest.id })?.value),
    ).toBeCloseTo((await counted(busiest)) / 10_000, 6);
    const endpoints = first.get('jornada_webhook_endpoints');
    const active = Number(sample(endpoints, { state: 'active' })?.value);
    expect(active).toBeGreaterThanOrEqual(1);
    const manual = Number(sample(endpoints, { state: 'disabled_manual' })?.value);

    // Disabled by hand: the next scrape within the minute still shows what was read; the one after shows it.
    const id = endpoint.json().id as string;
    expect((await company.live.patch(`/v1/webhook-endpoints/${id}`, { status: 'disabled' })).statusCode).toBe(
      200,
    );
    const soon = await scrape();
    expect(Number(sample(soon.get('jornada_webhook_endpoints'), { state: 'disabled_manual' })?.value)).toBe(
      manual,
    );
    ctx.clock.advance(61);
    const later = await scrape();
    expect(Number(sample(later.get('jornada_webhook_endpoints'), { state: 'disabled_manual' })?.value)).toBe(
      manual + 1,
    );
    expect(Number(sample(later.get('jornada_webhook_endpoints'), { state: 'active' })?.value)).toBe(
      active - 1,
    );
  });
});
