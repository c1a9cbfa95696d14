import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database.ts';

/** A real `jornada serve` process on a test database, for end-to-end tests across processes. */
export type ServiceNode = { child: ChildProcess; output: () => string };

export const E2E_ADMIN_TOKEN = 'e2e-admin-token-0123456789abcdef';

export { freePort } from '../../src/db/embedded.ts';

/** `src/cli.js <args>` as a child process, its stdout and stderr gathered in one output. */
export function spawnCli(args: string[], env: Record<string, string> = {}) {
  return spawnNode('src/cli.js', args, env);
}

/** A Node.js script as a child process, its stdout and stderr gathered in one output. */
export function spawnNode(script: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Starts `src/cli.js serve --role=…` with JORNADA_FAKE_CLOCK=1 on the given database; resolves once it started. */
export async function startServiceNode(
  databaseUrl: string,
  role: 'api' | 'worker' | 'all',
  options: { port?: number; env?: Record<string, string>; cli?: string } = {},
): Promise<ServiceNode> {
  // Another release's CLI (the upgrade test) or this one's.
  const { child, output } = spawnNode(options.cli ?? 'src/cli.js', ['serve', `--role=${role}`], {
    DATABASE_URL: databaseUrl,
    PORT: String(options.port ?? 0),
    JORNADA_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    JORNADA_FAKE_CLOCK: '1',
    JORNADA_DEMO: '0',
    JORNADA_DRAIN_READINESS_MS: '0',
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const deadline = Date.now() + 30_000;
  while (!output().includes('jornada started')) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`${role} did not start:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output };
}

export async function stopServiceNode(node: ServiceNode, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (node.child.exitCode !== null || node.child.signalCode !== null) return;
  const exited = once(node.child, 'exit');
  node.child.kill(signal);
  await exited;
}

/** JSON over real HTTP against a started node. */
export function httpClient(base: string) {
  return async (method: string, path: string, body?: unknown, token?: string) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    const json = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : null;
    return { status: response.status, body: json, text, headers: response.headers };
  };
}

/** A company made through the operator API of a started node, with a live key of the given scopes. */
export async function companyWithLiveKey(
  http: ReturnType<typeof httpClient>,
  name: string,
  scopes: string[],
) {
  const company = await http('POST', '/admin/v1/companies', { name }, E2E_ADMIN_TOKEN);
  if (company.status !== 201) throw new Error(`company: ${company.status} ${company.text}`);
  const key = await http(
    'POST',
    `/admin/v1/companies/${company.body.id}/api-keys`,
    { mode: 'live', scopes },
    E2E_ADMIN_TOKEN,
  );
  if (key.status !== 201) throw new Error(`key: ${key.status} ${key.text}`);
  return { companyId: company.body.id as string, liveKey: key.body.secret as string };
}

/**
 * A company with a live key that manages employees and check-ins, and one worker invited to the portal: what
 * the portal's browser tests start from.
 */
export async function companyWithInvitedWorker(
  http: ReturnType<typeof httpClient>,
  companyName: string,
  worker: { first_name: string; last_name: string; email: string; hire_date: string },
) {
  const { companyId, liveKey } = await companyWithLiveKey(http, companyName, [
    'org:empleados:write',
    'org:empleados:read',
    'org:fichajes:write',
    'org:fichajes:read',
    'org:turnos:write',
    'org:turnos:read',
    'org:ausencias:write',
    'org:ausencias:read',
  ]);
  const employee = await http('POST', '/v1/employees', worker, liveKey);
  if (employee.status !== 201) throw new Error(`employee: ${employee.status} ${employee.text}`);
  const invited = await http('POST', `/v1/employees/${employee.body.id}/portal-invitation`, {}, liveKey);
  if (invited.status !== 201) throw new Error(`invitation: ${invited.status} ${invited.text}`);
  return {
    companyId,
    liveKey,
    employeeId: employee.body.id as string,
    invitation: invited.body.url as string,
  };
}

/**
 * An end-to-end test file's world: a fresh database and data directory (report files), the service nodes the file
 * starts on them (`start`, with JORNADA_DATA_DIR set), and after the file every node stopped, the database dropped
 * and the directory removed. Fields are set once the file's first beforeAll has run.
 */
export function useServiceWorld(prefix: string) {
  const world = {
    database: undefined as unknown as TestDatabase,
    dataDir: '',
    nodes: [] as ServiceNode[],
    async start(
      role: 'api' | 'worker' | 'all',
      options: { port?: number; env?: Record<string, string> } = {},
    ): Promise<ServiceNode> {
      const node = await startServiceNode(world.database.url, role, {
        ...options,
        env: { JORNADA_DATA_DIR: world.dataDir, ...options.env },
      });
      world.nodes.push(node);
      return node;
    },
  };
  beforeAll(async () => {
    world.database = await createTestDatabase();
    world.dataDir = await mkdtemp(path.join(os.tmpdir(), `jornada-e2e-${prefix}-`));
  });
  afterAll(async () => {
    for (const node of world.nodes) await stopServiceNode(node);
    await world.database?.drop();
    if (world.dataDir) await rm(world.dataDir, { recursive: true, force: true });
  });
  return world;
}
