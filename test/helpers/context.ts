import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { TrustProxy } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import { createDeps } from '../../src/deps.ts';
import { reportGenerationJob } from '../../src/jobs/report-generation.ts';
import type { ReportStoreConfig } from '../../src/modules/reports/store.ts';
import { systemResolver, type TargetPolicy } from '../../src/modules/webhooks/target.ts';
import type { AppDeps } from '../../src/platform/deps.ts';
import { SCOPES, type Scope } from '../../src/platform/scopes.ts';
import { FakeClock, systemClock } from '../../src/time/clock.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const PUBLIC_URL = 'http://jornada.test';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
type RequestOptions = { headers?: Record<string, string>; query?: Record<string, string | number> };

export type Response = LightMyRequestResponse & { body: string };

export type Client = {
  request(method: Method, url: string, body?: unknown, options?: RequestOptions): Promise<Response>;
  get(url: string, options?: RequestOptions): Promise<Response>;
  post(url: string, body?: unknown, options?: RequestOptions): Promise<Response>;
  patch(url: string, body?: unknown, options?: RequestOptions): Promise<Response>;
  delete(url: string, options?: RequestOptions): Promise<Response>;
};

export type TestCompany = {
  id: string;
  sandboxId: string;
  liveKey: string;
  liveKeyId: string;
  testKey: string;
  testKeyId: string;
  live: Client;
  test: Client;
};

export type TestContext = {
  app: FastifyInstance;
  db: Db;
  clock: FakeClock;
  deps: AppDeps;
  database: TestDatabase;
  admin: Client;
  /** A client sending the given bearer token (or none). */
  as(token: string | null): Client;
  /** A company with a live and a test key holding the given scopes (default: all). */
  createCompany(options?: {
    name?: string;
    scopes?: Scope[];
    seats?: number;
    timezone?: string;
    /**
     * The company's tracking start. By default 2000-01-01: a company that brought its whole history, so that
     * the figures of back-dated test data are expected as before tracking starts existed. A test of the
     * tracking start itself passes null (the service's default: the day the company is created) or a date.
     */
    trackingStart?: string | null;
  }): Promise<TestCompany>;
  createKey(
    companyId: string,
    mode: 'live' | 'test',
    scopes: Scope[],
    extra?: Record<string, unknown>,
  ): Promise<{ id: string; secret: string }>;
  close(): Promise<void>;
};

function client(app: FastifyInstance, token: string | null): Client {
  const request = async (method: Method, url: string, body?: unknown, options: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      headers['content-type'] ??= 'application/json';
    }
    const query = options.query
      ? Object.fromEntries(Object.entries(options.query).map(([key, value]) => [key, String(value)]))
      : undefined;
    return (await app.inject({
      method,
      url,
      headers,
      ...(payload !== undefined ? { payload } : {}),
      ...(query ? { query } : {}),
    })) as Response;
  };
  return {
    request,
    get: (url, options) => request('GET', url, undefined, options),
    post: (url, body, options) => request('POST', url, body ?? {}, options),
    patch: (url, body, options) => request('PATCH', url, body, options),
    delete: (url, options) => request('DELETE', url, undefined, options),
  };
}

type TestOptions = {
  fakeClock?: boolean;
  adminToken?: string | null;
  webhookTargets?: TargetPolicy;
  publicUrl?: string;
  /** An SMTP server for the mail the service sends (a local sink in the tests). */
  smtp?: { url: string; from: string };
  /** JORNADA_TRUST_PROXY's parsed value (off unless given). */
  trustProxy?: TrustProxy;
  /** JORNADA_METRICS_TOKEN (no /metrics unless given). */
  metricsToken?: string;
  /** JORNADA_REPORTS_STORE (a temporary directory unless given). */
  reportsStore?: ReportStoreConfig;
};

/** The app's dependencies over a database, as the tests use them: a fake clock and the admin API enabled. */
export async function testDeps(
  db: Db,
  clock: FakeClock,
  reports: string | ReportStoreConfig,
  options: TestOptions = {},
): Promise<AppDeps> {
  return await createDeps({
    db,
    clock,
    fakeClock: options.fakeClock === false ? null : clock,
    publicUrl: options.publicUrl ?? PUBLIC_URL,
    adminToken: options.adminToken === undefined ? ADMIN_TOKEN : options.adminToken,
    webhookTargets: options.webhookTargets ?? { allowPrivate: true, resolve: systemResolver },
    reportsStore: typeof reports === 'string' ? { kind: 'file', dir: reports } : reports,
    smtp: options.smtp ?? null,
  });
}

