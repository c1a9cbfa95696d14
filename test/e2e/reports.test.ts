import { parse } from 'csv-parse/sync';
import { beforeAll, expect, it } from 'vitest';
import {
  companyWithLiveKey,
  E2E_ADMIN_TOKEN,
  freePort,
  httpClient,
  useServiceWorld,
} from '../helpers/service.ts';

/**
 * Reports end to end: an API node and a separate worker node (JORNADA_FAKE_CLOCK=1) on one PostgreSQL and one
 * report directory. The worker generates the file, the API node serves the signed download over real HTTP.
 */
const world = useServiceWorld('reports');
let http: ReturnType<typeof httpClient>;
let key = '';

beforeAll(async () => {
  const port = await freePort();
  const env = { JORNADA_PUBLIC_URL: `http://127.0.0.1:${port}` };
  await world.start('api', { port, env });
  await world.start('worker', { env });
  http = httpClient(`http://127.0.0.1:${port}`);
  key = (
    await companyWithLiveKey(http, 'Reports e2e', [
      'org:informes:read',
      'org:empleados:write',
      'org:fichajes:write',
    ])
  ).liveKey;
}, 60_000);

it('generates on the worker, downloads once from the API node, and refuses an address after 5 minutes', async () => {
  const employee = await http(
    'POST',
    '/v1/employees',
    { first_name: 'Eva', last_name: 'Export', email: 'eva@example.com', hire_date: '2026-01-01' },
    key,
  );
  const checkIn = await http(
    'POST',
    '/v1/check-ins',
    { employee_id: employee.body.id, type: 'in', timestamp: '2026-02-02T08:00:00Z' },
    key,
  );
  const created = await http(
    'POST',
    '/v1/reports',
    { type: 'check_ins_export', format: 'csv', params: { from: '2026-02-01', to: '2026-02-28' } },
    key,
  );
  expect(created.status).toBe(202);
  const fetchReport = async () => (await http('GET', `/v1/reports/${created.body.id}`, undefined, key)).body;
  await expect.poll(fetchReport, { timeout: 15_000, interval: 200 }).toMatchObject({ status: 'completed' });
  const report = await fetchReport();
  expect(report).toMatchObject({ status: 'completed', row_count: 1 });

  const first = await fetch(report.download_url);
  expect(first.status).toBe(200);
  expect(first.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect([...first.headers.keys()].filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
  const rows = parse(await first.text(), { bom: true, columns: true }) as Array<Record<string, string>>;
  expect(rows).toEqual([
    expect.objectContaining({
      check_in_id: checkIn.body.id,
      employee_name: 'Eva Export',
      local_time: '2026-02-02 09:00:00',
    }),
  ]);
  const second = await fetch(report.download_url);
  expect(second.status).toBe(403);
  expect(((await second.json()) as { code: string }).code).toBe('unauthenticated');

  const fresh = (await http('GET', `/v1/reports/${report.id}`, undefined, key)).body.download_url;
  expect((await http('POST', '/admin/v1/clock/advance', { seconds: 301 }, E2E_ADMIN_TOKEN)).status).toBe(200);
  const late = await fetch(fresh);
  expect(late.status).toBe(403);
  expect(((await late.json()) as { code: string }).code).toBe('unauthenticated');
}, 60_000);
