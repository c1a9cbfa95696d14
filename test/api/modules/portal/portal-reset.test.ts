import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { pdfPages } from '../../../helpers/pdf.ts';
import { invite, joinPortal, PortalWorker, tokenOf } from '../../../helpers/portal.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Issue 35's red team: the company took over a worker's portal login with a new invitation, then accepted its own
 * correction as the worker. An invitation is now for a worker without a login; for one with a login it is a reset
 * that ends the worker's sessions, stops the old password, enters the worker's chain, shows in the portal and is
 * printed on every later document of the worker.
 */
let ctx: TestContext;
let company: TestCompany;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());

const pdfText = async (bytes: Buffer) => (await pdfPages(bytes)).join('\n').replace(/\s+/g, ' ');

describe('the company’s new link for a worker who has a login', () => {
  it('is a reset: the worker’s sessions end, the old password stops, and the chain, the portal and the documents say so', async () => {
    const { employee, worker } = await joinPortal(ctx, company.live, { hire_date: '2026-01-01' });
    expect((await worker.send('GET', '/portal/api/me')).statusCode).toBe(200);

    const reset = await company.live.post(`/v1/employees/${employee.id}/portal-invitation`);
    expect(reset.statusCode, reset.body).toBe(201);
    expect(reset.json()).toMatchObject({ kind: 'reset', emailed: false });
    // The session the worker had is gone, and so is the password the company never knew.
    expect((await worker.send('GET', '/portal/api/me')).statusCode).toBe(401);
    expect((await new PortalWorker(ctx).login(employee.email, 'correct horse battery')).statusCode).toBe(401);
    const chained = await sql<{ kind: string; content: string }>`
      select kind, content from registry_entries
      where employee_id = ${employee.id} and kind in ('credential_reset', 'credential_set') order by seq`.execute(
      ctx.db,
    );
    expect(chained.rows.map((row) => row.kind)).toEqual(['credential_set', 'credential_reset']);
    expect(JSON.parse(chained.rows[1]?.content ?? '{}')).toMatchObject({
      employee_id: employee.id,
      by: { type: 'api_key' },
    });

    // Whoever sets the new password, the worker sees the reset in the portal.
    const taken = new PortalWorker(ctx);
    expect((await taken.accept(tokenOf(reset.json().url), 'a password of the company')).statusCode).toBe(200);
    const me = (await taken.send('GET', '/portal/api/me')).json();
    expect(me.access_resets).toHaveLength(1);
    expect(me.access_resets[0].by_type).toBe('api_key');

    // An approval made now names its credential and the session's start, after the reset: an inspector can
    // tell it from the worker's own earlier ones.
    const requested = await company.live.post('/v1/check-in-corrections', {
      employee_id: employee.id,
      reason: 'Salida olvidada',
      add: [
        { type: 'in', timestamp: '2026-10-05T07:00:00Z' },
        { type: 'out', timestamp: '2026-10-05T15:00:00Z' },
      ],
    });
    expect(requested.statusCode, requested.body).toBe(201);
    expect(
      (await taken.send('POST', `/portal/api/corrections/${requested.json().id}/accept`)).statusCode,
    ).toBe(200);
    const accepted = await sql<{ content: string }>`
      select content from registry_entries where employee_id = ${employee.id} and kind = 'correction_accepted'`.execute(
      ctx.db,
    );
    const by = JSON.parse(accepted.rows[0]?.content ?? '{}').by;
    expect(by).toMatchObject({ type: 'employee', id: employee.id, credential: { kind: 'password' } });
    const resetAt = JSON.parse(chained.rows[1]?.content ?? '{}').at as string;
    expect(Date.parse(by.credential.session_started_at)).toBeGreaterThanOrEqual(Date.parse(resetAt));

    // And every later document of the worker prints it.
    expect((await company.live.post('/v1/registry/months/2026-10/close')).statusCode).toBe(200);
    const pdf = await taken.send('GET', '/portal/api/registry/2026-10.pdf');
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toMatch(
      /Acceso al portal restablecido por la empresa: \d{4}-\d\d-\d\d \d\d:\d\d \(la integración “[^”]+”\)/,
    );
  });

  it('is an invitation for a worker who never accepted one', async () => {
    const employee = await hire(company.live, { hire_date: '2026-11-01' });
    const first = await company.live.post(`/v1/employees/${employee.id}/portal-invitation`);
    expect(first.json()).toMatchObject({ kind: 'invitation' });
    const again = await company.live.post(`/v1/employees/${employee.id}/portal-invitation`);
    expect(again.json()).toMatchObject({ kind: 'invitation' });
  });
});

describe('one email, two companies (issue 35)', () => {
  it('is a worker’s login in each, neither company blocking nor seeing the other’s', async () => {
    const other = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    const email = 'pluriempleo@example.com';
    const here = await joinPortal(ctx, company.live, { hire_date: '2026-11-01', email });
    // The second company's invitation works too: no 409, nothing said about the first login.
    const thereEmployee = await hire(other.live, { hire_date: '2026-11-01', email });
    const thereLink = await invite(other.live, thereEmployee.id);
    expect((await new PortalWorker(ctx).accept(tokenOf(thereLink.url), 'a second password')).statusCode).toBe(
      200,
    );
    // Each password opens its own company.
    const mine = new PortalWorker(ctx);
    expect((await mine.login(email, 'correct horse battery')).statusCode).toBe(200);
    expect((await mine.send('GET', '/portal/api/me')).json().employee.id).toBe(here.employee.id);
    const theirs = new PortalWorker(ctx);
    expect((await theirs.login(email, 'a second password')).statusCode).toBe(200);
    expect((await theirs.send('GET', '/portal/api/me')).json().employee.id).toBe(thereEmployee.id);
    expect((await new PortalWorker(ctx).login(email, 'not the password at all')).statusCode).toBe(401);
  });
});