/** A real app on a fresh clone of the migrated database, with a fake clock and the admin API enabled. */
export async function createTestContext(options: TestOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase();
  const reportsDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-reports-'));
  const clock = new FakeClock();
  const deps = await testDeps(database.db, clock, options.reportsStore ?? reportsDir, options);
  const app = await buildApp(deps, {
    trustProxy: options.trustProxy ?? false,
    metricsToken: options.metricsToken ?? null,
    // Routes compile on first use; compiling every other one in the background only slows the suite (app.ts).
    warmUp: false,
  });
  await app.ready();
  const admin = client(app, ADMIN_TOKEN);

  const createKey: TestContext['createKey'] = async (companyId, mode, scopes, extra = {}) => {
    const response = await admin.post(`/admin/v1/companies/${companyId}/api-keys`, {
      mode,
      scopes,
      ...extra,
    });
    if (response.statusCode !== 201)
      throw new Error(`createKey failed: ${response.statusCode} ${response.body}`);
    const key = response.json() as { id: string; secret: string };
    return { id: key.id, secret: key.secret };
  };

  let counter = 0;
  const createCompany: TestContext['createCompany'] = async (companyOptions = {}) => {
    counter += 1;
    const trackingStart =
      companyOptions.trackingStart === undefined ? '2000-01-01' : companyOptions.trackingStart;
    const response = await admin.post('/admin/v1/companies', {
      name: companyOptions.name ?? `Company ${counter}`,
      ...(companyOptions.seats !== undefined ? { seats: companyOptions.seats } : {}),
      ...(companyOptions.timezone !== undefined ? { timezone: companyOptions.timezone } : {}),
      ...(trackingStart !== null ? { tracking_start_date: trackingStart } : {}),
    });
    if (response.statusCode !== 201)
      throw new Error(`createCompany failed: ${response.statusCode} ${response.body}`);
    const company = response.json() as { id: string; sandbox_company_id: string };
    const scopes = companyOptions.scopes ?? [...SCOPES];
    const live = await createKey(company.id, 'live', scopes);
    const test = await createKey(company.id, 'test', scopes);
    return {
      id: company.id,
      sandboxId: company.sandbox_company_id,
      liveKey: live.secret,
      liveKeyId: live.id,
      testKey: test.secret,
      testKeyId: test.id,
      live: client(app, live.secret),
      test: client(app, test.secret),
    };
  };

  return {
    app,
    db: database.db,
    clock,
    deps,
    database,
    admin,
    as: (token) => client(app, token),
    createCompany,
    createKey,
    async close() {
      await app.close();
      await database.drop();
      await rm(reportsDir, { recursive: true, force: true });
    },
  };
}

/**
 * Registers a test file's beforeAll/afterAll: one app context and one company with every scope. The fields are
 * filled before the first test runs.
 */
/**
 * Sets a test's clock to an instant (it goes on ticking from there), for a test whose meaning depends on the time
 * of day, e.g. two time zones on different dates; returns the undo. The fake clock follows the real one otherwise,
 * so such a test would pass or fail by the hour it runs at.
 */
export function pinClock(clock: FakeClock, instant: string): () => void {
  const previous = clock.offsetMilliseconds;
  clock.setOffset(Temporal.Instant.from(instant).epochMilliseconds - systemClock.now().epochMilliseconds);
  return () => clock.setOffset(previous);
}

/** The next instant at that UTC hour, at or after the clock's now (so that a pinned clock never goes back). */
export function nextUtcHour(clock: FakeClock, hour: number): string {
  const now = clock.now().toZonedDateTimeISO('UTC');
  let at = now.with({ hour, minute: 0, second: 0, millisecond: 0, microsecond: 0, nanosecond: 0 });
  if (Temporal.ZonedDateTime.compare(at, now) < 0) at = at.add({ days: 1 });
  return at.toInstant().toString();
}

export function useCompanyContext(): { ctx: TestContext; company: TestCompany } {
  const state = {} as { ctx: TestContext; company: TestCompany };
  beforeAll(async () => {
    state.ctx = await createTestContext();
    state.company = await state.ctx.createCompany();
  });
  afterAll(() => state.ctx.close());
  return state;
}

/** The report generation job over a test context's database, clock, cursors and store. */
export function reportWorker(ctx: Pick<TestContext, 'db' | 'clock' | 'deps'>) {
  return reportGenerationJob({
    db: ctx.db,
    clock: ctx.clock,
    cursors: ctx.deps.cursors,
    store: ctx.deps.reportStore,
  });
}

/** Runs report generation until the queue is empty. */
export async function generateReports(ctx: Pick<TestContext, 'db' | 'clock' | 'deps'>): Promise<void> {
  const worker = reportWorker(ctx);
  while ((await worker.tick()) > 0) {}
}

/**
 * Requests a report, generates it, and downloads its file through the app: the report as listed (status
 * completed) and the file's response.
 */
export async function downloadReport(
  ctx: Pick<TestContext, 'db' | 'clock' | 'deps' | 'app'>,
  client: Client,
  body: Record<string, unknown>,
) {
  const created = await client.post('/v1/reports', body);
  expect(created.statusCode, created.body).toBe(202);
  await generateReports(ctx);
  const report = (await client.get(`/v1/reports/${created.json().id}`)).json();
  expect(report.status).toBe('completed');
  const url = new URL(report.download_url);
  const file = await ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
  expect(file.statusCode).toBe(200);
  return { report, file };
}
