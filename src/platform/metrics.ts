import { createRequire } from 'node:module';
import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import { type Db, onConnectionError, poolOf } from '../db/database.ts';
import { knownMigrations } from '../db/migrator.ts';
import { dueWork } from '../db/queues.ts';
import { readSyncHorizon } from '../db/sync-stamp.ts';
import { ENDPOINT_HEALTH, endpointHealth, topCompanyUsage } from '../db/usage.ts';
import { type Clock, toDate } from '../time/clock.ts';
import { ApiError, problemCodeOf } from './errors.ts';
import { safeEqual, sha256 } from './secrets.ts';
import { monthlyQuota, quotaMonth } from './service-state.ts';

/**
 * The service's metrics for Prometheus (prom-client; docs/operations.md, "Metrics"): one registry per process,
 * the counters and histograms updated where things happen, and the gauges of the queues and the pool read when
 * /metrics is scraped. Served only with JORNADA_METRICS_TOKEN, on API nodes and on workers (their small port).
 */
export const metricsRegistry = new client.Registry();

/** The process's own metrics (CPU, memory, event-loop lag, GC): collected only by a process that serves them. */
let collectingDefaults = false;
function collectDefaultMetrics(): void {
  if (collectingDefaults) return;
  collectingDefaults = true;
  client.collectDefaultMetrics({ register: metricsRegistry, prefix: 'jornada_' });
}

const registers = [metricsRegistry];

