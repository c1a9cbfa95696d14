import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Jornada } from '@jornada/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import {
  E2E_ADMIN_TOKEN,
  freePort,
  httpClient,
  type ServiceNode,
  spawnNode,
  startServiceNode,
  stopServiceNode,
} from '../../helpers/service.ts';

/**
 * The example integration (examples/sync-and-webhooks), run as a user runs it: `node sync.ts` and
 * `node receiver.ts` as processes, against a real service that delivers real webhooks to the receiver.
 */
const EXAMPLE = path.resolve(import.meta.dirname, '../../../examples/sync-and-webhooks');

let database: TestDatabase;
let node: ServiceNode;
let dir = '';
let base = '';
let call: ReturnType<typeof httpClient>;
let receiver: ChildProcess | null = null;

beforeAll(async () => {
  database = await createTestDatabase();
  dir = await mkdtemp(path.join(os.tmpdir(), 'jornada-example-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  call = httpClient(base);
  node = await startServiceNode(database.url, 'all', { port, env: { JORNADA_WEBHOOKS_ALLOW_PRIVATE: '1' } });
}, 60_000);

afterAll(async () => {
  receiver?.kill('SIGTERM');
  if (node) await stopServiceNode(node);
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('the example integration', () => {
  it('syncs employees and check-ins incrementally, and syncs again on a verified webhook', async () => {
    const company = await call('POST', '/admin/v1/companies', { name: 'Example sync' }, E2E_ADMIN_TOKEN);
    const key = await call(
      'POST',
      `/admin/v1/companies/${company.body.id}/api-keys`,
      {
        mode: 'live',
        scopes: [
          'org:empleados:read',
          'org:empleados:write',
          'org:fichajes:read',
          'org:fichajes:write',
          'webhooks:manage',
        ],
      },
      E2E_ADMIN_TOKEN,
    );
    const apiKey = key.body.secret as string;
    const jornada = new Jornada({ apiKey, baseUrl: base });
    const advance = async (seconds: number) =>
      expect((await call('POST', '/admin/v1/clock/advance', { seconds }, E2E_ADMIN_TOKEN)).status).toBe(200);
    const env = { JORNADA_URL: base, JORNADA_API_KEY: apiKey };
    const store = path.join(dir, 'store.json');
    const runSync = async () => {
      const run = spawnNode(path.join(EXAMPLE, 'sync.ts'), [store], env);
      expect(await run.exited, run.output()).toBe(0);
      return run.output().trim();
    };

    // Hired a week ago, so that check-ins of the last hours fall after the hire at any hour of the day.
    const hire_date = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const ana = await jornada.createEmployee({
      hire_date,
      first_name: 'Ana',
      last_name: 'Sync',
      email: 'ana@example.com',
    });
    const bruno = await jornada.createEmployee({
      hire_date,
      first_name: 'Bruno',
      last_name: 'Sync',
      email: 'b@example.com',
    });
    const hour = (hoursAgo: number) =>
      `${new Date(Date.now() - hoursAgo * 3_600_000).toISOString().slice(0, 19)}Z`;
    await jornada.createCheckIn({ employee_id: ana.id, type: 'in', timestamp: hour(3) });
    await jornada.createCheckIn({ employee_id: ana.id, type: 'out', timestamp: hour(1) });
    await jornada.createCheckIn({ employee_id: bruno.id, type: 'in', timestamp: hour(2) });
    await advance(5);
    expect(await runSync()).toBe('employees: 2 changed, 2 kept; check-ins: 3 changed, 3 kept');
    // Nothing changed since: the second run finds nothing new (the last second comes again, unchanged).
    await advance(5);
    expect(await runSync()).toBe('employees: 0 changed, 2 kept; check-ins: 0 changed, 3 kept');

    // The receiver, subscribed to the company's changes.
    const port = await freePort();
    const endpoint = await jornada.createWebhookEndpoint({
      url: `http://127.0.0.1:${port}/hooks`,
      events: ['employee.updated', 'checkin.created'],
      description: 'example receiver',
    });
    const started = spawnNode(path.join(EXAMPLE, 'receiver.ts'), [store], {
      ...env,
      JORNADA_WEBHOOK_SECRET: endpoint.secret,
      PORT: String(port),
    });
    receiver = started.child;
    await expect.poll(started.output, { timeout: 10_000 }).toContain('listening on');

    await jornada.updateEmployee(ana.id, { last_name: 'Sincronizada' });
    await expect.poll(started.output, { timeout: 20_000 }).toMatch(/verified employee\.updated evt_/);
    await expect
      .poll(started.output, { timeout: 20_000 })
      .toContain('synced: employees 1 changed, check-ins 0 changed');
    const copy = JSON.parse(await readFile(store, 'utf8'));
    expect(copy.employees.records[ana.id].last_name).toBe('Sincronizada');
    expect(Object.keys(copy.checkIns.records)).toHaveLength(3);

    // A delivery not signed with the endpoint's secret is refused.
    const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'evt_forged',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJl',
      },
      body: JSON.stringify({ id: 'evt_forged', type: 'employee.updated', data: { employee_id: ana.id } }),
    });
    expect(forged.status).toBe(400);
    // Its log line comes through the child's stdout pipe, which may arrive after the answer.
    await expect.poll(started.output).toContain('refused a delivery');
  }, 90_000);
});
