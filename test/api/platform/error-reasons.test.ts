import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';

/**
 * Issue 41, a description that matches the server: the codes of v1 never change, so a 413 stays
 * `validation_failed` and a 405 `not_found`; `errors.reason` tells a client which case it met. The description
 * declares what the server does: a body without required fields is optional, 413 is declared on every operation
 * with a body, the sandbox's 404, and every enumeration of strings says `type: string`.
 */
let ctx: TestContext;
let company: TestCompany;
beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany();
});
afterAll(() => ctx.close());

describe('errors.reason (issue 41)', () => {
  it('answers a body past the limit 413 validation_failed, reason payload_too_large, and stores nothing', async () => {
    const before = (await company.live.get('/v1/employees')).json().data.length;
    const response = await company.live.post('/v1/employees', {
      first_name: 'x'.repeat(1_100_000),
      last_name: 'Grande',
      email: 'grande@example.com',
      hire_date: '2026-01-01',
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({
      code: 'validation_failed',
      errors: { reason: 'payload_too_large', body: ['is too large'] },
    });
    expect((await company.live.get('/v1/employees')).json().data.length).toBe(before);
  });

  it('answers a wrong method on a known path 405 not_found, reason method_not_allowed, with the allowed ones', async () => {
    const response = await company.live.request('PUT', '/v1/employees', {});
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, POST');
    expect(response.json()).toMatchObject({
      code: 'not_found',
      errors: { reason: 'method_not_allowed', allowed: ['GET', 'POST'] },
    });
    // An unknown path is a plain 404, without a reason.
    const unknown = await company.live.get('/v1/nothing-here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors?.reason).toBeUndefined();
  });
});

describe('the description says what the server does (issue 41)', () => {
  type Operation = {
    operationId: string;
    requestBody?: { required?: boolean; $ref?: string };
    responses: Record<string, unknown>;
  };
  let operations: Operation[];
  let document: Record<string, unknown>;
  beforeAll(async () => {
    document = (await ctx.app.inject({ url: '/v1/openapi.json' })).json();
    operations = Object.values(document.paths as Record<string, Record<string, Operation>>).flatMap((item) =>
      Object.values(item),
    );
  });
  const byId = (id: string) => operations.find((operation) => operation.operationId === id) as Operation;
  /** An operation's body as stated: inline, or shared under components.requestBodies. */
  const bodyOf = (id: string) => {
    const body = byId(id).requestBody;
    if (!body?.$ref) return body;
    const name = body.$ref.replace('#/components/requestBodies/', '');
    return (document.components as { requestBodies: Record<string, { required?: boolean }> }).requestBodies[
      name
    ];
  };

  it('makes optional the bodies the server takes as {} when left out, and those calls succeed without one', async () => {
    for (const id of [
      'createPortalInvitation',
      'approveCheckInCorrection',
      'approveAbsence',
      'closeRegistryMonth',
      'cancelAbsence',
      'terminateEmployee',
    ]) {
      // Left out, which OpenAPI reads as false.
      expect(bodyOf(id), id).toBeDefined();
      expect(bodyOf(id)?.required, id).toBeUndefined();
    }
    // A body with a required field stays required.
    expect(bodyOf('createEmployee')?.required).toBe(true);
    // As described: an absence approved and a month closed with no body at all.
    const employee = (
      await company.live.post('/v1/employees', {
        first_name: 'Sin',
        last_name: 'Cuerpo',
        email: 'sin.cuerpo@example.com',
        hire_date: '2025-01-01',
      })
    ).json();
    const absence = (
      await company.live.post('/v1/absences', {
        employee_id: employee.id,
        type: 'vacation',
        start_date: '2026-02-02',
        end_date: '2026-02-03',
      })
    ).json();
    const approved = await company.live.request('POST', `/v1/absences/${absence.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    const closed = await company.live.request('POST', '/v1/registry/months/2025-06/close');
    expect(closed.statusCode, closed.body).toBe(200);
  });

  it('declares 413 on every operation with a body, 404 on the sandbox’s, and types every enumeration', () => {
    for (const operation of operations) {
      if (operation.requestBody) expect(operation.responses, operation.operationId).toHaveProperty('413');
    }
    expect(byId('emitSampleEvent').responses).toHaveProperty('404');
    expect(byId('listenSandboxEvents').responses).toHaveProperty('404');
    const untyped: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (node === null || typeof node !== 'object') return;
      const schema = node as { enum?: unknown; type?: unknown };
      if (Array.isArray(schema.enum) && schema.type === undefined) untyped.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(document, '#');
    expect(untyped).toEqual([]);
  });
});
