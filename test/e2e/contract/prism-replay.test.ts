import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../../src/platform/scopes.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { type Receiver, startReceiver } from '../../helpers/receiver.ts';
import {
  E2E_ADMIN_TOKEN,
  freePort,
  httpClient,
  type ServiceNode,
  startServiceNode,
  stopServiceNode,
} from '../../helpers/service.ts';

/**
 * The description against the server, judged by someone else (issue 41): a workload of every operation of
 * openapi-v1.json, with their error cases (401, 404, 422, 429), sent through Stoplight Prism's validating proxy
 * in front of a running service. Prism checks every response against the description on its own (its own
 * parser and validator, not ours) and reports each difference in an `sl-violations` header; there must be none.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);

let database: TestDatabase;
let node: ServiceNode;
let receiver: Receiver;
let prism: ReturnType<typeof spawn>;
let service = '';
let proxy = '';

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  const port = await freePort();
  service = `http://127.0.0.1:${port}`;
  node = await startServiceNode(database.url, 'all', {
    port,
    env: { JORNADA_PUBLIC_URL: service, JORNADA_WEBHOOKS_ALLOW_PRIVATE: '1' },
  });
  const started = await startPrism(path.join(ROOT, 'openapi-v1.json'));
  prism = started.child;
  proxy = started.url;
}, 120_000);

/** Prism's validating proxy for a description, in front of the service. */
async function startPrism(description: string) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      require.resolve('@stoplight/prism-cli/dist/index.js'),
      'proxy',
      description,
      service,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--errors',
      'false',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 60_000;
  while (!/Prism is listening/i.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`prism did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url: `http://127.0.0.1:${port}` };
}

afterAll(async () => {
  prism?.kill('SIGTERM');
  if (node) await stopServiceNode(node);
  await receiver?.close();
  await database?.drop();
});

type Exchange = { operation: string; method: string; path: string; status: number; violations: unknown[] };
const exchanges: Exchange[] = [];

