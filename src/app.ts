import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import FindMyWay from 'find-my-way';
import type { HttpSettings, TrustProxy } from './config.ts';
import { writable } from './db/database.ts';
import { migrationStatus } from './db/migrator.ts';
import { notificationPages } from './modules/notifications/notifications.routes.ts';
import { OPENAPI_EXAMPLES } from './modules/openapi-examples.ts';
import { registerRequestLog } from './modules/request-log/request-log.service.ts';
import {
  WEBHOOK_PARAMETERS,
  WEBHOOK_RESPONSES,
  webhookEventsOpenApi,
} from './modules/webhooks/webhooks.schemas.ts';
import { registerAuth } from './platform/auth.ts';
import { withinDeadline } from './platform/deadline.ts';
import type { AppDeps } from './platform/deps.ts';
import { ApiError, registerErrorHandler } from './platform/errors.ts';
import { registerIdempotency } from './platform/idempotency.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  ROUTER_MAX_PARAM_LENGTH,
  registerInputGuards,
  registerResponseHeaders,
} from './platform/input-guard.ts';
import { lazyCompilers } from './platform/lazy-compilers.ts';
import { requestLogSerializers } from './platform/log-redaction.ts';
import { registerMetricsRoute, registerRequestMetrics, schemaUnknownMigrations } from './platform/metrics.ts';
import { registerOpenApi } from './platform/openapi.ts';
import { registerValidators } from './platform/validation.ts';
import { adminSurface } from './surfaces/admin.ts';
import { dashboardSurface } from './surfaces/dashboard.ts';
import { docsPlugin } from './surfaces/docs-site/docs.plugin.ts';
import { kioskSurface } from './surfaces/kiosk.ts';
import { portalSurface } from './surfaces/portal.ts';
import { registryAccessSurface } from './surfaces/registry-access.ts';
import { registerTenantRoutes } from './surfaces/tenant-routes.ts';

/** Shared with the process: while draining (after SIGTERM), /readyz answers 503. */
export type Lifecycle = { draining: boolean };

export type BuildOptions = {
  logger?: FastifyServerOptions['logger'];
  http?: HttpSettings;
  lifecycle?: Lifecycle;
  /** JORNADA_TRUST_PROXY (config.ts): whose X-Forwarded-For gives `request.ip`. */
  trustProxy?: TrustProxy;
  /** JORNADA_METRICS_TOKEN: GET /metrics answers with it only; null or absent, there is no /metrics. */
  metricsToken?: string | null;
  /**
   * Whether every route's validators and serializers are compiled in the background once ready (the default;
   * lazy-compilers.ts). The tests' in-process apps say false: each file builds its own app and calls few of its
   * routes, which compile on first use as always, and the background compiling of the rest was a fifth of the API
   * tier's CPU, taken from the other test worker. Served processes (`jornada serve`, the e2e tier) warm up.
   */
  warmUp?: boolean;
};

/** /readyz answers within this, even when the database does not. */
const READY_DEADLINE_MS = 2_000;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The public description's tags, in reading order. */
const PUBLIC_TAGS = [
  { name: 'Organization', description: 'The tenant the calling key acts on: live company or its sandbox.' },
  { name: 'API keys', description: 'The keys of the tenant: list them, revoke one.' },
  { name: 'Organization structure', description: 'Locations (work centres) and units (teams).' },
  { name: 'Employees', description: 'The workforce: hire, update, terminate, and sync.' },
  {
    name: 'Check-ins',
    description: 'Clock events (in, out, breaks): immutable records of the time registry.',
  },
  { name: 'Absences', description: 'Requests, decisions and the absence types.' },
  {
    name: 'Shifts',
    description:
      'Planned time: shifts, shift templates and rota patterns; published shifts plan the expected minutes.',
  },
  { name: 'Work summaries', description: 'Closed-workday figures per day or month, from the time engine.' },
  { name: 'Vacation balances', description: 'Entitled, used, pending and remaining vacation days per year.' },
  {
    name: 'Time registry',
    description: 'The registry of record: closed months that nothing but a correction changes.',
  },
  { name: 'Reports', description: 'Files generated in the background: the monthly registry and exports.' },
  {
    name: 'Payroll',
    description: 'Concept maps: the layout of the payroll variables report for your payroll program.',
  },
  { name: 'Webhooks', description: 'Endpoints that receive signed events, and their deliveries.' },
  {
    name: 'Webhook events',
    description:
      'What the service sends: each event as a signed POST (Standard Webhooks) to every active endpoint subscribed to its type, at least once.',
  },
];

