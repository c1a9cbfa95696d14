import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type Role, startService } from './main.ts';
import { verifyChains } from './modules/registry/registry.service.ts';

const USAGE = `Usage: jornada <command>

  serve [--role=api|worker|all]   start the API and/or the workers (default all)
  migrate                         apply database migrations and exit
  registry verify [--company ID]  recompute the registry hash chains; exit 1 naming the first broken entry
  admin <command> [...]           operator commands (a client of /admin/v1):
      create-company --name N [--timezone TZ] [--seats N]
      get-company ID
      update-company ID --json '{"subscription_status":"canceled"}'
      create-key COMPANY_ID --mode live|test --scopes a,b [--name N] [--expires-in-days N]
      list-keys COMPANY_ID
      revoke-key KEY_ID
      create-admin COMPANY_ID --email E [--password P]   (no --password: read from JORNADA_ADMIN_PASSWORD or stdin)
      clock | advance-clock SECONDS
    admin options: --url (default JORNADA_PUBLIC_URL) --token (default JORNADA_ADMIN_TOKEN or <data dir>/admin-token)
`;

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { role: { type: 'string', default: 'all' } } });
  const role = values.role as Role;
  if (!['api', 'worker', 'all'].includes(role)) throw new ConfigError('--role must be api, worker or all');
  const service = await startService(loadConfig(), { role });
  // A signal can arrive twice (a service manager signals the group, and npm forwards it to its child too): the
  // handlers stay installed, so a repeat never falls back to the default action that would kill the drain.
  let draining = false;
  const shutdown = (signal: string) => {
    if (draining) return;
    draining = true;
    process.stderr.write(`${signal} received: draining\n`);
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** `jornada registry verify [--company ID]`: recomputes the hash chains on the database directly. */
async function registryCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { company: { type: 'string' } },
  });
  if (positionals[0] !== 'verify')
    throw new ConfigError(`unknown registry command "${positionals[0] ?? ''}"\n\n${USAGE}`);
  const config = loadConfig();
  const database = await openDatabase(config, pino({ level: 'silent' }));
  try {
    const result = await verifyChains(database.db, values.company ?? null);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (!result.ok) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config, pino({ level: config.logLevel }), { migrate: 'force' });
  await database.close();
  process.stdout.write('migrations are up to date\n');
}

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
  const config = loadConfig();
  const base = values.url ?? config.publicUrl;
  const token =
    values.token ??
    config.adminToken ??
    readFileSync(path.join(config.dataDir, 'admin-token'), 'utf8').trim();
  const [command, first] = positionals;
  const need = (value: string | undefined, what: string): string => {
    if (!value) throw new ConfigError(`admin ${command}: ${what} is required`);
    return value;
  };
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${base}/admin/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    const text = await response.text();
    process.stdout.write(`${text === '' ? `HTTP ${response.status}` : text}\n`);
    if (!response.ok) process.exitCode = 1;
  };
  const optionalNumber = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  switch (command) {
    case 'create-company':
      return call('POST', '/companies', {
        name: need(values.name, '--name'),
        timezone: values.timezone,
        seats: optionalNumber(values.seats),
      });
    case 'get-company':
      return call('GET', `/companies/${need(first, 'ID')}`);
    case 'update-company':
      return call('PATCH', `/companies/${need(first, 'ID')}`, JSON.parse(need(values.json, '--json')));
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
  if (command === 'migrate') return migrateCommand();
  if (command === 'registry') return registryCommand(rest);
  if (command === 'admin') return admin(rest);
  process.stdout.write(USAGE);
  if (command !== undefined && command !== 'help' && command !== '--help') process.exitCode = 2;
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`jornada: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `jornada: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
