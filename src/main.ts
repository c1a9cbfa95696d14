import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { buildApp, buildWorkerApp, type Lifecycle } from './app.ts';
import { type DemoSeed, seedDemo } from './bootstrap/demo.ts';
import { type Config, ConfigError } from './config.ts';
import { createDb, type Db, type DbOptions, isDatabaseUnavailable, ping } from './db/database.ts';
import { type EmbeddedDatabase, startEmbeddedDatabase } from './db/embedded.ts';
import { migrate, migrationStatus, NewerSchemaError } from './db/migrator.ts';
import { createDeps } from './deps.ts';
import { maintenanceJob } from './jobs/maintenance.ts';
import { missedClockOutsJob } from './jobs/missed-clock-outs.ts';
import { monthDocumentsJob } from './jobs/month-documents.ts';
import { notificationEmailsJob } from './jobs/notification-emails.ts';
import { processWriter } from './jobs/report-file.ts';
import { reportGenerationJob } from './jobs/report-generation.ts';
import { type Job, type Runner, startJobs } from './jobs/runner.ts';
import { shiftNoticesJob } from './jobs/shift-notices.ts';
import { webhookDeliveryJob } from './jobs/webhook-delivery.ts';
import { syncFakeClock } from './modules/clock/clock.service.ts';
import type { ReportStoreConfig } from './modules/reports/store.ts';
import { systemResolver } from './modules/webhooks/target.ts';
import { withinDeadline } from './platform/deadline.ts';
import type { AppDeps } from './platform/deps.ts';
import { holdCompilerWarmUp } from './platform/lazy-compilers.ts';
import { cursorKey } from './platform/pagination.ts';
import { localUrl, removeServiceRecord, writeServiceRecord } from './running-service-file.ts';
import { type Clock, FakeClock, systemClock } from './time/clock.ts';

export type Role = 'api' | 'worker' | 'all';

const POOL_CLOSE_MS = 3_000;
/** How often a report process's database session checks that the process is still there. */
const CLIENT_CONNECTION_CHECK_MS = 5_000;

export type Database = {
  db: Db;
  /**
   * How report processes connect (report-file.ts, processWriter): each opens one connection of its own without a
   * statement timeout, for the long streaming reads of a report.
   */
  stream: { url: string; options: DbOptions };
  embedded: EmbeddedDatabase | null;
  /** The migrations this open applied (none when the schema was up to date, or with `migrate: 'none'`). */
  applied: string[];
  close(): Promise<void>;
};

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL in the data dir. Migrations run on open unless
 * JORNADA_MIGRATE_ON_START=0 (then a database with pending migrations refuses to start); `force` runs them
 * anyway (`jornada migrate`). They go through JORNADA_MIGRATION_DATABASE_URL when set: a direct connection
 * where DATABASE_URL points at a transaction-mode pooler.
 */
