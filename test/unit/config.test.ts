import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('applies the defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: null,
      adminToken: null,
      publicUrl: 'http://127.0.0.1:3000',
      fakeClock: false,
      webhooksAllowPrivate: false,
      logLevel: 'info',
      demo: true,
    });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('keeps report files in the data dir unless JORNADA_REPORTS_STORE=s3 names a bucket', () => {
    expect(loadConfig({ JORNADA_DATA_DIR: '/srv/jornada' }).reportsStore).toEqual({
      kind: 'file',
      dir: '/srv/jornada/reports',
    });
    expect(
      loadConfig({
        JORNADA_REPORTS_STORE: 's3',
        JORNADA_S3_BUCKET: 'reports',
        JORNADA_S3_ENDPOINT: 'http://minio:9000',
        JORNADA_S3_ACCESS_KEY_ID: 'key',
        JORNADA_S3_SECRET_ACCESS_KEY: 'secret',
        JORNADA_S3_PREFIX: 'prod/',
      }).reportsStore,
    ).toEqual({
      kind: 's3',
      bucket: 'reports',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      prefix: 'prod/',
    });
    // On AWS itself: virtual-hosted addressing and the SDK's own credentials (an instance role).
    expect(
      loadConfig({ JORNADA_REPORTS_STORE: 's3', JORNADA_S3_BUCKET: 'r', JORNADA_S3_REGION: 'eu-south-2' })
        .reportsStore,
    ).toMatchObject({
      endpoint: null,
      forcePathStyle: false,
      credentials: null,
      region: 'eu-south-2',
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ', JORNADA_ADMIN_TOKEN: '' })).toMatchObject({
      port: 3000,
      databaseUrl: null,
      adminToken: null,
    });
  });

  it('reads the database pool and timeouts, the HTTP timeouts, the drain and the limits', () => {
    expect(loadConfig({})).toMatchObject({
      migrationDatabaseUrl: null,
      migrateOnStart: true,
      database: {
        poolMax: 20,
        connectTimeoutMs: 5_000,
        statementTimeoutMs: 30_000,
        lockTimeoutMs: 10_000,
        idleInTransactionTimeoutMs: 60_000,
      },
      http: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 },
      drainTimeoutMs: 25_000,
      drainReadinessMs: 1_000,
      webhookPorts: [443],
      maxPendingReports: 10,
      reportTimeoutMs: 900_000,
    });
    expect(
      loadConfig({
        JORNADA_DB_POOL_MAX: '8',
        JORNADA_DB_STATEMENT_TIMEOUT_MS: '0',
        JORNADA_MIGRATE_ON_START: '0',
        JORNADA_MIGRATION_DATABASE_URL: 'postgres://direct/db',
        JORNADA_WEBHOOKS_ALLOWED_PORTS: '443, 8443,443',
        JORNADA_DRAIN_TIMEOUT_MS: '5000',
      }),
    ).toMatchObject({
      database: { poolMax: 8, statementTimeoutMs: 0 },
      migrateOnStart: false,
      migrationDatabaseUrl: 'postgres://direct/db',
      webhookPorts: [443, 8443],
      drainTimeoutMs: 5_000,
    });
  });

  it('builds the public URL from HOST and PORT unless JORNADA_PUBLIC_URL is set', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).publicUrl).toBe('http://0.0.0.0:8080');
    expect(loadConfig({ JORNADA_PUBLIC_URL: 'https://api.example.com/' }).publicUrl).toBe(
      'https://api.example.com',
    );
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ JORNADA_ADMIN_TOKEN: 'short' }, /JORNADA_ADMIN_TOKEN/],
    [{ JORNADA_PUBLIC_URL: 'not a url' }, /JORNADA_PUBLIC_URL/],
    [{ JORNADA_FAKE_CLOCK: 'yes' }, /JORNADA_FAKE_CLOCK/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ JORNADA_DEMO: '2' }, /JORNADA_DEMO/],
    [{ JORNADA_DB_POOL_MAX: '0' }, /JORNADA_DB_POOL_MAX/],
    [{ JORNADA_DB_STATEMENT_TIMEOUT_MS: '-1' }, /JORNADA_DB_STATEMENT_TIMEOUT_MS/],
    [{ JORNADA_MIGRATION_DATABASE_URL: 'http://x' }, /JORNADA_MIGRATION_DATABASE_URL/],
    [{ JORNADA_MIGRATE_ON_START: 'no' }, /JORNADA_MIGRATE_ON_START/],
    [{ JORNADA_HTTP_HEADERS_TIMEOUT_MS: '60000' }, /must not exceed JORNADA_HTTP_REQUEST_TIMEOUT_MS/],
    [{ JORNADA_WEBHOOKS_ALLOWED_PORTS: '443,http' }, /JORNADA_WEBHOOKS_ALLOWED_PORTS/],
    [{ JORNADA_WEBHOOKS_ALLOWED_PORTS: '0' }, /JORNADA_WEBHOOKS_ALLOWED_PORTS/],
    [{ JORNADA_MAX_PENDING_REPORTS: '0' }, /JORNADA_MAX_PENDING_REPORTS/],
    [{ JORNADA_REPORTS_STORE: 'ftp' }, /JORNADA_REPORTS_STORE must be file or s3/],
    [{ JORNADA_REPORTS_STORE: 's3' }, /needs JORNADA_S3_BUCKET/],
    [
      { JORNADA_REPORTS_STORE: 's3', JORNADA_S3_BUCKET: 'b', JORNADA_S3_ENDPOINT: 'minio:9000' },
      /JORNADA_S3_ENDPOINT/,
    ],
    [{ JORNADA_REPORTS_STORE: 's3', JORNADA_S3_BUCKET: 'b', JORNADA_S3_ACCESS_KEY_ID: 'k' }, /go together/],
  ])('stops on a bad value: %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