/** One request through Prism: the answer, and Prism's verdict on it. */
async function call(
  operation: string,
  method: string,
  address: string,
  options: { key?: string | null; body?: unknown; raw?: string; through?: string } = {},
) {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined || options.raw !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${options.through ?? proxy}${address}`, {
    method,
    headers,
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await response.text();
  const reported = response.headers.get('sl-violations');
  const violations = reported
    ? (JSON.parse(reported) as Array<{ location?: string[] }>).filter(
        // Only the answers are judged here: the error cases send requests that break the description on purpose.
        (violation) => violation.location?.[0] === 'response',
      )
    : [];
  exchanges.push({ operation, method, path: address, status: response.status, violations });
  const json = response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : null;
  return { status: response.status, body: json, text };
}

const admin = () => httpClient(service);
const advance = (seconds: number) => admin()('POST', '/admin/v1/clock/advance', { seconds }, E2E_ADMIN_TOKEN);

describe('the description, judged by Prism', () => {
  it('is judged for real: a description that lies about an answer gets a violation reported', async () => {
    // The control: the same service behind a copy of the description whose Organization.name is an integer.
    const lying = JSON.parse(await readFile(path.join(ROOT, 'openapi-v1.json'), 'utf8'));
    lying.components.schemas.Organization.properties.name = { type: 'integer' };
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'jornada-prism-')), 'lying.json');
    await writeFile(file, JSON.stringify(lying));
    const control = await startPrism(file);
    try {
      const http = admin();
      const company = (await http('POST', '/admin/v1/companies', { name: 'Control SL' }, E2E_ADMIN_TOKEN))
        .body;
      const key = (
        await http(
          'POST',
          `/admin/v1/companies/${company.id}/api-keys`,
          { mode: 'live', scopes: [...SCOPES] },
          E2E_ADMIN_TOKEN,
        )
      ).body.secret;
      const answer = await call('getOrganization', 'GET', '/v1/organization', { key, through: control.url });
      expect(answer.status).toBe(200);
      const reported = exchanges.pop();
      expect(reported?.violations.length, JSON.stringify(reported)).toBeGreaterThan(0);
    } finally {
      control.child.kill('SIGTERM');
      await rm(path.dirname(file), { recursive: true, force: true });
    }
  }, 120_000);

  it('matches every answer of a workload of every operation and its error cases', async () => {
    const http = admin();
    const company = (
      await http(
        'POST',
        '/admin/v1/companies',
        { name: 'Contrato SL', timezone: 'Europe/Madrid' },
        E2E_ADMIN_TOKEN,
      )
    ).body;
    const keyOf = async (mode: 'live' | 'test') =>
      (
        await http(
          'POST',
          `/admin/v1/companies/${company.id}/api-keys`,
          { mode, scopes: SCOPES },
          E2E_ADMIN_TOKEN,
        )
      ).body;
    const live = (await keyOf('live')).secret as string;
    const test = (await keyOf('test')).secret as string;
    const spare = await keyOf('live');
    const location = (
      await http('POST', `/admin/v1/companies/${company.id}/locations`, { name: 'Almacén' }, E2E_ADMIN_TOKEN)
    ).body;
    const unit = (
      await http('POST', `/admin/v1/companies/${company.id}/units`, { name: 'Logística' }, E2E_ADMIN_TOKEN)
    ).body;
    const k = { key: live };
    let requests = 0;
    // The live key's 120 a minute: the service's clock moves on between groups of requests.
    const step = async <T>(run: () => Promise<T>): Promise<T> => {
      requests += 1;
      if (requests % 90 === 0) await advance(61);
      return await run();
    };
    const ok = async (
      operation: string,
      method: string,
      address: string,
      options: { key?: string | null; body?: unknown } = k,
    ) => {
      const answer = await step(() => call(operation, method, address, options));
      expect(answer.status, `${operation}: ${answer.text}`).toBeLessThan(300);
      return answer.body;
    };

    await ok('getOrganization', 'GET', '/v1/organization');
    await ok('listApiKeys', 'GET', '/v1/api-keys');
    await ok('listLocations', 'GET', '/v1/locations');
    await ok('getLocation', 'GET', `/v1/locations/${location.id}`);
    await ok('listUnits', 'GET', '/v1/units');
    await ok('getUnit', 'GET', `/v1/units/${unit.id}`);
    const employee = await ok('createEmployee', 'POST', '/v1/employees', {
      ...k,
      body: {
        first_name: 'Lucía',
        last_name: 'Martínez',
        email: 'lucia@example.com',
        hire_date: '2026-09-01',
        location_id: location.id,
        unit_id: unit.id,
        national_id: '12345678Z',
      },
    });
    const other = await ok('createEmployee', 'POST', '/v1/employees', {
      ...k,
      body: { first_name: 'Bea', last_name: 'Sanz', email: 'bea@example.com', hire_date: '2026-09-01' },
    });
    await ok('listEmployees', 'GET', '/v1/employees?limit=1');
    await ok('getEmployee', 'GET', `/v1/employees/${employee.id}`);
    await ok('updateEmployee', 'PATCH', `/v1/employees/${employee.id}`, {
      ...k,
      body: { external_id: 'NOM-1' },
    });
    await ok('getEmployeeContractHistory', 'GET', `/v1/employees/${employee.id}/contract-history`);
    await ok('createPortalInvitation', 'POST', `/v1/employees/${employee.id}/portal-invitation`, {
      ...k,
      body: {},
    });

    const punch = (type: string, timestamp: string, who = employee.id) =>
      ok('createCheckIn', 'POST', '/v1/check-ins', { ...k, body: { employee_id: who, type, timestamp } });
    const first = await punch('in', '2026-10-05T07:00:00Z');
    await punch('out', '2026-10-05T15:00:00Z');
    const twice = await punch('in', '2026-10-06T07:00:00Z');
    await punch('out', '2026-10-06T15:00:00Z');
    await ok('listCheckIns', 'GET', `/v1/check-ins?employee_id=${employee.id}`);
    await ok('getCheckIn', 'GET', `/v1/check-ins/${first.id}`);
    const correction = await ok('createCheckInCorrection', 'POST', '/v1/check-in-corrections', {
      ...k,
      body: {
        employee_id: employee.id,
        reason: 'A break not recorded',
        add: [
          { type: 'break_start', timestamp: '2026-10-05T11:00:00Z' },
          { type: 'break_end', timestamp: '2026-10-05T11:30:00Z' },
        ],
      },
    });
    await ok('approveCheckInCorrection', 'POST', `/v1/check-in-corrections/${correction.id}/approve`, {
      ...k,
      body: {},
    });
    const refused = await ok('createCheckInCorrection', 'POST', '/v1/check-in-corrections', {
      ...k,
      body: { employee_id: employee.id, reason: 'Not so', void: [twice.id] },
    });
    await ok('rejectCheckInCorrection', 'POST', `/v1/check-in-corrections/${refused.id}/reject`, {
      ...k,
      body: { reason: 'It was so.' },
    });
    await ok('listCheckInCorrections', 'GET', '/v1/check-in-corrections');
    await ok('getCheckInCorrection', 'GET', `/v1/check-in-corrections/${correction.id}`);

    await ok('listAbsenceTypes', 'GET', '/v1/absence-types');
    const absence = (start: string, end: string) =>
      ok('createAbsence', 'POST', '/v1/absences', {
        ...k,
        body: { employee_id: employee.id, type: 'vacation', start_date: start, end_date: end },
      });
    const approved = await absence('2026-12-21', '2026-12-22');
    await ok('approveAbsence', 'POST', `/v1/absences/${approved.id}/approve`, { ...k, body: {} });
    const rejected = await absence('2027-01-11', '2027-01-12');
    await ok('rejectAbsence', 'POST', `/v1/absences/${rejected.id}/reject`, {
      ...k,
      body: { reason: 'Inventario.' },
    });
    const cancelled = await absence('2027-02-08', '2027-02-09');
    await ok('cancelAbsence', 'POST', `/v1/absences/${cancelled.id}/cancel`, { ...k, body: {} });
    await ok('listAbsences', 'GET', '/v1/absences');
    await ok('getAbsence', 'GET', `/v1/absences/${approved.id}`);
    await ok('listHolidays', 'GET', '/v1/holidays?year=2026');

    const shift = await ok('createShift', 'POST', '/v1/shifts', {
      ...k,
      body: { employee_id: other.id, date: '2026-12-14', start: '22:00', end: '06:00', break_minutes: 30 },
    });
    await ok('getShift', 'GET', `/v1/shifts/${shift.id}`);
    await ok('updateShift', 'PATCH', `/v1/shifts/${shift.id}`, { ...k, body: { start: '21:30' } });
    await ok('bulkShifts', 'POST', '/v1/shifts/bulk', {
      ...k,
      body: { shifts: [{ employee_id: other.id, date: '2026-12-15', start: '08:00', end: '16:00' }] },
    });
    await ok('publishShifts', 'POST', '/v1/shifts/publish', {
      ...k,
      body: { from: '2026-12-14', to: '2026-12-20' },
    });
    await ok('listShifts', 'GET', '/v1/shifts?from=2026-12-14&to=2026-12-20');
    const template = await ok('createShiftTemplate', 'POST', '/v1/shift-templates', {
      ...k,
      body: { name: 'Mañana', start: '08:00', end: '16:00' },
    });
    await ok('listShiftTemplates', 'GET', '/v1/shift-templates');
    const rota = await ok('createRotaPattern', 'POST', '/v1/rota-patterns', {
      ...k,
      body: { name: '1 × 1', cycle: [template.id, null] },
    });
    await ok('listRotaPatterns', 'GET', '/v1/rota-patterns');
    await ok('applyRotaPattern', 'POST', `/v1/rota-patterns/${rota.id}/apply`, {
      ...k,
      body: { employee_ids: [other.id], from: '2027-01-04', to: '2027-01-10' },
    });
    await ok('deleteShift', 'DELETE', `/v1/shifts/${shift.id}`);

    await ok('listWorkSummaries', 'GET', '/v1/work-summaries?period=month&from=2026-10-01&to=2026-10-31');
    await ok('listComplianceAlerts', 'GET', '/v1/compliance-alerts');
    const majeure = await ok('createForceMajeureDay', 'POST', '/v1/force-majeure-days', {
      ...k,
      body: { employee_id: other.id, date: '2026-11-16', reason: 'Inundación.' },
    });
    await ok('listForceMajeureDays', 'GET', '/v1/force-majeure-days');
    await ok('deleteForceMajeureDay', 'DELETE', `/v1/force-majeure-days/${majeure.id}`);
    await ok('listVacationBalances', 'GET', '/v1/vacation-balances?year=2026');

    await ok('closeRegistryMonth', 'POST', '/v1/registry/months/2026-10/close', { ...k, body: {} });
    await ok('listClosedRegistryMonths', 'GET', '/v1/registry/months');
    await ok('listRegistryMonthAcknowledgements', 'GET', '/v1/registry/months/2026-10/acknowledgements');
    const grant = await ok('createRegistryAccessGrant', 'POST', '/v1/registry/access-grants', {
      ...k,
      body: {
        kind: 'inspection',
        label: 'ITSS',
        from: '2026-10-01',
        to: '2026-10-31',
        expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    });
    await ok('listRegistryAccessGrants', 'GET', '/v1/registry/access-grants');
    await ok('getRegistryAccessGrant', 'GET', `/v1/registry/access-grants/${grant.id}`);
    await ok('listRegistryAccesses', 'GET', `/v1/registry/access-grants/${grant.id}/accesses`);
    await ok('revokeRegistryAccessGrant', 'DELETE', `/v1/registry/access-grants/${grant.id}`);

    const map = await ok('createPayrollConceptMap', 'POST', '/v1/payroll/concept-maps', {
      ...k,
      body: { name: 'Nómina', codes: { ordinary: '001' } },
    });
    await ok('listPayrollConceptMaps', 'GET', '/v1/payroll/concept-maps');
    await ok('getPayrollConceptMap', 'GET', `/v1/payroll/concept-maps/${map.id}`);
    await ok('updatePayrollConceptMap', 'PATCH', `/v1/payroll/concept-maps/${map.id}`, {
      ...k,
      body: { worker_identifier: 'national_id' },
    });
    const report = await ok('createReport', 'POST', '/v1/reports', {
      ...k,
      body: {
        type: 'payroll_variables',
        format: 'csv',
        params: { month: '2026-10', concept_map_id: map.id },
      },
    });
    let done = await ok('getReport', 'GET', `/v1/reports/${report.id}`);
    for (let tries = 0; done.status === 'processing' && tries < 120; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      done = (await call('getReport', 'GET', `/v1/reports/${report.id}`, k)).body;
      requests += 1;
    }
    expect(done.status).toBe('completed');
    const download = new URL(done.download_url);
    await ok('downloadReport', 'GET', `${download.pathname}${download.search}`, { key: null });
    await ok('deletePayrollConceptMap', 'DELETE', `/v1/payroll/concept-maps/${map.id}`);

    const endpoint = await ok('createWebhookEndpoint', 'POST', '/v1/webhook-endpoints', {
      ...k,
      body: { url: `${receiver.url}/hooks`, events: ['employee.created'] },
    });
    await ok('listWebhookEndpoints', 'GET', '/v1/webhook-endpoints');
    await ok('getWebhookEndpoint', 'GET', `/v1/webhook-endpoints/${endpoint.id}`);
    await ok('updateWebhookEndpoint', 'PATCH', `/v1/webhook-endpoints/${endpoint.id}`, {
      ...k,
      body: { description: 'HR' },
    });
    const ping = await ok('testWebhookEndpoint', 'POST', `/v1/webhook-endpoints/${endpoint.id}/test`);
    await ok('listWebhookDeliveries', 'GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`);
    await ok('getWebhookDelivery', 'GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries/${ping.id}`);
    await ok(
      'retryWebhookDelivery',
      'POST',
      `/v1/webhook-endpoints/${endpoint.id}/deliveries/${ping.id}/retry`,
    );
    const now = new Date();
    await ok('replayWebhookEvents', 'POST', `/v1/webhook-endpoints/${endpoint.id}/replay`, {
      ...k,
      body: {
        from: new Date(now.getTime() - 86_400_000).toISOString(),
        to: new Date(now.getTime() + 86_400_000).toISOString(),
      },
    });
    await ok('deleteWebhookEndpoint', 'DELETE', `/v1/webhook-endpoints/${endpoint.id}`);

    await ok('emitSampleEvent', 'POST', '/v1/sandbox/events', {
      key: test,
      body: { type: 'absence.approved' },
    });
    await ok('listenSandboxEvents', 'GET', '/v1/sandbox/events?after=latest', { key: test });
    await ok('terminateEmployee', 'POST', `/v1/employees/${other.id}/terminate`, {
      ...k,
      body: { termination_date: '2026-12-31' },
    });
    await ok('revokeApiKey', 'DELETE', `/v1/api-keys/${spare.id}`);

    // The error cases of every operation: no key (401), an unknown id (404), a body that breaks the rules (422).
    const description = JSON.parse(await readFile(path.join(ROOT, 'openapi-v1.json'), 'utf8')) as {
      paths: Record<
        string,
        Record<string, { operationId?: string; requestBody?: unknown; security?: unknown[] }>
      >;
    };
    const UNKNOWN = '0191a8e0-0000-7000-8000-000000000000';
    for (const [template, verbs] of Object.entries(description.paths)) {
      for (const [verb, operation] of Object.entries(verbs)) {
        if (!operation.operationId) continue;
        const address = template.replace('{month}', '2026-09').replace(/\{[^}]+\}/g, UNKNOWN);
        const method = verb.toUpperCase();
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        if (!isPublic)
          await step(() => call(operation.operationId as string, method, address, { key: null }));
        if (address.includes(UNKNOWN))
          await step(() => call(operation.operationId as string, method, address, k));
        if (operation.requestBody)
          await step(() =>
            call(operation.operationId as string, method, template.includes('{') ? address : address, {
              ...k,
              raw: '{"unknown_field": 1}',
            }),
          );
      }
    }
    // A full minute of a test key (30): the 31st is 429, as the description says.
    await advance(61);
    for (let index = 0; index < 31; index += 1)
      await call('getOrganization', 'GET', '/v1/organization', { key: test });

    const covered = new Set(
      exchanges.filter((exchange) => exchange.status < 300).map((exchange) => exchange.operation),
    );
    const operations = Object.values(description.paths).flatMap((verbs) =>
      Object.values(verbs).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    expect(operations.filter((operation) => !covered.has(operation))).toEqual([]);
    const statuses = new Set(exchanges.map((exchange) => exchange.status));
    for (const status of [200, 201, 202, 204, 401, 404, 422, 429])
      expect(statuses, String(status)).toContain(status);
    console.log(`Prism judged ${exchanges.length} exchanges of ${operations.length} operations`);
    expect(exchanges.filter((exchange) => exchange.violations.length > 0)).toEqual([]);
  }, 600_000);
});
