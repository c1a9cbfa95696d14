import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { ConfigError, loadConfig } from './config.ts';
import { BackupError, backup, restore } from './db/backup.ts';
import { createDb } from './db/database.ts';
import { runningClusterUrl } from './db/embedded.ts';
import { migrationStatus } from './db/migrator.ts';
import { openDatabase, type Role, type RunningService, startService } from './main.ts';
import { exportBundle, verifyBundle } from './modules/verification/bundle.ts';
import { verifyRegistry } from './modules/verification/verification.service.ts';
import { RETRY_DELAYS_SECONDS } from './modules/webhooks/deliveries.service.ts';
import { readServiceRecord, serviceRecordPath } from './running-service-file.ts';
import { systemClock } from './time/clock.ts';

const USAGE = `Usage: jornada <command>

  serve [--role=api|worker|all]   start the API and/or the workers (default all)
  migrate [--status]              apply database migrations and exit (--status: list applied and pending)
  backup FILE                     write a consistent, compressed copy of every table to FILE (no pg_dump needed)
  restore FILE                    check FILE, then load it into an empty database (DATABASE_URL, or a new
                                  JORNADA_DATA_DIR) and migrate it to this release
  registry export --company ID --month YYYY-MM [--output FILE]
                                 write a closed month's bundle (its chains and seal) to verify anywhere
  registry verify-bundle FILE    check a bundle with no database (exit 1 listing every problem)
  registry verify [--company ID] [--seal YYYY-MM=SEAL …]
                                 verify the registry (chains, facts, closings, figures) of a running service's
                                 database; exit 1 listing every problem
  listen --forward-to URL [--key jrn_test_…] [--secret whsec_…] [--url URL]
                                  forward the sandbox's events, signed, to a local URL (key: --key or
                                  JORNADA_API_KEY; a test key with webhooks:manage)
  admin <command> [...]           operator commands (a client of /admin/v1):
      list-companies                 every company of the deployment (not the sandboxes)
      create-company --name N [--timezone TZ] [--seats N]
      get-company ID
      update-company ID --json '{"subscription_status":"canceled"}'
      create-key COMPANY_ID --mode live|test --scopes a,b [--name N] [--expires-in-days N]
      list-keys COMPANY_ID
      revoke-key KEY_ID
      create-admin COMPANY_ID --email E [--password P]   (no --password: read from JORNADA_ADMIN_PASSWORD or stdin)
      clock | advance-clock SECONDS
    admin options: --url (default: JORNADA_PUBLIC_URL, else the service running on JORNADA_DATA_DIR, found in
                   its service.json) --token (default: JORNADA_ADMIN_TOKEN, else <data dir>/admin-token)
`;

/** A mistake of the person at the keyboard: said in a sentence, never with a stack trace. */
class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/**
 * A request to the service; when it cannot be sent, one sentence naming the address, the network's reason and
 * where the URL came from, not "TypeError: fetch failed".
 */
