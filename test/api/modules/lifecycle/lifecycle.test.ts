import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestContext,
  generateReports,
  type TestCompany,
  type TestContext,
} from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const EXPORT = { type: 'check_ins_export', format: 'csv', params: { from: '2026-10-01', to: '2026-10-31' } };

async function completedReport(owner: TestCompany['live']): Promise<{ id: string; storageKey: string }> {
  const created = await owner.post('/v1/reports', EXPORT);
  expect(created.statusCode, created.body).toBe(202);
  await generateReports(ctx);
  const row = await ctx.db
    .selectFrom('reports')
    .select(['status', 'storage_key'])
    .where('id', '=', created.json().id)
    .executeTakeFirstOrThrow();
  expect(row.status).toBe('completed');
  expect(await ctx.deps.reportStore.get(row.storage_key ?? '')).not.toBeNull();
  return { id: created.json().id, storageKey: row.storage_key ?? '' };
}

/** A company whose live tenant and sandbox both hold data: employees, a webhook endpoint, a report, keys. */
async function populated() {
  const company = await ctx.createCompany();
  const extraTest = await ctx.createKey(company.id, 'test', ['org:empleados:read']);
  const hook = await company.test.post('/v1/webhook-endpoints', {
    url: 'https://hooks.example.com/jornada',
    events: ['employee.created'],
  });
  expect(hook.statusCode, hook.body).toBe(201);
  await hire(company.live, { first_name: 'Live', last_name: 'Person' });
  const sandboxEmployee = await hire(company.test, {
    first_name: 'Sandbox',
    last_name: 'Person',
    hire_date: '2026-01-01',
  });
  // Registry rows, which the database refuses to delete but with a whole sandbox: a check-in, a closed month.
  const checkIn = await company.test.post('/v1/check-ins', {
    employee_id: sandboxEmployee.id,
    type: 'in',
    timestamp: ctx.clock.now().subtract({ hours: 1 }).toString({ smallestUnit: 'second' }),
  });
  expect(checkIn.statusCode, checkIn.body).toBe(201);
  const closed = await company.test.post('/v1/registry/months/2026-10/close');
  expect(closed.statusCode, closed.body).toBe(200);
  const liveReport = await completedReport(company.live);
  const sandboxReport = await completedReport(company.test);
  return { company, extraTest, sandboxEmployee, liveReport, sandboxReport };
}

const countRows = async (table: string, companyId: string) => {
  const result = await sql<{ count: number }>`select count(*)::int as count from ${sql.table(table)}
    where company_id = ${companyId}`.execute(ctx.db);
  return result.rows[0]?.count ?? -1;
};

const SANDBOX_TABLES = [
  'employees',
  'webhook_endpoints',
  'webhook_deliveries',
  'events',
  'reports',
  'api_keys',
  'check_ins',
  'registry_entries',
  'registry_months',
];

