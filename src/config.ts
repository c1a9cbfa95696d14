import path from 'node:path';
import ipaddr from 'ipaddr.js';
import type { ReportStoreConfig } from './modules/reports/store.ts';

/** Every environment variable Jornada reads, parsed and validated in one place. */
export type Config = {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  adminToken: string | null;
  publicUrl: string;
  fakeClock: boolean;
  webhooksAllowPrivate: boolean;
  logLevel: string;
  demo: boolean;
  /** A direct (unpooled) URL for migrations, when DATABASE_URL goes through a transaction-mode pooler. */
  migrationDatabaseUrl: string | null;
  migrateOnStart: boolean;
  database: DatabaseSettings;
  http: HttpSettings;
  /** How long SIGTERM waits for in-flight requests and jobs before closing connections. */
  drainTimeoutMs: number;
  /** After SIGTERM, how long the node keeps serving with /readyz at 503 before it stops accepting. */
  drainReadinessMs: number;
  /** Ports webhook URLs may use (443 by default). */
  webhookPorts: number[];
  /** Reports a company may have queued or in generation at once. */
  maxPendingReports: number;
  /** JORNADA_LATE_RECORD_HOURS: the late threshold no company may exceed (docs/registry.md, Late records). */
  lateRecordHours: number;
  /** How long one report generation may take before it is stopped and counted as a failed attempt. */
  reportTimeoutMs: number;
  /** JORNADA_SMTP_URL: where mail goes (portal invitations); null sends none. */
  smtpUrl: string | null;
  /** JORNADA_MAIL_FROM: the sender of that mail. */
  mailFrom: string;
  /**
   * JORNADA_TRUST_PROXY: which reverse proxies' X-Forwarded-For (and -Proto, -Host) to believe, so that the
   * client's address is seen behind them: false (the default: the connection's address), true (any), a number
   * of hops, or a list of addresses and CIDR ranges (or loopback, linklocal, uniquelocal).
   */
  trustProxy: TrustProxy;
  /** JORNADA_METRICS_TOKEN: the bearer token of GET /metrics; null (unset): no /metrics at all. */
  metricsToken: string | null;
  /** JORNADA_REPORTS_STORE: report files in the data dir's `reports/` (file, the default) or a bucket (s3). */
  reportsStore: ReportStoreConfig;
};

export type TrustProxy = boolean | number | string[];

/** The pool and the timeouts of every connection (milliseconds; 0 turns a timeout off). */
export type DatabaseSettings = {
  poolMax: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  /** JORNADA_DB_PREPARED_STATEMENTS: statements prepared by name on their connection (src/db/database.ts). */
  preparedStatements: boolean;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /** How long a starting node retries an unreachable database before it gives up (issue 37); 0: no retry. */
  startTimeoutMs: number;
};

/** Node's HTTP server timeouts (milliseconds): a client must send its request in time. */
export type HttpSettings = { requestTimeoutMs: number; headersTimeoutMs: number; keepAliveTimeoutMs: number };

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** An empty variable counts as unset. */
function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = read(env, name);
  if (value === undefined) return fallback;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new ConfigError(`${name} must be 1 or 0 (got "${value}")`);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const value = read(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
  }
  return Number(value);
}

function postgresUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = read(env, name) ?? null;
  if (value !== null && !/^postgres(ql)?:\/\//.test(value)) {
    throw new ConfigError(`${name} must be a postgres:// or postgresql:// connection string`);
  }
  return value;
}

function ports(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const value = read(env, name);
  if (value === undefined) return fallback;
  const list = value.split(',').map((part) => part.trim());
  if (list.some((part) => !/^\d+$/.test(part) || Number(part) < 1 || Number(part) > 65535)) {
    throw new ConfigError(`${name} must be a comma-separated list of ports from 1 to 65535 (got "${value}")`);
  }
  return [...new Set(list.map(Number))];
}

const PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