async function reach(address: string, init: RequestInit, baseFrom: string): Promise<Response> {
  try {
    return await fetch(address, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new UserError(
      `cannot reach ${address} (${cause?.code ?? cause?.message ?? String(error)}). Is \`jornada serve\` running? The URL came from ${baseFrom}; give --url to use another.`,
    );
  }
}

/** Where the admin commands send their requests, and with which token, each with where it came from. */
type AdminTarget = { base: string; baseFrom: string; token: string; tokenFrom: string };

/** The service's base URL and where it came from: --url, JORNADA_PUBLIC_URL, the data dir's running service. */
async function serviceBase(url: string | undefined): Promise<{ base: string; baseFrom: string }> {
  const config = loadConfig();
  const explicitUrl = process.env.JORNADA_PUBLIC_URL?.trim();
  const record = await readServiceRecord(config.dataDir);
  const [base, baseFrom] = url
    ? [url, '--url']
    : explicitUrl
      ? [config.publicUrl, 'JORNADA_PUBLIC_URL']
      : record
        ? [record.url, `${serviceRecordPath(config.dataDir)} (the service started there, pid ${record.pid})`]
        : [
            config.publicUrl,
            `the default (no running service recorded in ${serviceRecordPath(config.dataDir)})`,
          ];
  return { base, baseFrom };
}

async function adminTarget(values: {
  url?: string | undefined;
  token?: string | undefined;
}): Promise<AdminTarget> {
  const config = loadConfig();
  const { base, baseFrom } = await serviceBase(values.url);
  if (values.token) return { base, baseFrom, token: values.token, tokenFrom: '--token' };
  if (config.adminToken)
    return { base, baseFrom, token: config.adminToken, tokenFrom: 'JORNADA_ADMIN_TOKEN' };
  const file = path.join(config.dataDir, 'admin-token');
  try {
    return { base, baseFrom, token: (await readFile(file, 'utf8')).trim(), tokenFrom: file };
  } catch {
    throw new UserError(
      `no admin token: give --token, set JORNADA_ADMIN_TOKEN, or set JORNADA_DATA_DIR to the service's data dir (there is no ${file})`,
      2,
    );
  }
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { role: { type: 'string', default: 'all' } } });
  const role = values.role as Role;
  if (!['api', 'worker', 'all'].includes(role)) throw new ConfigError('--role must be api, worker or all');
  // A signal can arrive twice (a service manager signals the group, and npm forwards it to its child too): the
  // handlers stay installed, so a repeat never falls back to the default action that would kill the drain. They
  // are installed before the service starts: a signal that comes while it starts (or just after "jornada
  // started" is logged) stops it once it is up, instead of killing the process without a drain.
  let service: RunningService | null = null;
  let draining = false;
  const drain = (running: RunningService) =>
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  const shutdown = (signal: string) => {
    if (draining) return;
    draining = true;
    process.stderr.write(`${signal} received: draining\n`);
    if (service) void drain(service);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  service = await startService(loadConfig(), { role });
  if (draining) await drain(service);
}

/**
 * `jornada registry verify [--company ID]`: verifies the registry (docs/registry.md, Verification) on the
 * database of DATABASE_URL, or of the service running on JORNADA_DATA_DIR. It never starts, stops or creates a
 * cluster: pointed at a data directory with no running cluster it says so and exits 2. One connection, with the
 * statement timeout of the service's settings.
 */
async function registryCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      company: { type: 'string' },
      seal: { type: 'string', multiple: true },
      month: { type: 'string' },
      output: { type: 'string' },
    },
  });
  if (positionals[0] === 'verify-bundle') return await verifyBundleCommand(positionals[1]);
  if (positionals[0] === 'export') return await exportBundleCommand(values);
  if (positionals[0] !== 'verify')
    throw new ConfigError(`unknown registry command "${positionals[0] ?? ''}"\n\n${USAGE}`);
  const seals = new Map<string, string>();
  for (const text of values.seal ?? []) {
    const match = /^(\d{4}-(?:0[1-9]|1[0-2]))=([0-9a-fA-F]{64})$/.exec(text);
    if (!match)
      throw new UserError(
        `registry verify: --seal takes MONTH=SEAL (YYYY-MM=64 hex digits), not "${text}"`,
        2,
      );
    seals.set(match[1] as string, match[2] as string);
  }
  if (seals.size > 0 && values.company === undefined) {
    throw new UserError('registry verify: --seal needs --company (a seal is one company’s)', 2);
  }
  const db = await serviceDatabase('registry verify');
  try {
    const result = await verifyRegistry({ db, clock: systemClock }, values.company ?? null, { seals });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (!result.ok) process.exitCode = 1;
  } finally {
    await db.destroy();
  }
}

/**
 * The database of DATABASE_URL, or of the service running on JORNADA_DATA_DIR, on one connection with the
 * service's timeouts; never a cluster started, stopped or created for the command (exit 2 when none runs).
 */