/** /healthz (the process answers), /readyz (it can serve: not draining, the database answers) and /metrics. */
function registerProbes(
  app: FastifyInstance,
  deps: Pick<AppDeps, 'db' | 'clock'>,
  options: BuildOptions,
): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  const schemaGuard = newerSchemaGuard(deps.db, app.log);
  const lifecycle = options.lifecycle ?? { draining: false };
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (lifecycle.draining) return reply.code(503).send({ status: 'draining' });
    // Reachable within the deadline, and taking writes: a read-only database (a failover to a replica) answers
    // every write 503, so the node is not ready either (issue 37).
    const check = writable(deps.db).catch(() => 'unreachable' as const);
    const state = await withinDeadline(check, READY_DEADLINE_MS);
    if (state !== 'writable') {
      return reply.code(503).send({ status: state === 'read_only' ? 'read_only' : 'unavailable' });
    }
    // A newer release migrated the database while this node runs: it must not serve on a schema it does not know.
    const unknown = await schemaGuard.unknown();
    if (unknown.length > 0) return reply.code(503).send({ status: 'schema_newer', unknown });
    return { status: 'ready' };
  });
  registerMetricsRoute(app, { db: deps.db, clock: deps.clock, token: options.metricsToken ?? null });
}

/** How often readiness reads the applied migrations again (a small table; a probe comes every few seconds). */
const SCHEMA_CHECK_MS = 15_000;

/**
 * The schema guard of a running node (issue 37): the migrations applied to the database that this release does
 * not know, read at most every 15 s; logged once (an error line) when they appear, and exported as a gauge.
 */
function newerSchemaGuard(db: AppDeps['db'], log: FastifyInstance['log']) {
  let checkedAt = Number.NEGATIVE_INFINITY;
  let unknown: string[] = [];
  return {
    async unknown(): Promise<string[]> {
      const now = performance.now();
      if (now - checkedAt < SCHEMA_CHECK_MS) return unknown;
      checkedAt = now;
      // Only migrations not marked expand-only stop this node: it runs beside the others (a rolling upgrade).
      const found = (await migrationStatus(db).catch(() => ({ breaking: unknown }))).breaking;
      if (found.length > 0 && unknown.length === 0) {
        log.error(
          { unknown: found },
          'the database has migrations this release does not know: a newer release migrated it; this node is not ready',
        );
      }
      unknown = found;
      schemaUnknownMigrations.set(found.length);
      return unknown;
    },
  };
}

/**
 * A worker node's small HTTP server (`serve --role=worker`, on PORT): /healthz, /readyz and /metrics only, so
 * an orchestrator can probe it and Prometheus can scrape its deliveries and reports.
 */
export async function buildWorkerApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const docsUrl = `${deps.publicUrl}/docs`;
  const logger = options.logger ?? false;
  const app = Fastify({ logger, exposeHeadRoutes: false });
  registerErrorHandler(app, docsUrl);
  registerRequestMetrics(app);
  registerProbes(app, deps, options);
  app.setNotFoundHandler(async (request) => {
    throw new ApiError('not_found', `No route ${request.method} ${request.url} on a worker node.`);
  });
  return app;
}