function trustProxy(env: NodeJS.ProcessEnv, name: string): TrustProxy {
  const value = read(env, name);
  if (value === undefined || value === '0' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const list = value.split(',').map((part) => part.trim());
  const valid = (part: string) => {
    if (PROXY_KEYWORDS.has(part)) return true;
    if (part.includes('/')) {
      try {
        ipaddr.parseCIDR(part);
        return true;
      } catch {
        return false;
      }
    }
    return ipaddr.isValid(part);
  };
  if (list.some((part) => !valid(part))) {
    throw new ConfigError(
      `${name} must be true, a number of proxies, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal (got "${value}")`,
    );
  }
  return list;
}

const HOUR_MS = 3_600_000;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const portText = read(env, 'PORT') ?? '3000';
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535 (got "${portText}")`);
  }
  const port = Number(portText);
  const host = read(env, 'HOST') ?? '127.0.0.1';

  const databaseUrl = postgresUrl(env, 'DATABASE_URL');

  const metricsToken = read(env, 'JORNADA_METRICS_TOKEN') ?? null;
  if (metricsToken !== null && metricsToken.length < 16) {
    throw new ConfigError('JORNADA_METRICS_TOKEN must be at least 16 characters long');
  }
  const adminToken = read(env, 'JORNADA_ADMIN_TOKEN') ?? null;
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('JORNADA_ADMIN_TOKEN must be at least 16 characters long');
  }

  const dataDir = path.resolve(read(env, 'JORNADA_DATA_DIR') ?? './.data');
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const publicUrlText = read(env, 'JORNADA_PUBLIC_URL') ?? `http://${hostForUrl}:${port}`;
  let publicUrl: URL;
  try {
    publicUrl = new URL(publicUrlText);
  } catch {
    throw new ConfigError(`JORNADA_PUBLIC_URL must be an absolute http(s) URL (got "${publicUrlText}")`);
  }
  if (publicUrl.protocol !== 'http:' && publicUrl.protocol !== 'https:') {
    throw new ConfigError(`JORNADA_PUBLIC_URL must be an absolute http(s) URL (got "${publicUrlText}")`);
  }

  const logLevel = read(env, 'LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const http: HttpSettings = {
    requestTimeoutMs: integer(env, 'JORNADA_HTTP_REQUEST_TIMEOUT_MS', 30_000, 1_000, HOUR_MS),
    headersTimeoutMs: integer(env, 'JORNADA_HTTP_HEADERS_TIMEOUT_MS', 10_000, 1_000, HOUR_MS),
    keepAliveTimeoutMs: integer(env, 'JORNADA_HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 1_000, HOUR_MS),
  };
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw new ConfigError('JORNADA_HTTP_HEADERS_TIMEOUT_MS must not exceed JORNADA_HTTP_REQUEST_TIMEOUT_MS');
  }

  return {
    port,
    host,
    databaseUrl,
    dataDir,
    adminToken,
    publicUrl: publicUrl.toString().replace(/\/$/, ''),
    smtpUrl: smtpUrl(env),
    mailFrom: read(env, 'JORNADA_MAIL_FROM') ?? `Jornada <no-reply@${publicUrl.hostname}>`,
    fakeClock: flag(env, 'JORNADA_FAKE_CLOCK', false),
    webhooksAllowPrivate: flag(env, 'JORNADA_WEBHOOKS_ALLOW_PRIVATE', false),
    logLevel,
    demo: flag(env, 'JORNADA_DEMO', true),
    migrationDatabaseUrl: postgresUrl(env, 'JORNADA_MIGRATION_DATABASE_URL'),
    migrateOnStart: flag(env, 'JORNADA_MIGRATE_ON_START', true),
    database: {
      poolMax: integer(env, 'JORNADA_DB_POOL_MAX', 20, 1, 1000),
      preparedStatements: flag(env, 'JORNADA_DB_PREPARED_STATEMENTS', true),
      connectTimeoutMs: integer(env, 'JORNADA_DB_CONNECT_TIMEOUT_MS', 5_000, 0, HOUR_MS),
      statementTimeoutMs: integer(env, 'JORNADA_DB_STATEMENT_TIMEOUT_MS', 30_000, 0, HOUR_MS),
      lockTimeoutMs: integer(env, 'JORNADA_DB_LOCK_TIMEOUT_MS', 10_000, 0, HOUR_MS),
      idleInTransactionTimeoutMs: integer(
        env,
        'JORNADA_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS',
        60_000,
        0,
        HOUR_MS,
      ),
      startTimeoutMs: integer(env, 'JORNADA_DB_START_TIMEOUT_MS', 60_000, 0, HOUR_MS),
    },
    http,
    drainTimeoutMs: integer(env, 'JORNADA_DRAIN_TIMEOUT_MS', 25_000, 0, HOUR_MS),
    drainReadinessMs: integer(env, 'JORNADA_DRAIN_READINESS_MS', 1_000, 0, HOUR_MS),
    webhookPorts: ports(env, 'JORNADA_WEBHOOKS_ALLOWED_PORTS', [443]),
    maxPendingReports: integer(env, 'JORNADA_MAX_PENDING_REPORTS', 10, 1, 10_000),
    lateRecordHours: integer(env, 'JORNADA_LATE_RECORD_HOURS', 24, 1, 8760),
    reportTimeoutMs: integer(env, 'JORNADA_REPORT_TIMEOUT_MS', 15 * 60_000, 1_000, 24 * HOUR_MS),
    trustProxy: trustProxy(env, 'JORNADA_TRUST_PROXY'),
    metricsToken,
    reportsStore: reportsStore(env, dataDir),
  };
}