async function serviceDatabase(command: string) {
  const config = loadConfig();
  let url: string;
  try {
    url = config.databaseUrl ?? (await runningClusterUrl(config.dataDir));
  } catch (error) {
    throw new UserError(`${command}: ${(error as Error).message}`, 2);
  }
  return createDb(url, {
    applicationName: `jornada ${command}`,
    max: 1,
    preparedStatements: config.database.preparedStatements,
    connectTimeoutMs: config.database.connectTimeoutMs,
    statementTimeoutMs: config.database.statementTimeoutMs,
    lockTimeoutMs: config.database.lockTimeoutMs,
    idleInTransactionTimeoutMs: config.database.idleInTransactionTimeoutMs,
  });
}

/**
 * `jornada registry export --company ID --month YYYY-MM [--output FILE]`: a closed month's bundle, gzipped JSON
 * lines (bundle.ts), to FILE or `registro-<month>.jsonl.gz`.
 */
async function exportBundleCommand(values: {
  company?: string | undefined;
  month?: string | undefined;
  output?: string | undefined;
}) {
  const { company, month } = values;
  if (!company || !month || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) {
    throw new UserError('registry export: give --company ID and --month YYYY-MM', 2);
  }
  const db = await serviceDatabase('registry export');
  try {
    const lines = await exportBundle(db, company, month);
    if (!lines) throw new UserError(`registry export: ${month} is not a closed month of ${company}`, 1);
    const file = values.output ?? `registro-${month}.jsonl.gz`;
    await writeFile(file, gzipSync(`${lines.join('\n')}\n`));
    process.stdout.write(`${JSON.stringify({ file, month, entries: lines.length - 1 })}\n`);
  } finally {
    await db.destroy();
  }
}