/** Registers the platform plugins and the modules. No business logic lives here. */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const docsUrl = `${deps.publicUrl}/docs`;
  const logger = options.logger ?? false;
  // A number of proxies: the nearest that many are believed (proxy-addr counts hops from 0).
  const trust = options.trustProxy;
  // Each route's validators and serializers compiled on first use or in the background after start (issue 42).
  const compilers = lazyCompilers({ warmUp: options.warmUp !== false });
  const app = Fastify({
    schemaController: { compilersFactory: { buildSerializer: compilers.serializerBuilder() as never } },
    logger: typeof logger === 'object' ? { ...logger, serializers: requestLogSerializers } : logger,
    bodyLimit: 1024 * 1024,
    // Behind a reverse proxy the client's address (last_used_ip, logs, login throttling) comes from
    // X-Forwarded-For, believed only from the proxies JORNADA_TRUST_PROXY names.
    trustProxy: typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : (trust ?? false),
    exposeHeadRoutes: false,
    // One log line per request, when it is answered (below), instead of Fastify's two (incoming and completed):
    // the line has all the first one said, and a busy node writes half as much (issue 19).
    logController: new LogController({ disableRequestLogging: true }),
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: ROUTER_MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrors(docsUrl),
    // While closing, requests on open connections are served normally (answering them Fastify's own 503 would
    // not be problem+json); /readyz reports the drain.
    return503OnClosing: false,
    // Slow clients: a request's headers and its whole body must arrive within their timeouts, checked every
    // second (Node's default check runs every 30 s); an idle keep-alive connection is closed after its own.
    ...(options.http
      ? {
          requestTimeout: options.http.requestTimeoutMs,
          keepAliveTimeout: options.http.keepAliveTimeoutMs,
          http: { headersTimeout: options.http.headersTimeoutMs, connectionsCheckingInterval: 1_000 },
        }
      : {}),
    clientErrorHandler: clientErrorHandler(docsUrl),
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  });
  app.addHook('onRequestAbort', async (request) => {
    request.log.info({ req: request }, 'request aborted by the client');
  });
  registerValidators(app, compilers.validator);
  compilers.warmWhenReady(app);
  registerErrorHandler(app, docsUrl);
  registerRequestMetrics(app);
  registerInputGuards(app);
  registerResponseHeaders(app);

  // JSON only: other content types are refused (422). An empty JSON body counts as no body.
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    // The default parser reports through done(); it returns nothing to await.
    void parseJson(request, body as string, done);
  });

  // Every route, by method, so that a wrong method on a known path answers 405 instead of 404.
  const known = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (routeOptions) => {
    const methods = Array.isArray(routeOptions.method) ? routeOptions.method : [routeOptions.method];
    for (const method of methods) {
      if ((HTTP_METHODS as readonly string[]).includes(method)) {
        known.on(method as (typeof HTTP_METHODS)[number], routeOptions.url, () => {});
      }
    }
  });
  const notFoundOrNotAllowed = (method: string, url: string): ApiError => {
    const path = url.split('?')[0] ?? url;
    const allowed = HTTP_METHODS.filter((candidate) => candidate !== method && known.find(candidate, path));
    if (allowed.length > 0) {
      return new ApiError(
        'not_found',
        `${method} is not allowed on ${path}. Allowed: ${allowed.join(', ')}.`,
        {
          status: 405,
          headers: { Allow: allowed.join(', ') },
          // The code stays not_found (v1 never renames one); errors.reason names the case (issue 41).
          errors: { reason: 'method_not_allowed', allowed },
        },
      );
    }
    return new ApiError('not_found', `No route ${method} ${path}.`);
  };
  app.setNotFoundHandler(async (request) => {
    throw notFoundOrNotAllowed(request.method, request.url);
  });

  registerProbes(app, deps, options);
  await app.register(async (docs) => docsPlugin(docs, { docsUrl }));

  await app.register(
    async (v1) => {
      registerAuth(v1, deps);
      registerIdempotency(v1, deps);
      registerRequestLog(v1, deps);
      await registerOpenApi(v1, {
        surface: 'public',
        title: 'Jornada public API',
        description:
          'Workforce time and absence data for payroll and HR integrations: employees, check-ins, absences, work summaries, vacation balances, reports and signed webhooks. Errors are RFC 9457 problem+json with a stable `code`.',
        routePrefix: '/v1/openapi.json',
        webhooks: webhookEventsOpenApi(),
        webhookParameters: WEBHOOK_PARAMETERS,
        webhookResponses: WEBHOOK_RESPONSES,
        tags: PUBLIC_TAGS,
        examples: OPENAPI_EXAMPLES,
      });
      registerTenantRoutes(v1, deps, 'api');
      v1.setNotFoundHandler(async (request) => {
        throw notFoundOrNotAllowed(request.method, request.url);
      });
    },
    { prefix: '/v1' },
  );

  await app.register(async (dashboard) => dashboardSurface(dashboard, deps));
  await app.register(async (portal) => portalSurface(portal, deps));
  await app.register(async (kiosk) => kioskSurface(kiosk, deps));
  await app.register(async (access) => registryAccessSurface(access, deps));
  await app.register(async (pages) => notificationPages(pages, deps));

  const adminToken = deps.adminToken;
  if (adminToken !== null) {
    await app.register(async (admin) => adminSurface(admin, { ...deps, adminToken }), {
      prefix: '/admin/v1',
    });
  }
  return app;
}
