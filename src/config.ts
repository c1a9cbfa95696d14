import path from 'node:path';

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
};

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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const portText = read(env, 'PORT') ?? '3000';
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535 (got "${portText}")`);
  }
  const port = Number(portText);
  const host = read(env, 'HOST') ?? '127.0.0.1';

  const databaseUrl = read(env, 'DATABASE_URL') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// connection string');
  }

  const adminToken = read(env, 'JORNADA_ADMIN_TOKEN') ?? null;
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError('JORNADA_ADMIN_TOKEN must be at least 16 characters long');
  }

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

  return {
    port,
    host,
    databaseUrl,
    dataDir: path.resolve(read(env, 'JORNADA_DATA_DIR') ?? './.data'),
    adminToken,
    publicUrl: publicUrl.toString().replace(/\/$/, ''),
    fakeClock: flag(env, 'JORNADA_FAKE_CLOCK', false),
    webhooksAllowPrivate: flag(env, 'JORNADA_WEBHOOKS_ALLOW_PRIVATE', false),
    logLevel,
    demo: flag(env, 'JORNADA_DEMO', true),
  };
}