/** `jornada registry verify-bundle FILE`: checks a bundle with no database at all (exit 1 listing the problems). */
async function verifyBundleCommand(file: string | undefined) {
  if (!file) throw new UserError('registry verify-bundle: give the bundle file', 2);
  let text: string;
  try {
    const bytes = await readFile(file);
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (error) {
    throw new UserError(`registry verify-bundle: ${(error as Error).message}`, 2);
  }
  const result = verifyBundle(text.split('\n'));
  process.stdout.write(`${JSON.stringify(result)}\n`);
  if (!result.ok) process.exitCode = 1;
}

/** The retries of `listen`: real deliveries' delays, 60 times shorter (1 s, 5 s, 30 s, 2 min, 12 min, 24 min). */
const LISTEN_RETRY_SECONDS = RETRY_DELAYS_SECONDS.map((seconds) => seconds / 60);
const delayText = (seconds: number) => (seconds < 60 ? `${seconds} s` : `${seconds / 60} min`);

/**
 * `jornada listen --forward-to http://localhost:4000/hooks`: waits for the sandbox's events (long polling on
 * GET /v1/sandbox/events) and POSTs each to the local URL, signed per Standard Webhooks with a secret of its own
 * (printed at start, or --secret), so a receiver can be built on a laptop without a public https address.
 */
async function listenCommand(args: string[]): Promise<void> {
  // Loaded by this command alone: the sender brings the delivery's HTTP client (undici), which serve loads late.
  const { signatureHeaders } = await import('./modules/webhooks/sender.ts');
  const { values } = parseArgs({
    args,
    options: {
      'forward-to': { type: 'string' },
      key: { type: 'string' },
      secret: { type: 'string' },
      url: { type: 'string' },
    },
  });
  const forwardTo = values['forward-to'];
  if (!forwardTo || !/^https?:\/\//.test(forwardTo)) {
    throw new ConfigError(`listen: --forward-to must be an http(s) URL\n\n${USAGE}`);
  }
  const key = values.key ?? process.env.JORNADA_API_KEY?.trim();
  if (!key?.startsWith('jrn_test_')) {
    throw new UserError('listen: give a test key (jrn_test_…) with --key or JORNADA_API_KEY', 2);
  }
  const secret = values.secret ?? `whsec_${randomBytes(24).toString('base64')}`;
  try {
    // The library refuses a secret that is not whsec_ and base64; the signing is the service's own (sender.ts).
    new Webhook(secret);
  } catch {
    throw new UserError('listen: --secret must be a whsec_… secret (base64 after whsec_)', 2);
  }
  const { base, baseFrom } = await serviceBase(values.url);
  const feed = async (after: string) => {
    const address = `${base}/v1/sandbox/events?after=${after}&wait=20`;
    const response = await reach(address, { headers: { authorization: `Bearer ${key}` } }, baseFrom);
    const text = await response.text();
    if (response.status === 429)
      return { data: [], next_after: after, retryAfter: Number(response.headers.get('retry-after') ?? 5) };
    if (!response.ok) throw new UserError(`${address} answered ${response.status}: ${text}`);
    return {
      ...(JSON.parse(text) as { data: Array<{ id: string; type: string }>; next_after: string }),
      retryAfter: 0,
    };
  };
  let after = (await feed('latest')).next_after;
  process.stdout.write(
    `Ready: forwarding the sandbox's events from ${base} to ${forwardTo}\nSigning secret: ${secret}\n`,
  );
  // An event the receiver failed (an answer other than 2xx, or none) is sent again on the schedule of real
  // deliveries, 60 times sooner (issue 41): each attempt with the event's webhook-id and a fresh signature.
  const forward = async (event: { id: string; type: string }, attempt: number): Promise<void> => {
    const body = JSON.stringify(event);
    const at = new Date();
    let outcome: string;
    let delivered = false;
    try {
      const answer = await fetch(forwardTo, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signatureHeaders({ eventId: event.id, timestamp: at, body, secret }),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await answer.body?.cancel();
      outcome = String(answer.status);
      delivered = answer.ok;
    } catch (error) {
      outcome = `not delivered (${(error as Error).message})`;
    }
    const delay = delivered ? undefined : LISTEN_RETRY_SECONDS[attempt - 1];
    const next = delivered ? '' : delay === undefined ? '; given up' : `; again in ${delayText(delay)}`;
    process.stdout.write(`${event.type} ${event.id} → ${outcome}${next}\n`);
    if (delay !== undefined) setTimeout(() => void forward(event, attempt + 1), delay * 1000);
  };
  for (;;) {
    const page = await feed(after);
    if (page.retryAfter > 0) await new Promise((resolve) => setTimeout(resolve, page.retryAfter * 1000));
    for (const event of page.data) await forward(event, 1);
    after = page.next_after;
  }
}

async function migrateCommand(args: string[]): Promise<void> {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  if (args.includes('--status')) {
    // The schema against this release, migrating nothing (issue 37).
    const database = await openDatabase(config, log, { migrate: 'none' });
    try {
      const status = await migrationStatus(database.db);
      const last = status.applied.at(-1);
      process.stdout.write(
        `${[
          `applied: ${status.applied.length}${last ? ` (last ${last.version}, ${last.applied_at.toISOString()})` : ''}`,
          `pending: ${status.pending.length}${status.pending.length ? ` (${status.pending.join(', ')})` : ''}`,
          `unknown to this release: ${status.unknown.length}${status.unknown.length ? ` (${status.unknown.join(', ')}): a newer release migrated this database` : ''}`,
          ...(status.unknown.length > 0
            ? [
                status.breaking.length > 0
                  ? `not expand-only: ${status.breaking.length} (${status.breaking.join(', ')}): this release must not serve on it`
                  : 'all expand-only: this release may keep serving beside the newer one',
              ]
            : []),
        ].join('\n')}\n`,
      );
      if (status.breaking.length > 0) process.exitCode = 1;
    } finally {
      await database.close();
    }
    return;
  }
  const database = await openDatabase(config, log, { migrate: 'force' });
  await database.close();
  process.stdout.write(
    database.applied.length > 0
      ? `applied ${database.applied.length} migration(s): ${database.applied.join(', ')}\n`
      : 'nothing to apply: the database was up to date\n',
  );
}

/**
 * The database a backup or a restore works on: DATABASE_URL, the embedded cluster of a running service, or the
 * embedded cluster of JORNADA_DATA_DIR started for the command (created empty when there is none).
 */
async function commandDatabase(): Promise<{ url: string; close(): Promise<void> }> {
  const config = loadConfig();
  if (config.databaseUrl !== null) return { url: config.databaseUrl, close: async () => {} };
  try {
    return { url: await runningClusterUrl(config.dataDir), close: async () => {} };
  } catch {
    const database = await openDatabase(config, pino({ level: 'warn' }), { migrate: 'none' });
    return { url: database.stream.url, close: database.close };
  }
}

/**
 * `jornada backup FILE` and `jornada restore FILE` (src/db/backup.ts): FILE, the database, the lines said, and a
 * refused file said in a sentence.
 */
async function backupFileCommand(
  command: 'backup' | 'restore',
  args: string[],
  work: (url: string, file: string, seconds: () => string) => Promise<string[]>,
): Promise<void> {
  const [file] = args;
  if (file === undefined) throw new UserError(`${command}: give the FILE`, 2);
  const database = await commandDatabase();
  const started = performance.now();
  try {
    const lines = await work(database.url, file, () => ((performance.now() - started) / 1000).toFixed(1));
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (error) {
    if (error instanceof BackupError) throw new UserError(`${command}: ${error.message}`);
    throw error;
  } finally {
    await database.close();
  }
}

const backupCommand = (args: string[]) =>
  backupFileCommand('backup', args, async (url, file, seconds) => {
    const manifest = await backup(url, file, new Date());
    const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
    return [
      `backed up ${rows} rows of ${manifest.tables.length} tables at schema ${manifest.schema.at(-1)} to ${file} in ${seconds()} s`,
      `report files are not in the backup: ${manifest.report_files.length} are named by its reports; copy the report store (the data dir's reports/ or the bucket) alongside`,
      'the file holds every secret of the instance: keep it encrypted and private',
    ];
  });

const restoreCommand = (args: string[]) =>
  backupFileCommand('restore', args, async (url, file, seconds) => {
    const { manifest, rows, migrated } = await restore(url, file);
    return [
      `restored ${rows} rows of ${manifest.tables.length} tables from ${file} (taken ${manifest.created_at}) in ${seconds()} s`,
      `schema: ${manifest.schema.at(-1)} in the backup, ${migrated.at(-1) ?? manifest.schema.at(-1)} now`,
      `webhook deliveries: those delivered before the backup stay delivered; ${manifest.deliveries_due} were still due and will be sent with their original webhook-id (receivers that deduplicate by webhook-id see each event once)`,
      `report files: ${manifest.report_files.length} are named by the restored reports; put the report store's copy in place`,
    ];
  });

async function admin(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      name: { type: 'string' },
      timezone: { type: 'string' },
      seats: { type: 'string' },
      json: { type: 'string' },
      mode: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in-days': { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
    },
  });
  const [command, first] = positionals;
  const need = (value: string | undefined, what: string): string => {
    if (!value) throw new ConfigError(`admin ${command}: ${what} is required`);
    return value;
  };
  // Found on the first request: a wrong command or argument is told before any URL or token is looked for.
  let found: Promise<AdminTarget> | null = null;
  /** One request to the admin API: the answer, or a sentence naming the URL and the token's source. */
  const request = async (method: string, url: string, body?: unknown) => {
    found ??= adminTarget(values);
    const target = await found;
    const address = `${target.base}/admin/v1${url}`;
    const response = await reach(
      address,
      {
        method,
        headers: {
          authorization: `Bearer ${target.token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : null,
      },
      target.baseFrom,
    );
    const text = await response.text();
    if (response.status === 401) {
      throw new UserError(`${address} refused the admin token from ${target.tokenFrom} (401): ${text}`);
    }
    if (response.status === 404 && !text.includes('"code"')) {
      throw new UserError(`${address} has no admin API (404): is JORNADA_ADMIN_TOKEN set on that service?`);
    }
    return { response, text };
  };
  const call = async (method: string, url: string, body?: unknown) => {
    const { response, text } = await request(method, url, body);
    process.stdout.write(`${text === '' ? `HTTP ${response.status}` : text}\n`);
    if (!response.ok) process.exitCode = 1;
  };
  const json = (text: string, what: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new UserError(`${what} is not valid JSON: ${(error as Error).message}`, 2);
    }
  };
  const optionalNumber = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  switch (command) {
    case 'list-companies': {
      // Every page, one after the other, as one list.
      const companies: unknown[] = [];
      let cursor: string | null = null;
      do {
        const { response, text } = await request(
          'GET',
          `/companies?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        if (!response.ok) {
          process.stdout.write(`${text}\n`);
          process.exitCode = 1;
          return;
        }
        const page = json(text, 'the answer') as { data: unknown[]; meta: { next_cursor: string | null } };
        companies.push(...page.data);
        cursor = page.meta.next_cursor;
      } while (cursor);
      process.stdout.write(`${JSON.stringify({ data: companies }, null, 2)}\n`);
      return;
    }
    case 'create-company':
      return call('POST', '/companies', {
        name: need(values.name, '--name'),
        timezone: values.timezone,
        seats: optionalNumber(values.seats),
      });
    case 'get-company':
      return call('GET', `/companies/${need(first, 'ID')}`);
    case 'update-company':
      return call('PATCH', `/companies/${need(first, 'ID')}`, json(need(values.json, '--json'), '--json'));
    case 'create-key':
      return call('POST', `/companies/${need(first, 'COMPANY_ID')}/api-keys`, {
        mode: need(values.mode, '--mode'),
        scopes: need(values.scopes, '--scopes').split(','),
        name: values.name,
        expires_in_days: optionalNumber(values['expires-in-days']),
      });
    case 'list-keys':
      return call('GET', `/companies/${need(first, 'COMPANY_ID')}/api-keys`);
    case 'revoke-key':
      return call('DELETE', `/api-keys/${need(first, 'KEY_ID')}`);
    case 'create-admin':
      return call('POST', `/companies/${need(first, 'COMPANY_ID')}/admins`, {
        email: need(values.email, '--email'),
        password: values.password ?? process.env.JORNADA_ADMIN_PASSWORD ?? (await readStdin()),
      });
    case 'clock':
      return call('GET', '/clock');
    case 'advance-clock':
      return call('POST', '/clock/advance', { seconds: Number(need(first, 'SECONDS')) });
    default:
      throw new ConfigError(`unknown admin command "${command ?? ''}"\n\n${USAGE}`);
  }
}

/** A password from a pipe (`echo … | jornada admin create-admin`), so it stays out of the shell history. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new ConfigError('admin create-admin: give --password, JORNADA_ADMIN_PASSWORD or stdin');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text.replace(/\r?\n$/, '');
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'serve') return serve(rest);
  if (command === 'migrate') return migrateCommand(rest);
  if (command === 'backup') return backupCommand(rest);
  if (command === 'restore') return restoreCommand(rest);
  if (command === 'registry') return registryCommand(rest);
  if (command === 'admin') return admin(rest);
  if (command === 'listen') return listenCommand(rest);
  process.stdout.write(USAGE);
  if (command !== undefined && command !== 'help' && command !== '--help') process.exitCode = 2;
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof UserError) {
    process.stderr.write(`jornada: ${error.message}\n`);
    process.exit(error instanceof UserError ? error.exitCode : 2);
  }
  process.stderr.write(
    `jornada: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