export const httpRequests = new client.Counter({
  name: 'jornada_http_requests_total',
  help: 'HTTP requests answered, by method, route (the pattern, not the URL) and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});

export const httpDuration = new client.Histogram({
  name: 'jornada_http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

export const rateLimitRefusals = new client.Counter({
  name: 'jornada_rate_limit_refusals_total',
  help: 'Requests refused by a limit: rate_limited (a minute window, reports in generation, login throttling) or quota_exceeded (the monthly quota).',
  labelNames: ['code'] as const,
  registers,
});

export const admissionBatches = new client.Histogram({
  name: 'jornada_api_admission_batch_size',
  help: 'Requests authenticated and admitted by one admission statement (the requests a node receives while the previous one is in flight go together).',
  buckets: [1, 2, 4, 8, 16, 32, 64, 128],
  registers,
});

export const webhookDeliveries = new client.Counter({
  name: 'jornada_webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome: succeeded, retry (failed, another attempt scheduled), failed (no attempt left), abandoned (the endpoint was disabled).',
  labelNames: ['outcome'] as const,
  registers,
});

export const webhookEndpointsAutoDisabled = new client.Counter({
  name: 'jornada_webhook_endpoints_auto_disabled_total',
  help: 'Webhook endpoints disabled by this process after 7 days of consecutive failed deliveries.',
  registers,
});

export const eventToDelivery = new client.Histogram({
  name: 'jornada_webhook_event_to_delivery_seconds',
  help: 'From an event to the successful delivery of it to an endpoint (retries included), in seconds.',
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400],
  registers,
});

const webhookEndpoints = new client.Gauge({
  name: 'jornada_webhook_endpoints',
  help: 'Webhook endpoints of every company by state: active, failing (active, last attempts failed), disabled_failures (disabled after 7 days of failures), disabled_manual.',
  labelNames: ['state'] as const,
  registers,
});

/** How many companies the per-company gauges name: a bounded number of series, whatever the tenants. */
export const TOP_COMPANIES = 10;

const companyRequests = new client.Gauge({
  name: 'jornada_company_requests_month',
  help: `API requests counted toward this month's quota (UTC month) of the ${TOP_COMPANIES} companies that made the most; company is the id.`,
  labelNames: ['company'] as const,
  registers,
});

const companyQuotaUsed = new client.Gauge({
  name: 'jornada_company_quota_used_ratio',
  help: `The share of its monthly quota used this month, for the ${TOP_COMPANIES} companies with the most requests.`,
  labelNames: ['company'] as const,
  registers,
});

export const reportDuration = new client.Histogram({
  name: 'jornada_report_generation_seconds',
  help: 'Time to generate a report file, by type, format and outcome (completed, failed).',
  labelNames: ['type', 'format', 'outcome'] as const,
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers,
});

export const databaseErrors = new client.Counter({
  name: 'jornada_database_errors_total',
  help: 'Database failures: unavailable (a request answered 503: unreachable, timed out, restarting) and connection (a pooled connection lost).',
  labelNames: ['kind'] as const,
  registers,
});

onConnectionError(() => databaseErrors.inc({ kind: 'connection' }));

const queueDepth = new client.Gauge({
  name: 'jornada_queue_due',
  help: 'Work due now and not yet done, by queue: webhook_deliveries, reports.',
  labelNames: ['queue'] as const,
  registers,
});

const queueAge = new client.Gauge({
  name: 'jornada_queue_oldest_due_age_seconds',
  help: 'How long the oldest due item of a queue has waited past its due time (0 when none is due).',
  labelNames: ['queue'] as const,
  registers,
});

const poolConnections = new client.Gauge({
  name: 'jornada_db_pool_connections',
  help: "The database pool's connections: total (open), idle, and waiting (callers queued for one).",
  labelNames: ['state'] as const,
  registers,
});

const syncHorizonLag = new client.Gauge({
  name: 'jornada_sync_horizon_lag_seconds',
  help: 'How far the sync horizon is behind the clock: sync listings hold back what was stamped since (docs/architecture.md, "Sync without gaps"). Near 0 unless a write transaction runs long.',
  registers,
});

/** The release a node runs and the newest schema it knows (issue 37): one series of value 1. */
const buildInfo = new client.Gauge({
  name: 'jornada_build_info',
  help: "The node's release (version) and the newest migration it knows (schema); always 1.",
  labelNames: ['version', 'schema'] as const,
  registers,
});
let buildInfoSet = false;

async function setBuildInfo(): Promise<void> {
  if (buildInfoSet) return;
  buildInfoSet = true;
  const version = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;
  buildInfo.set({ version, schema: (await knownMigrations()).at(-1) ?? 'none' }, 1);
}

/** Reads the gauges that describe state: what is due in the two queues, the sync horizon, and the pool. */
async function readGauges(db: Db, clock: Clock): Promise<void> {
  await setBuildInfo();
  const queues = await dueWork(db, toDate(clock.now()));
  for (const row of queues) {
    queueDepth.set({ queue: row.queue }, Number(row.due));
    queueAge.set({ queue: row.queue }, Math.max(0, Number(row.oldest ?? 0)));
  }
  const horizon = await readSyncHorizon(db, clock);
  syncHorizonLag.set(Math.max(0, clock.now().epochMilliseconds - horizon) / 1000);
  await readTenantGauges(db, clock);
  const pool = poolOf(db);
  if (pool) {
    poolConnections.set({ state: 'total' }, pool.totalCount);
    poolConnections.set({ state: 'idle' }, pool.idleCount);
    poolConnections.set({ state: 'waiting' }, pool.waitingCount);
  }
}

/** When the tenant gauges were last read, per database: at most once a minute, however often they are scraped. */
const tenantGaugesRead = new WeakMap<Db, number>();
const TENANT_GAUGES_MS = 60_000;

/** The gauges across tenants: the busiest companies' use of their quota, and the endpoints' health. */
async function readTenantGauges(db: Db, clock: Clock): Promise<void> {
  const now = clock.now();
  const last = tenantGaugesRead.get(db);
  if (last !== undefined && now.epochMilliseconds - last < TENANT_GAUGES_MS && now.epochMilliseconds >= last)
    return;
  tenantGaugesRead.set(db, now.epochMilliseconds);
  const [usage, endpoints] = await Promise.all([
    topCompanyUsage(db, quotaMonth(now), TOP_COMPANIES),
    endpointHealth(db),
  ]);
  // The set of companies changes: the gauges name this minute's top companies only.
  companyRequests.reset();
  companyQuotaUsed.reset();
  for (const row of usage) {
    companyRequests.set({ company: row.company_id }, row.requests);
    const quota = monthlyQuota(row.sandbox ? 'test' : 'live', row.active_employees);
    companyQuotaUsed.set({ company: row.company_id }, quota > 0 ? row.requests / quota : 0);
  }
  webhookEndpoints.reset();
  for (const state of ENDPOINT_HEALTH) {
    webhookEndpoints.set({ state }, endpoints.find((row) => row.state === state)?.endpoints ?? 0);
  }
}

/**
 * Migrations in the database that this node's release does not know and cannot run beside (not marked
 * expand-only; issue 37): above 0, it must not serve.
 */
export const schemaUnknownMigrations = new client.Gauge({
  name: 'jornada_schema_unknown_migrations',
  help: 'Migrations applied to the database that this node does not know and may not run beside (not expand-only): a newer release migrated it',
  registers,
});

/** Counts every answered request by its route's pattern (never the URL: ids would make series without end). */

export function registerRequestMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    const code = problemCodeOf(request);
    if (code === 'rate_limited' || code === 'quota_exceeded') rateLimitRefusals.inc({ code });
    if (reply.statusCode === 503 && code === 'internal_error') databaseErrors.inc({ kind: 'unavailable' });
  });
}

/**
 * GET /metrics in the Prometheus text format, for `Authorization: Bearer <JORNADA_METRICS_TOKEN>` only; without
 * the setting the route does not exist (404), so a deployment that does not scrape shows nothing.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  options: { db: Db; clock: Clock; token: string | null },
): void {
  const { token } = options;
  if (token === null) return;
  collectDefaultMetrics();
  const expected = sha256(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!safeEqual(sha256(given), expected)) {
      throw new ApiError('unauthenticated', 'Send the metrics token as "Authorization: Bearer <token>".');
    }
    await readGauges(options.db, options.clock);
    return reply
      .header('cache-control', 'no-store')
      .type(metricsRegistry.contentType)
      .send(await metricsRegistry.metrics());
  });
}