describe('addon disable', () => {
  it('revokes every key with addon_disabled, deletes reports and their files, and removes the sandbox', async () => {
    const { company, extraTest, liveReport, sandboxReport } = await populated();
    for (const table of SANDBOX_TABLES) expect(await countRows(table, company.sandboxId)).toBeGreaterThan(0);

    const response = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { addon_enabled: false });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ addon_enabled: false, sandbox_company_id: null });

    // Live keys stay as revoked rows, with the reason; the sandbox's keys went with the sandbox.
    const keys = await ctx.db
      .selectFrom('api_keys')
      .select(['id', 'revoked_at', 'revoked_reason'])
      .where('company_id', '=', company.id)
      .execute();
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.revoked_at).not.toBeNull();
      expect(key.revoked_reason).toBe('addon_disabled');
    }
    const listed = await ctx.admin.get(`/admin/v1/companies/${company.id}/api-keys`);
    expect(listed.json().data.map((key: { status: string }) => key.status)).toEqual(
      keys.map(() => 'revoked'),
    );
    for (const secret of [company.liveKey, company.testKey, extraTest.secret]) {
      const call = await ctx.as(secret).get('/v1/organization');
      expect(call.statusCode).toBe(401);
      expect(call.json().code).toBe('unauthenticated');
    }

    // Reports: rows and files.
    expect(await countRows('reports', company.id)).toBe(0);
    for (const report of [liveReport, sandboxReport]) {
      expect(await ctx.deps.reportStore.get(report.storageKey)).toBeNull();
    }

    // The sandbox and every row of it.
    expect((await ctx.admin.get(`/admin/v1/companies/${company.sandboxId}`)).statusCode).toBe(404);
    for (const table of [...SANDBOX_TABLES, 'absence_types', 'workdays', 'check_ins']) {
      expect(await countRows(table, company.sandboxId), table).toBe(0);
    }
    // The live tenant's own data stays.
    expect(await countRows('employees', company.id)).toBe(1);
  });

  it('refuses key issuance while the addon is off', async () => {
    const company = await ctx.createCompany();
    await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { addon_enabled: false });
    for (const mode of ['live', 'test']) {
      const response = await ctx.admin.post(`/admin/v1/companies/${company.id}/api-keys`, {
        mode,
        scopes: ['org:empleados:read'],
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('addon_disabled');
    }
  });

  it('changes nothing when the transaction fails part-way', async () => {
    const { company, liveReport, sandboxReport } = await populated();
    // A failure injected at the last step (removing the sandbox) must roll back the revocations and deletions.
    await sql`create function fail_sandbox_delete() returns trigger language plpgsql as $$
      begin raise exception 'injected failure'; end $$`.execute(ctx.db);
    await sql`create trigger fail_sandbox_delete before delete on companies
      for each row execute function fail_sandbox_delete()`.execute(ctx.db);
    try {
      const response = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { addon_enabled: false });
      expect(response.statusCode).toBe(500);
    } finally {
      await sql`drop trigger fail_sandbox_delete on companies`.execute(ctx.db);
      await sql`drop function fail_sandbox_delete()`.execute(ctx.db);
    }
    const view = (await ctx.admin.get(`/admin/v1/companies/${company.id}`)).json();
    expect(view).toMatchObject({ addon_enabled: true, sandbox_company_id: company.sandboxId });
    expect((await company.live.get('/v1/organization')).statusCode).toBe(200);
    expect((await company.test.get('/v1/organization')).statusCode).toBe(200);
    expect((await company.live.get(`/v1/reports/${liveReport.id}`)).json().status).toBe('completed');
    for (const report of [liveReport, sandboxReport]) {
      expect(await ctx.deps.reportStore.get(report.storageKey)).not.toBeNull();
    }
    expect(await countRows('employees', company.sandboxId)).toBe(1);
  });
});

describe('addon re-enable', () => {
  it('provisions a new, empty sandbox and restores no keys', async () => {
    const { company } = await populated();
    await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { addon_enabled: false });
    const response = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { addon_enabled: true });
    expect(response.statusCode).toBe(200);
    const sandboxId = response.json().sandbox_company_id;
    expect(sandboxId).toEqual(expect.any(String));
    expect(sandboxId).not.toBe(company.sandboxId);

    const keys = await ctx.admin.get(`/admin/v1/companies/${company.id}/api-keys`);
    expect(keys.json().data.every((key: { status: string }) => key.status === 'revoked')).toBe(true);
    expect((await ctx.as(company.liveKey).get('/v1/organization')).statusCode).toBe(401);
    expect((await ctx.as(company.testKey).get('/v1/organization')).statusCode).toBe(401);

    // A new test key works against the new sandbox, which is empty but for its built-in absence types.
    const fresh = await ctx.createKey(company.id, 'test', ['org:empleados:read', 'org:ausencias:read']);
    const organization = await ctx.as(fresh.secret).get('/v1/organization');
    expect(organization.statusCode).toBe(200);
    expect(organization.json()).toMatchObject({ id: sandboxId, sandbox: true });
    expect((await ctx.as(fresh.secret).get('/v1/employees')).json().data).toEqual([]);
    expect((await ctx.as(fresh.secret).get('/v1/absence-types')).json().data.length).toBeGreaterThan(0);
    for (const table of ['employees', 'webhook_endpoints', 'reports', 'events']) {
      expect(await countRows(table, sandboxId), table).toBe(0);
    }
  });

  it('is a no-op when the addon is already on', async () => {
    const company = await ctx.createCompany();
    const response = await ctx.admin.patch(`/admin/v1/companies/${company.id}`, { addon_enabled: true });
    expect(response.json().sandbox_company_id).toBe(company.sandboxId);
    expect((await company.test.get('/v1/organization')).statusCode).toBe(200);
  });
});
