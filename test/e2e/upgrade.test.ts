import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmptyDatabase } from '../helpers/database.ts';
import { previousRelease } from '../helpers/previous-release.ts';
import {
  E2E_ADMIN_TOKEN,
  freePort,
  httpClient,
  type ServiceNode,
  spawnCli,
  startServiceNode,
  stopServiceNode,
} from '../helpers/service.ts';

/**
 * A rolling upgrade (issue 37): the previous release's code (test/fixtures/previous-release.jsonl.gz, packed by
 * scripts/previous-release.ts) creates and fills a database; this release migrates it; the old node, still
 * running, keeps serving every kind of read and write of its API, its readiness stays 200, and a node of this
 * release beside it serves the same data, each seeing what the other wrote.
 */
type Http = ReturnType<typeof httpClient>;

const nodes: ServiceNode[] = [];
let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
let dataDir: string;
let release: { cli: string; commit: string };

beforeAll(async () => {
  release = await previousRelease();
  database = await createEmptyDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-upgrade-'));
}, 60_000);
afterAll(async () => {
  for (const node of nodes) await stopServiceNode(node);
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

async function start(cli: string | undefined, env: Record<string, string> = {}): Promise<Http> {
  const port = await freePort();
  nodes.push(
    await startServiceNode(database.url, 'all', {
      port,
      ...(cli ? { cli } : {}),
      env: { JORNADA_DATA_DIR: dataDir, JORNADA_WEBHOOKS_ALLOW_PRIVATE: '1', ...env },
    }),
  );
  return httpClient(`http://127.0.0.1:${port}`);
}

function expectStatus(response: { status: number; text: string }, status: number, what: string): void {
  expect({ what, status: response.status, body: response.status === status ? '' : response.text }).toEqual({
    what,
    status,
    body: '',
  });
}

/** Every kind of read and write a client makes, through one node: what must keep working on the new schema. */
async function exercise(http: Http, key: string, label: string): Promise<{ employeeId: string }> {
  const since = new Date(Date.now() - 60_000).toISOString();
  const hired = await http(
    'POST',
    '/v1/employees',
    { first_name: 'Upgrade', last_name: label, email: `${label}@example.com`, hire_date: '2026-01-01' },
    key,
  );
  expectStatus(hired, 201, `${label}: hire`);
  const id = hired.body.id as string;
  expectStatus(await http('GET', `/v1/employees/${id}`, undefined, key), 200, `${label}: read employee`);
  expectStatus(
    await http('PATCH', `/v1/employees/${id}`, { last_name: `${label} changed` }, key),
    200,
    `${label}: change employee`,
  );
  const synced = await http(
    'GET',
    `/v1/employees?updated_since=${encodeURIComponent(since)}&limit=100`,
    undefined,
    key,
  );
  expectStatus(synced, 200, `${label}: sync employees`);
  const day = '2026-01-15';
  for (const [type, time] of [
    ['in', '08:00'],
    ['out', '16:00'],
  ] as const) {
    expectStatus(
      await http('POST', '/v1/check-ins', { employee_id: id, type, timestamp: `${day}T${time}:00Z` }, key),
      201,
      `${label}: check-in ${type}`,
    );
  }
  expectStatus(
    await http('GET', `/v1/check-ins?employee_id=${id}`, undefined, key),
    200,
    `${label}: list check-ins`,
  );
  const absence = await http(
    'POST',
    '/v1/absences',
    { employee_id: id, type: 'vacation', start_date: '2026-02-02', end_date: '2026-02-03' },
    key,
  );
  expectStatus(absence, 201, `${label}: absence`);
  expectStatus(
    await http('POST', `/v1/absences/${absence.body.id}/approve`, {}, key),
    200,
    `${label}: approve absence`,
  );
  expectStatus(
    await http('GET', `/v1/absences?employee_id=${id}`, undefined, key),
    200,
    `${label}: list absences`,
  );
  const correction = await http(
    'POST',
    '/v1/check-in-corrections',
    {
      employee_id: id,
      reason: 'Olvidó fichar',
      add: [
        { type: 'in', timestamp: '2026-01-16T08:00:00Z' },
        { type: 'out', timestamp: '2026-01-16T16:00:00Z' },
      ],
    },
    key,
  );
  expectStatus(correction, 201, `${label}: correction`);
  expectStatus(
    await http('GET', '/v1/check-in-corrections', undefined, key),
    200,
    `${label}: list corrections`,
  );
  expectStatus(
    await http(
      'GET',
      `/v1/work-summaries?employee_id=${id}&period=day&from=2026-01-01&to=2026-01-31`,
      undefined,
      key,
    ),
    200,
    `${label}: work summaries`,
  );
  expectStatus(
    await http('GET', `/v1/vacation-balances?year=2026&employee_id=${id}`, undefined, key),
    200,
    `${label}: balances`,
  );
  const endpoint = await http(
    'POST',
    '/v1/webhook-endpoints',
    { url: 'http://127.0.0.1:9/hooks', events: ['employee.created'] },
    key,
  );
  expectStatus(endpoint, 201, `${label}: webhook endpoint`);
  expectStatus(await http('GET', '/v1/webhook-endpoints', undefined, key), 200, `${label}: list endpoints`);
  const report = await http(
    'POST',
    '/v1/reports',
    { type: 'check_ins_export', format: 'csv', params: { from: '2026-01-01', to: '2026-01-31' } },
    key,
  );
  expectStatus(report, 202, `${label}: report`);
  // The worker of the same node generates it, and the download is served.
  let done: { status: number; text: string; body: Record<string, unknown> } | null = null;
  // Polled as a client polls, once a second: the key's rate limit (120 a minute) is shared by the three rounds of
  // this test, and on a slow machine polling faster spent it. Past it, the poll waits instead of counting the
  // 429 as the report's answer.
  for (let attempt = 0; attempt < 120; attempt++) {
    done = await http('GET', `/v1/reports/${report.body.id}`, undefined, key);
    if (done.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      continue;
    }
    if (done.body.status !== 'processing') break;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  expect(done?.body.status, `${label}: report ${done?.text}`).toBe('completed');
  const file = await fetch(done?.body.download_url as string);
  expect(file.status, `${label}: download`).toBe(200);
  return { employeeId: id };
}

describe('a rolling upgrade from the previous release', () => {
  it("keeps the previous release's node serving every read and write after this release migrates", async () => {
    // The previous release creates the database and a company, and serves.
    const old = await start(release.cli);
    const company = await old('POST', '/admin/v1/companies', { name: 'Upgrade SL' }, E2E_ADMIN_TOKEN);
    expectStatus(company, 201, 'company');
    // The scopes the previous release knows, written out: this release's list (src/platform/scopes.ts) may have
    // more, which the old node would refuse.
    const scopes = [
      'org:empleados:read',
      'org:empleados:write',
      'org:fichajes:read',
      'org:fichajes:write',
      'org:ausencias:read',
      'org:ausencias:write',
      'org:saldos:read',
      'org:informes:read',
      'webhooks:manage',
    ];
    const created = await old(
      'POST',
      `/admin/v1/companies/${company.body.id}/api-keys`,
      { mode: 'live', scopes },
      E2E_ADMIN_TOKEN,
    );
    expectStatus(created, 201, 'key');
    const key = created.body.secret as string;
    const before = await exercise(old, key, 'before');

    // This release migrates the database while the old node runs.
    const migrated = spawnCli(['migrate'], { DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
    expect(await migrated.exited, migrated.output()).toBe(0);

    // The old node is still ready and serves every read and write; a node of this release serves beside it.
    const oldReady = await old('GET', '/readyz');
    expectStatus(oldReady, 200, `old node ready (${release.commit})`);
    const after = await exercise(old, key, 'after');
    const current = await start(undefined, { JORNADA_MIGRATE_ON_START: '0' });
    const mine = await exercise(current, key, 'current');
    // Each sees what the other wrote.
    expectStatus(
      await current('GET', `/v1/employees/${after.employeeId}`, undefined, key),
      200,
      'new reads old',
    );
    expectStatus(
      await current('GET', `/v1/employees/${before.employeeId}`, undefined, key),
      200,
      'new reads older',
    );
    expectStatus(await old('GET', `/v1/employees/${mine.employeeId}`, undefined, key), 200, 'old reads new');
    const listed = await old('GET', '/v1/employees?limit=100', undefined, key);
    expect((listed.body.data as Array<{ id: string }>).map((row) => row.id)).toEqual(
      expect.arrayContaining([before.employeeId, after.employeeId, mine.employeeId]),
    );
  }, 300_000);
});