export async function openDatabase(
  config: Config,
  log: Logger,
  options: {
    migrate?: 'on-start' | 'force' | 'none';
    /** The process, as the database names its sessions (`jornada <name>`). */
    name?: string;
  } = {},
): Promise<Database> {
  const embedded =
    config.databaseUrl === null
      ? await startEmbeddedDatabase({
          dataDir: config.dataDir,
          log: (message) => log.debug({ postgres: message }),
        })
      : null;
  const url = embedded?.connectionString ?? (config.databaseUrl as string);
  const settings = config.database;
  const db = createDb(url, {
    applicationName: options.name ? `jornada ${options.name}` : 'jornada',
    max: settings.poolMax,
    preparedStatements: settings.preparedStatements,
    connectTimeoutMs: settings.connectTimeoutMs,
    statementTimeoutMs: settings.statementTimeoutMs,
    lockTimeoutMs: settings.lockTimeoutMs,
    idleInTransactionTimeoutMs: settings.idleInTransactionTimeoutMs,
  });
  const stream = {
    url,
    options: {
      max: 1,
      preparedStatements: settings.preparedStatements,
      connectTimeoutMs: settings.connectTimeoutMs,
      lockTimeoutMs: settings.lockTimeoutMs,
      idleInTransactionTimeoutMs: settings.idleInTransactionTimeoutMs,
      // A report process killed at its time limit (report-generation.ts) leaves no statement behind.
      clientConnectionCheckMs: CLIENT_CONNECTION_CHECK_MS,
    },
  };
  const close = async () => {
    // A pool waits for its checked-out clients; a job still streaming after the drain deadline must not hold
    // the stop forever, and the embedded server's fast shutdown ends any session left.
    await withinDeadline(db.destroy(), POOL_CLOSE_MS);
    await embedded?.stop();
  };
  let appliedNow: string[] = [];
  try {
    // An external database may come up after the node (a compose stack, a failover): wait for it (issue 37).
    if (!embedded) await waitForDatabase(db, settings.startTimeoutMs, log);
    const mode = options.migrate ?? 'on-start';
    if (mode === 'none') {
      // Reading the schema's state only (`jornada migrate --status`).
    } else if (mode === 'force' || config.migrateOnStart) {
      const migrationDb = createDb(embedded ? url : (config.migrationDatabaseUrl ?? url), {
        max: 1,
        connectTimeoutMs: settings.connectTimeoutMs,
      });
      try {
        const { applied } = await migrate(migrationDb);
        appliedNow = applied;
        if (applied.length > 0) log.info({ applied }, 'migrations applied');
      } finally {
        await migrationDb.destroy();
      }
    } else {
      const { pending, breaking } = await migrationStatus(db);
      if (breaking.length > 0) throw new NewerSchemaError(breaking);
      if (pending.length > 0) {
        throw new ConfigError(
          `the database has ${pending.length} pending migration(s) (${pending.join(', ')}) and JORNADA_MIGRATE_ON_START=0: run \`jornada migrate\` first`,
        );
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { db, stream, embedded, applied: appliedNow, close };
}

/**
 * Waits for a database that does not answer yet, retrying with backoff (0.5 s doubling to 5 s) for up to
 * `timeoutMs` (JORNADA_DB_START_TIMEOUT_MS), with one log line per attempt; then the last error. An error that
 * waiting cannot fix (a wrong password, a database that does not exist) fails at once.
 */
export async function waitForDatabase(db: Db, timeoutMs: number, log: Logger): Promise<void> {
  const started = performance.now();
  for (let attempt = 1, delay = 500; ; attempt++, delay = Math.min(delay * 2, 5_000)) {
    try {
      await ping(db);
      if (attempt > 1) log.info({ attempt }, 'the database answers');
      return;
    } catch (error) {
      const left = timeoutMs - (performance.now() - started);
      if (!isDatabaseUnavailable(error) || left <= 0) throw error;
      const wait = Math.min(delay, left);
      log.warn(
        { attempt, retryInMs: wait, errorClass: (error as { code?: string }).code ?? (error as Error).name },
        'the database does not answer yet; retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The admin token: the configured one, else the one kept in the data dir (created, and printed, once). */
async function resolveAdminToken(
  config: Config,
  embedded: boolean,
): Promise<{ token: string | null; created: boolean }> {
  if (config.adminToken !== null) return { token: config.adminToken, created: false };
  if (!embedded) return { token: null, created: false };
  const file = path.join(config.dataDir, 'admin-token');
  if (existsSync(file)) return { token: (await readFile(file, 'utf8')).trim(), created: false };
  const token = `jrn_admin_${randomBytes(32).toString('base64url')}`;
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  return { token, created: true };
}

export type RunningService = { app: FastifyInstance | null; deps: AppDeps; stop(): Promise<void> };

/**
 * The background loops of a process. Workers run the jobs; every role follows the shared fake clock, so an
 * advance made through one API node reaches the others (and the workers) within a second.
 */
export function backgroundJobs(
  deps: AppDeps,
  role: Role,
  log: Logger,
  /**
   * Where report processes read (the database) and write (the file store's directory), and how long one may take
   * (JORNADA_REPORT_TIMEOUT_MS).
   */
  reports?: Database['stream'] & {
    store: ReportStoreConfig;
    timeoutMs: number;
    /** The SMTP server, which the e-mails' background process connects to (none: e-mails are skipped). */
    smtp?: { url: string; from: string } | null;
  },
): Job[] {
  const jobs: Job[] =
    role === 'api'
      ? []
      : [
          maintenanceJob(deps),
          webhookDeliveryJob({ db: deps.db, clock: deps.clock, targets: deps.webhookTargets, log }),
          reportGenerationJob({
            db: deps.db,
            // Each report in a process of its own, off the event loop that answers requests (issue 19).
            ...(reports
              ? {
                  write: processWriter({
                    databaseUrl: reports.url,
                    pool: reports.options,
                    cursorKey: cursorKey(deps.instanceSecret),
                    reportsStore: reports.store,
                  }),
                  timeoutMs: reports.timeoutMs,
                }
              : {}),
            clock: deps.clock,
            cursors: deps.cursors,
            store: deps.reportStore,
            log,
          }),
          monthDocumentsJob(
            deps,
            // A closed month's documents in a background process, as reports (issue 39).
            reports
              ? { databaseUrl: reports.url, pool: reports.options, cursorKey: cursorKey(deps.instanceSecret) }
              : undefined,
          ),
          shiftNoticesJob(deps),
          notificationEmailsJob(
            deps,
            // The notification e-mails (a month close's have PDFs) in a background process too (issue 39).
            reports
              ? {
                  databaseUrl: reports.url,
                  pool: reports.options,
                  smtp: reports.smtp ?? null,
                }
              : undefined,
          ),
          missedClockOutsJob(deps),
        ];
  const fakeClock = deps.fakeClock;
  if (fakeClock) {
    jobs.push({
      name: 'fake-clock-sync',
      idleMilliseconds: 1_000,
      tick: async () => {
        await syncFakeClock(deps.db, fakeClock);
        return 0;
      },
    });
  }
  return jobs;
}

export async function startService(
  config: Config,
  options: { role: Role; print?: (text: string) => void },
): Promise<RunningService> {
  const print = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  const log = pino({ level: config.logLevel });
  const database = await openDatabase(config, log, { name: options.role });
  const { db, embedded } = database;

  const fakeClock = config.fakeClock ? new FakeClock() : null;
  if (fakeClock) await syncFakeClock(db, fakeClock);
  const clock: Clock = fakeClock ?? systemClock;
  const admin = await resolveAdminToken(config, embedded !== null);
  const deps = await createDeps({
    db,
    clock,
    fakeClock,
    publicUrl: config.publicUrl,
    adminToken: admin.token,
    webhookTargets: {
      allowPrivate: config.webhooksAllowPrivate,
      resolve: systemResolver,
      allowedPorts: config.webhookPorts,
    },
    reportsStore: config.reportsStore,
    maxPendingReports: config.maxPendingReports,
    lateRecordHours: config.lateRecordHours,
    smtp: config.smtpUrl === null ? null : { url: config.smtpUrl, from: config.mailFrom },
  });

  let app: FastifyInstance | null = null;
  let runner: Runner | null = null;
  const lifecycle: Lifecycle = { draining: false };
  const seeding = embedded?.created === true && config.demo;
  // The demo month is seeded right after the server is ready: the compilers' warm-up waits for it (issue 42).
  const releaseWarmUp = seeding ? holdCompilerWarmUp() : () => undefined;
  try {
    if (options.role !== 'worker') {
      app = await buildApp(deps, {
        logger: { level: config.logLevel },
        http: config.http,
        lifecycle,
        trustProxy: config.trustProxy,
        metricsToken: config.metricsToken,
      });
      await app.listen({ port: config.port, host: config.host });
      const address = app.server.address();
      if (address !== null && typeof address === 'object') {
        await writeServiceRecord(config.dataDir, {
          url: localUrl(address),
          pid: process.pid,
          started_at: new Date().toISOString(),
        });
      }
    } else {
      // A worker answers probes and metrics on its own small port (PORT), nothing else.
      app = await buildWorkerApp(deps, { lifecycle, metricsToken: config.metricsToken });
      await app.listen({ port: config.port, host: config.host });
    }
    const jobs = backgroundJobs(deps, options.role, log, {
      ...database.stream,
      store: config.reportsStore,
      timeoutMs: config.reportTimeoutMs,
      smtp: config.smtpUrl === null ? null : { url: config.smtpUrl, from: config.mailFrom },
    });
    if (jobs.length > 0) runner = startJobs(jobs, log);
  } catch (error) {
    releaseWarmUp();
    await app?.close();
    await database.close();
    throw error;
  }

  if (seeding) {
    // Seeding a month of records takes a while on a slow machine: say what is happening (issue 42).
    print('First start: seeding the demo company and its month of records…');
    const demo = await seedDemo(db, clock).finally(releaseWarmUp);
    print(demoBanner(config, demo, admin.created ? admin.token : null));
  } else if (admin.created && admin.token) {
    print(`Admin token (shown once, kept in ${path.join(config.dataDir, 'admin-token')}):\n  ${admin.token}`);
  }
  log.info({ role: options.role, url: config.publicUrl, embedded: embedded !== null }, 'jornada started');

  let stopping: Promise<void> | null = null;
  return {
    app,
    deps,
    stop() {
      stopping ??= (async () => {
        // Drain: /readyz answers 503 at once; the listener closes; in-flight requests and job ticks get the
        // drain deadline; then every connection still open is closed, and the database goes last.
        lifecycle.draining = true;
        const jobs = runner?.stop();
        const drain = async () => {
          // Still serving while load balancers see /readyz fail and take this node out of rotation.
          if (app) await delay(Math.min(config.drainReadinessMs, config.drainTimeoutMs));
          await Promise.all([app?.close(), jobs]);
          return true;
        };
        const draining = drain();
        if (!(await withinDeadline(draining, config.drainTimeoutMs))) {
          log.warn({ drainTimeoutMs: config.drainTimeoutMs }, 'drain deadline passed: closing connections');
          app?.server.closeAllConnections();
          await withinDeadline(draining, POOL_CLOSE_MS);
        }
        await database.close();
        if (app) await removeServiceRecord(config.dataDir, process.pid);
        log.info('jornada stopped');
      })();
      return stopping;
    },
  };
}

function demoBanner(config: Config, demo: DemoSeed, adminToken: string | null): string {
  const lines = [
    '',
    '================ Jornada: first start ================',
    'A demo company was created. These secrets are shown ONCE:',
    '',
    `  live API key:  ${demo.liveKey}`,
    `  test API key:  ${demo.testKey}`,
    '',
    `  dashboard:     ${config.publicUrl}/dashboard`,
    `    email:       ${demo.login.email}`,
    `    password:    ${demo.login.password}`,
  ];
  if (adminToken) {
    lines.push(`  admin token:   ${adminToken}`, `  (kept in ${path.join(config.dataDir, 'admin-token')})`);
  }
  lines.push(
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer ${demo.testKey}" ${config.publicUrl}/v1/organization`,
    '======================================================',
    '',
  );
  return lines.join('\n');
}
