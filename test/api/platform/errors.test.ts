import { describe, expect, it } from 'vitest';
import { createTestContext, useCompanyContext } from '../../helpers/context.ts';

const env = useCompanyContext();

function expectProblem(
  response: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  code: string,
) {
  expect(response.statusCode).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/problem\+json/);
  const body = response.json() as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, type: `http://jornada.test/docs/errors/${code}` });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(typeof body.errors).toBe('object');
  return body as { errors: Record<string, unknown>; detail: string };
}

describe('problem+json errors', () => {
  it('answers an unknown /v1 route with 404 not_found', async () => {
    expectProblem(await env.company.live.get('/v1/nothing-here'), 404, 'not_found');
  });

  it('answers an unknown route outside /v1 with 404 not_found', async () => {
    expectProblem(await env.ctx.as(null).get('/nothing'), 404, 'not_found');
  });

  it('answers a wrong method on a known path with 405 and Allow', async () => {
    const response = await env.company.live.request('PUT', '/v1/organization', {});
    expectProblem(response, 405, 'not_found');
    expect(response.headers.allow).toBe('GET');
    const withId = await env.company.live.post(`/v1/locations/${env.company.id}`, {});
    expectProblem(withId, 405, 'not_found');
  });

  it('answers malformed JSON with 422 validation_failed on body', async () => {
    const key = await env.ctx.createKey(env.company.id, 'live', ['api_keys:manage']);
    const response = await env.ctx.as(key.secret).request('DELETE', `/v1/api-keys/${key.id}`, '{"broken":', {
      headers: { 'content-type': 'application/json' },
    });
    const body = expectProblem(response, 422, 'validation_failed');
    expect(body.errors.body).toEqual(['is not valid JSON']);
  });

  it('answers a body with the wrong Content-Type with 422', async () => {
    const response = await env.ctx.admin.request('POST', '/admin/v1/companies', 'name=x', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const body = expectProblem(response, 422, 'validation_failed');
    expect(body.errors.body).toEqual(['must be sent with Content-Type: application/json']);
  });

  it('rejects unknown body fields with per-field errors', async () => {
    const response = await env.ctx.admin.post('/admin/v1/companies', { name: 'X', colour: 'red' });
    const body = expectProblem(response, 422, 'validation_failed');
    expect(body.errors).toEqual({ colour: ['is not an allowed field'] });
  });

  it('names nested and missing fields by path', async () => {
    const response = await env.ctx.admin.post(`/admin/v1/companies/${env.company.id}/api-keys`, {
      scopes: ['nope'],
    });
    const body = expectProblem(response, 422, 'validation_failed');
    expect(body.errors.mode).toEqual(['is required']);
    expect(Object.keys(body.errors)).toContain('scopes.0');
  });

  it('validates query parameters under query.*', async () => {
    for (const limit of ['0', '101', 'ten']) {
      const body = expectProblem(
        await env.company.live.get(`/v1/locations?limit=${limit}`),
        422,
        'validation_failed',
      );
      expect(Object.keys(body.errors)).toEqual(['query.limit']);
    }
    const unknown = expectProblem(
      await env.company.live.get('/v1/locations?colour=red'),
      422,
      'validation_failed',
    );
    expect(unknown.errors).toEqual({ 'query.colour': ['is not an allowed field'] });
    const badInstant = expectProblem(
      await env.company.live.get('/v1/locations?updated_since=yesterday'),
      422,
      'validation_failed',
    );
    expect(Object.keys(badInstant.errors)).toEqual(['query.updated_since']);
  });

  it('validates path parameters under path.*', async () => {
    const body = expectProblem(
      await env.company.live.get('/v1/locations/not-a-uuid'),
      422,
      'validation_failed',
    );
    expect(Object.keys(body.errors)).toEqual(['path.id']);
  });

  it('hides internals of a 500 and keeps the request id', async () => {
    // A real failure inside a route: the database is gone for this request's company lookup.
    const broken = await createTestContext();
    const other = await broken.createCompany();
    await broken.db.destroy();
    const response = await other.live.get('/v1/organization', {
      headers: { 'x-request-id': 'req-500-check' },
    });
    const body = expectProblem(response, 500, 'internal_error');
    expect(body.detail).not.toMatch(/pool|sql|select|stack/i);
    expect(response.headers['x-request-id']).toBe('req-500-check');
    await broken.app.close();
    await broken.database.drop().catch(() => {});
  });
});

describe('operations', () => {
  it('serves /healthz and /readyz without authentication', async () => {
    expect((await env.ctx.as(null).get('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await env.ctx.as(null).get('/readyz')).json()).toEqual({ status: 'ready' });
  });

  it('echoes a valid X-Request-Id and generates one otherwise', async () => {
    const echoed = await env.ctx.as(null).get('/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const generated = await env.ctx
      .as(null)
      .get('/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('documents every error code at the problem type address', async () => {
    const response = await env.ctx.as(null).get('/docs/errors/rate_limited');
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('429');
  });
});

describe('validation messages', () => {
  it('say what is wrong in plain words, and the detail names every invalid field', async () => {
    const response = await env.company.live.post('/v1/employees', {
      first_name: '',
      last_name: 'x'.repeat(201),
      email: 'not an email',
      hire_date: '2026-01-01',
      vacation_days_per_year: -1,
    });
    const body = expectProblem(response, 422, 'validation_failed');
    expect(body.errors).toMatchObject({
      first_name: expect.arrayContaining(['must not be empty']),
      last_name: [expect.stringMatching(/^must have at most \d+ characters$/)],
      email: ['must be a valid email'],
      vacation_days_per_year: ['must be at least 0'],
    });
    expect(body.detail).toMatch(/^4 fields are invalid: /);
    for (const field of ['first_name', 'last_name', 'email', 'vacation_days_per_year']) {
      expect(body.detail).toContain(field);
    }
    expect(JSON.stringify(body)).not.toMatch(/must NOT|must match format/);
  });
});