/** JORNADA_REPORTS_STORE and, for s3, JORNADA_S3_* (docs/operations.md, "Report files on object storage"). */
function reportsStore(env: Record<string, string | undefined>, dataDir: string): ReportStoreConfig {
  const kind = read(env, 'JORNADA_REPORTS_STORE') ?? 'file';
  if (kind === 'file') return { kind: 'file', dir: path.join(dataDir, 'reports') };
  if (kind !== 's3') throw new ConfigError(`JORNADA_REPORTS_STORE must be file or s3 (got "${kind}")`);
  const bucket = read(env, 'JORNADA_S3_BUCKET');
  if (bucket === undefined) throw new ConfigError('JORNADA_REPORTS_STORE=s3 needs JORNADA_S3_BUCKET');
  const endpointText = read(env, 'JORNADA_S3_ENDPOINT');
  if (endpointText !== undefined && !/^https?:\/\/[^/]/.test(endpointText)) {
    throw new ConfigError(`JORNADA_S3_ENDPOINT must be an http(s) URL (got "${endpointText}")`);
  }
  const accessKeyId = read(env, 'JORNADA_S3_ACCESS_KEY_ID');
  const secretAccessKey = read(env, 'JORNADA_S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError('JORNADA_S3_ACCESS_KEY_ID and JORNADA_S3_SECRET_ACCESS_KEY go together');
  }
  return {
    kind: 's3',
    bucket,
    region: read(env, 'JORNADA_S3_REGION') ?? 'us-east-1',
    endpoint: endpointText ?? null,
    forcePathStyle: flag(env, 'JORNADA_S3_FORCE_PATH_STYLE', endpointText !== undefined),
    credentials:
      accessKeyId === undefined || secretAccessKey === undefined ? null : { accessKeyId, secretAccessKey },
    prefix: read(env, 'JORNADA_S3_PREFIX') ?? '',
  };
}

function smtpUrl(env: Record<string, string | undefined>): string | null {
  const text = read(env, 'JORNADA_SMTP_URL');
  if (text === undefined) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`JORNADA_SMTP_URL must be an smtp:// or smtps:// URL (got "${text}")`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(`JORNADA_SMTP_URL must be an smtp:// or smtps:// URL (got "${text}")`);
  }
  return text;
}
