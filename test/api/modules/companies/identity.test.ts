import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestCompany, type TestContext } from '../../../helpers/context.ts';
import { eventsDuring, hire } from '../../../helpers/resources.ts';

/**
 * Company and worker identity (issue 16, docs/registry.md): legal name and tax id (CIF/NIF), each work centre's
 * address and CCC, each worker's DNI/NIE and NAF; checked, normalized, never in a webhook.
 */
let ctx: TestContext;
let company: TestCompany;

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
});
afterAll(() => ctx.close());
beforeEach(() => ctx.clock.advance(60));

describe('the company’s legal identity', () => {
  it('takes a legal name and a checked tax id, at creation and by PATCH, on the live company only', async () => {
    const created = await ctx.admin.post('/admin/v1/companies', {
      name: 'Panadería',
      legal_name: 'Panadería Sol, S.L.',
      tax_id: 'b-1234567-4',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ legal_name: 'Panadería Sol, S.L.', tax_id: 'B12345674' });
    for (const tax_id of ['B12345675', '12345678A', 'X1234567A', 'hello']) {
      const refused = await ctx.admin.patch(`/admin/v1/companies/${created.json().id}`, { tax_id });
      expect(refused.statusCode, tax_id).toBe(422);
      expect(refused.json().errors.tax_id).toBeDefined();
    }
    // A self-employed employer's NIF is a tax id too; null clears it.
    const person = await ctx.admin.patch(`/admin/v1/companies/${created.json().id}`, { tax_id: '12345678z' });
    expect(person.json().tax_id).toBe('12345678Z');
    const cleared = await ctx.admin.patch(`/admin/v1/companies/${created.json().id}`, { tax_id: null });
    expect(cleared.json().tax_id).toBeNull();
    const sandbox = await ctx.admin.patch(`/admin/v1/companies/${created.json().sandbox_company_id}`, {
      legal_name: 'Other',
    });
    expect(sandbox.statusCode).toBe(422);
  });
});

describe('work centres', () => {
  it('take an address and a checked contribution account code (CCC)', async () => {
    const created = await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, {
      name: 'Obrador',
      address: 'Carrer de la Pau 12, València',
      ccc: '46 1234567 52',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ address: 'Carrer de la Pau 12, València', ccc: '46123456752' });
    const bad = await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, {
      name: 'Bad',
      ccc: '46123456753',
    });
    expect(bad.statusCode).toBe(422);
    // Eleven digits with wrong control digits, and ten digits, are told apart (issue 39).
    expect(bad.json().errors).toEqual({
      ccc: ['has wrong control digits (the last two do not match the others)'],
    });
    const short = await ctx.admin.post(`/admin/v1/companies/${company.id}/locations`, {
      name: 'Short',
      ccc: '4612345675',
    });
    expect(short.json().errors).toEqual({ ccc: ['must have 11 digits'] });
    const patched = await ctx.admin.patch(
      `/admin/v1/companies/${company.id}/locations/${created.json().id}`,
      {
        address: 'Calle Mayor 1, Madrid',
      },
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await company.live.get(`/v1/locations/${created.json().id}`)).json()).toMatchObject({
      address: 'Calle Mayor 1, Madrid',
      ccc: '46123456752',
    });
    const other = await ctx.createCompany();
    const foreign = await ctx.admin.patch(`/admin/v1/companies/${other.id}/locations/${created.json().id}`, {
      address: 'x',
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await ctx.admin.patch(`/admin/v1/companies/${company.id}/locations/${created.json().id}`, {}))
        .statusCode,
    ).toBe(422);
  });
});

describe('a worker’s national id and Social Security number', () => {
  it('are checked, normalized, readable with the employee, and never in an event', async () => {
    let employee: Record<string, unknown> = {};
    const events = await eventsDuring(ctx.db, company.id, async () => {
      employee = await hire(company.live, {
        national_id: 'x-1234567-l',
        social_security_number: '28/12345678/40',
      });
    });
    expect(employee).toMatchObject({ national_id: 'X1234567L', social_security_number: '281234567840' });
    expect(JSON.stringify(events)).not.toContain('X1234567L');
    expect(events).toEqual([{ type: 'employee.created', data: { employee_id: employee.id } }]);
    for (const body of [
      { national_id: '12345678A' },
      { national_id: 'B12345674' },
      { social_security_number: '281234567841' },
      { social_security_number: '2812345678' },
    ]) {
      const response = await company.live.patch(`/v1/employees/${employee.id}`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(Object.keys(body));
    }
    const messages = async (body: Record<string, string>) =>
      (await company.live.patch(`/v1/employees/${employee.id}`, body)).json().errors;
    expect(await messages({ social_security_number: '281234567841' })).toEqual({
      social_security_number: ['has wrong control digits (the last two do not match the others)'],
    });
    expect(await messages({ social_security_number: '2812345678' })).toEqual({
      social_security_number: ['must have 12 digits'],
    });
    const cleared = await company.live.patch(`/v1/employees/${employee.id}`, {
      social_security_number: null,
    });
    expect(cleared.json()).toMatchObject({ national_id: 'X1234567L', social_security_number: null });
    // Reading employees needs org:empleados:read: a check-ins key does not see them.
    const reader = await ctx.createKey(company.id, 'live', ['org:fichajes:read']);
    const refused = await ctx.app.inject({
      method: 'GET',
      url: `/v1/employees/${employee.id}`,
      headers: { authorization: `Bearer ${reader.secret}` },
    });
    expect(refused.statusCode).toBe(403);
  });
});
