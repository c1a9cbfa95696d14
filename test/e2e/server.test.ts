import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/db/embedded.ts';
import { ensureDashboardBuilt } from '../helpers/dashboard-build.ts';

/** The real thing: `npm start` on a fresh embedded PostgreSQL, called over HTTP, stopped with SIGTERM. */
let dataDir: string;
let port: number;

/** `jornada <args>` on this data dir, with no URL or token of its own (they come from the data dir). */
function jornadaCli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['src/cli.js', ...args], {
    env: {
      ...process.env,
      JORNADA_DATA_DIR: dataDir,
      JORNADA_PUBLIC_URL: '',
      JORNADA_ADMIN_TOKEN: '',
      PORT: '',
      DATABASE_URL: '',
      ...env,
    },
    encoding: 'utf8',
  });
}

type Started = { child: ChildProcess; output: () => string; closed: Promise<void> };

async function start(extraEnv: Record<string, string> = {}, directory = dataDir): Promise<Started> {
  const child = spawn('npm', ['start'], {
    env: {
      ...process.env,
      PORT: String(port),
      JORNADA_DATA_DIR: directory,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      JORNADA_ADMIN_TOKEN: '',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, signalled as a whole like a service manager does
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  // The pipes close only when every process holding them (npm, and the Node server it started) has exited.
  const closed = new Promise<void>((resolve) => child.stdout?.on('close', () => resolve()));
  const deadline = Date.now() + 90_000;
  while (!output.includes('jornada started')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output, closed };
}

/** SIGTERM to the process group; resolves when the server has drained and exited. */
async function stop(server: Started): Promise<string> {
  process.kill(-(server.child.pid as number), 'SIGTERM');
  await server.closed;
  return server.output();
}

beforeAll(async () => {
  await ensureDashboardBuilt();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-e2e-'));
  await chmod(dataDir, 0o755);
  port = await freePort();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  let liveKey = '';
  let adminToken = '';

  it('starts on an empty embedded database, prints the demo keys once, and serves HTTP', async () => {
    const server = await start();
    try {
      const output = server.output();
      liveKey = /live API key:\s+(jrn_live_\S+)/.exec(output)?.[1] ?? '';
      const testKey = /test API key:\s+(jrn_test_\S+)/.exec(output)?.[1] ?? '';
      adminToken = /admin token:\s+(\S+)/.exec(output)?.[1] ?? '';
      expect(liveKey).toMatch(/^jrn_live_/);
      expect(output).toContain(
        `curl -H "Authorization: Bearer ${testKey}" http://127.0.0.1:${port}/v1/organization`,
      );
      expect((await readFile(path.join(dataDir, 'admin-token'), 'utf8')).trim()).toBe(adminToken);

      const base = `http://127.0.0.1:${port}`;
      const organization = await fetch(`${base}/v1/organization`, {
        headers: { authorization: `Bearer ${testKey}` },
      });
      expect(organization.status).toBe(200);
      expect(await organization.json()).toMatchObject({
        name: 'Demo company (sandbox)',
        mode: 'test',
        sandbox: true,
      });
      expect(organization.headers.get('x-ratelimit-limit')).toBe('30');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      const company = await fetch(`${base}/admin/v1/companies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Made over HTTP' }),
      });
      expect(company.status).toBe(201);

      // The printed demo login opens the dashboard, which npm install built.
      expect(output).toContain(`dashboard:     ${base}/dashboard`);
      const email = /email:\s+(\S+)/.exec(output)?.[1] ?? '';
      const password = /password:\s+(\S+)/.exec(output)?.[1] ?? '';
      const page = await fetch(`${base}/dashboard`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const login = await fetch(`${base}/dashboard/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(login.status).toBe(200);
      expect(await login.json()).toMatchObject({ company: { name: 'Demo company' } });
      expect(login.headers.get('set-cookie')).toMatch(/^jornada_session=.*HttpOnly/);

      // The demo company is alive: a month of a dozen people in two centres, live and sandbox alike.
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
      for (const mode of ['live', 'test']) {
        const today = await fetch(`${base}/dashboard/api/${mode}/today`, { headers: { cookie } });
        expect(today.status).toBe(200);
        const body = (await today.json()) as {
          people: Array<{ state: string; absence_type: string | null }>;
          pending: { absences: number; corrections: number };
          problems: Array<{ incomplete_shifts: number }>;
          month: { worked_minutes: number; overtime_minutes: number; night_minutes: number };
        };
        expect(body.people).toHaveLength(12);
        expect(body.people.filter((person) => person.state === 'absent')).toEqual([
          expect.objectContaining({ absence_type: 'Baja por enfermedad' }),
        ]);
        expect(body.pending).toEqual({ absences: 2, corrections: 1 });
        expect(body.problems.some((row) => row.incomplete_shifts > 0)).toBe(true);
        const locations = await fetch(`${base}/dashboard/api/${mode}/locations`, { headers: { cookie } });
        expect(((await locations.json()) as { data: unknown[] }).data).toHaveLength(2);
      }
      // The demo's four weeks have overtime (long days) and night work (the night worker).
      const today = Temporal.Now.plainDateISO('Europe/Madrid');
      const from = today.subtract({ days: 28 }).toString();
      const summaries = await fetch(
        `${base}/v1/work-summaries?period=month&from=${from}&to=${today.toString()}&limit=100`,
        { headers: { authorization: `Bearer ${testKey}` } },
      );
      const rows = ((await summaries.json()) as { data: Array<Record<string, number | string>> }).data;
      expect(new Set(rows.map((row) => row.employee_id)).size).toBe(12);
      expect(rows.some((row) => (row.overtime_minutes as number) > 0)).toBe(true);
      expect(rows.some((row) => (row.night_minutes as number) > 0)).toBe(true);
      // Each worker's month is written at once (issue 42), yet the registry verifies: every chain, fact and figure,
      // the check-ins recorded by the worker at the moment they were made (none late).
      const verified = await fetch(`${base}/admin/v1/registry/verify`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(await verified.json()).toMatchObject({ ok: true, problems: [] });
      const ins = await fetch(`${base}/v1/check-ins?limit=100`, {
        headers: { authorization: `Bearer ${testKey}` },
      });
      const punches = ((await ins.json()) as { data: Array<Record<string, unknown>> }).data;
      expect(punches.length).toBeGreaterThan(50);
      for (const punch of punches) {
        expect(punch).toMatchObject({ source: 'portal', late: false, worker_confirmed: true });
        const delay = Date.parse(punch.recorded_at as string) - Date.parse(punch.timestamp as string);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(5_000);
      }

      // `jornada admin create-admin`, with the password on stdin (kept out of the shell history).
      const companyId = ((await company.json()) as { id: string }).id;
      const cli = spawnSync(
        process.execPath,
        [
          'src/cli.js',
          'admin',
          'create-admin',
          companyId,
          '--email',
          'ops@example.com',
          '--url',
          base,
          '--token',
          adminToken,
        ],
        { input: 'a password from stdin\n', encoding: 'utf8' },
      );
      expect(cli.status, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout)).toMatchObject({ company_id: companyId, email: 'ops@example.com' });
      const cliLogin = await fetch(`${base}/dashboard/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ops@example.com', password: 'a password from stdin' }),
      });
      expect(cliLogin.status).toBe(200);

      // `jornada admin list-companies` with nothing but the data dir: the running service is found in its
      // service.json, the token in its admin-token file.
      expect(JSON.parse(await readFile(path.join(dataDir, 'service.json'), 'utf8'))).toMatchObject({
        url: `http://127.0.0.1:${port}`,
      });
      const listed = jornadaCli(['admin', 'list-companies']);
      expect(listed.status, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).data.map((row: { id: string }) => row.id)).toContain(companyId);
    } finally {
      const output = await stop(server);
      expect(output).toContain('SIGTERM received: draining');
      expect(output).toContain('jornada stopped');
    }
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    // Stopped: the record is gone, and the command says which URL it tried, without a stack trace.
    expect(existsSync(path.join(dataDir, 'service.json'))).toBe(false);
    const refused = jornadaCli(['admin', 'list-companies', '--url', `http://127.0.0.1:${port}`]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`cannot reach http://127.0.0.1:${port}/admin/v1/companies`);
    expect(refused.stderr).toContain('ECONNREFUSED');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    const noToken = jornadaCli(['admin', 'list-companies'], {
      JORNADA_DATA_DIR: path.join(dataDir, 'nowhere'),
    });
    expect(noToken.status).toBe(2);
    expect(noToken.stderr).toContain('no admin token');
    expect(noToken.stderr).toContain(path.join(dataDir, 'nowhere', 'admin-token'));
  }, 120_000);

  it('reuses the data on a second start and prints no secrets', async () => {
    const server = await start();
    try {
      expect(server.output()).not.toContain('jrn_live_');
      expect(server.output()).not.toContain('jrn_test_');
      expect(server.output()).not.toContain(adminToken);
      const organization = await fetch(`http://127.0.0.1:${port}/v1/organization`, {
        headers: { authorization: `Bearer ${liveKey}` },
      });
      expect(organization.status).toBe(200);
      expect(await organization.json()).toMatchObject({ name: 'Demo company', mode: 'live' });
    } finally {
      expect(await stop(server)).toContain('jornada stopped');
    }
  }, 120_000);

  it('forwards a SIGTERM sent to npm alone to the server, which drains and stops PostgreSQL', async () => {
    const server = await start();
    // A service manager that runs `npm start` signals npm's own pid, not the group.
    process.kill(server.child.pid as number, 'SIGTERM');
    await server.closed;
    expect(server.output()).toContain('SIGTERM received: draining');
    expect(server.output()).toContain('jornada stopped');
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 120_000);

  it('removes a stale postmaster.pid that names an unrelated process, without signalling it', async () => {
    const bystander = spawn('sleep', ['300'], { stdio: 'ignore' });
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    try {
      await writeFile(pidFile, `${bystander.pid}\n${path.join(dataDir, 'postgres')}\n`);
      const began = Date.now();
      const server = await start();
      expect(Date.now() - began).toBeLessThan(20_000);
      expect(bystander.exitCode).toBeNull();
      expect(bystander.signalCode).toBeNull();
      expect(await stop(server)).toContain('jornada stopped');
    } finally {
      bystander.kill('SIGKILL');
    }
  }, 120_000);

  it('skips the demo company with JORNADA_DEMO=0 but still prints the generated admin token once', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'jornada-e2e-nodemo-'));
    await chmod(directory, 0o755);
    try {
      const server = await start({ JORNADA_DEMO: '0' }, directory);
      const output = await stop(server);
      expect(output).not.toContain('jrn_live_');
      expect(output).toMatch(/Admin token \(shown once/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 120_000);
});
