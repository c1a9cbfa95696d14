import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../src/platform/errors.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';

/**
 * The developers' site the service serves (issue 18): the reference page and its local assets, the
 * getting-started guide, a page per error code (HTML, or JSON on request), the changelog, and the landing page.
 */
let ctx: TestContext;
let company: TestCompany;
beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany();
});
afterAll(() => ctx.close());

const get = (url: string, accept?: string) => ctx.as(null).get(url, accept ? { headers: { accept } } : {});

describe('the site', () => {
  it('serves the reference page with Redoc from this service only, under a content security policy', async () => {
    const page = await get('/docs');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<script src="/docs/assets/redoc.standalone.js"></script>');
    expect(page.body).not.toMatch(/src="https?:|href="https?:/);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).not.toMatch(/https?:|'unsafe-eval'/);
    const bundle = await get('/docs/assets/redoc.standalone.js');
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toMatch(/^text\/javascript/);
    expect(bundle.body.length).toBeGreaterThan(500_000);
    expect((await get('/docs/assets/reference.js')).body).toContain("'/v1/openapi.json'");
    expect((await get('/docs/assets/../package.json')).statusCode).toBe(404);
    expect((await get('/docs/assets/constructor')).statusCode).toBe(404);
  });

  it('links the reference, the guide, the errors and the dashboard from the landing page', async () => {
    const landing = await get('/');
    expect(landing.statusCode).toBe(200);
    for (const href of ['/dashboard', '/portal', '/docs', '/docs/getting-started']) {
      expect(landing.body).toContain(`href="${href}"`);
    }
  });

  it('renders the getting-started guide: keys, sandbox, pagination, idempotency, errors, limits, webhooks', async () => {
    const guide = await get('/docs/getting-started');
    expect(guide.statusCode).toBe(200);
    for (const heading of [
      'Get a key',
      'Work in the sandbox first',
      'Page through listings',
      'Retry safely with an idempotency key',
      'Read errors',
      'Stay within the limits',
      'Receive webhooks, and verify them',
    ]) {
      expect(guide.body).toMatch(new RegExp(`<h2[^>]*>\\d\\. ${heading}</h2>`));
    }
    expect(guide.body).toContain('webhook.verify(rawBody, headers)');
  });

  it('gives pagination, idempotency, limits and webhooks a page each, linked from the reference (issue 41)', async () => {
    const index = await get('/docs/guides');
    expect(index.statusCode).toBe(200);
    const reference = (await get('/docs')).body;
    for (const [topic, title, says] of [
      ['pagination', 'Pagination and sync', 'next_cursor'],
      ['idempotency', 'Idempotency', 'Idempotent-Replayed: true'],
      ['limits', 'Rate limits and quotas', 'errors.resets_at'],
      ['webhooks', 'Webhooks: signing, retries, replay and listen', 'jornada listen'],
    ] as const) {
      expect(index.body).toContain(`href="/docs/guides/${topic}"`);
      expect(reference).toContain(`href="/docs/guides/${topic}"`);
      const page = await get(`/docs/guides/${topic}`);
      expect(page.statusCode, topic).toBe(200);
      expect(page.body).toContain(`<h1>${title}</h1>`);
      expect(page.body, topic).toContain(says);
      // One section of the guide: not the others.
      expect(page.body).not.toContain('Read errors');
    }
    expect((await get('/docs/guides/replay')).statusCode).toBe(404);
    expect((await get('/docs/guides/constructor')).statusCode).toBe(404);
    // The samples of every operation, as reference.js merges them.
    const samples = await get('/docs/assets/code-samples.json');
    expect(samples.statusCode).toBe(200);
    expect(samples.json().createEmployee.map((sample: { label: string }) => sample.label)).toEqual([
      'curl',
      'SDK',
    ]);
  });

  it('serves the changelog with the deprecation of updated_since and its sunset date', async () => {
    const changelog = await get('/docs/changelog');
    expect(changelog.statusCode).toBe(200);
    expect(changelog.body).toContain('<h1>Changelog</h1>');
    expect(changelog.body).toContain('2027-08-27');
    expect(changelog.body).toContain('Sunset: Fri, 27 Aug 2027 00:00:00 GMT');
  });
});

describe('the error pages', () => {
  it('answer every code: HTML with when, what to do and an example; JSON on request', async () => {
    const index = await get('/docs/errors');
    for (const code of ERROR_CODES) {
      expect(index.body).toContain(`href="/docs/errors/${code}"`);
      const html = await get(`/docs/errors/${code}`, 'text/html,application/xhtml+xml');
      expect(html.statusCode, code).toBe(200);
      expect(html.headers['content-type']).toMatch(/^text\/html/);
      expect(html.body).toContain('When it happens');
      expect(html.body).toContain('What to do');
      const json = await get(`/docs/errors/${code}`, 'application/json');
      expect(json.statusCode).toBe(200);
      const entry = json.json();
      expect(entry).toMatchObject({ code, when: expect.any(Array), action: expect.any(Array) });
      // The example is a problem body of that code, as the error handler writes it.
      expect(entry.example).toMatchObject({
        type: `http://jornada.test/docs/errors/${code}`,
        status: entry.status,
        code,
        title: entry.title,
      });
      expect(html.body).toContain(`&#34;code&#34;: &#34;${code}&#34;`);
    }
    const unknown = await get('/docs/errors/nope', 'application/json');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'not_found' });
  });

  it('is where a real problem’s type points', async () => {
    const refused = await company.live.post('/v1/employees', { first_name: 'Ana' });
    expect(refused.statusCode).toBe(422);
    const type = new URL(refused.json().type);
    const page = await get(type.pathname, 'application/json');
    expect(page.statusCode).toBe(200);
    expect(page.json().code).toBe(refused.json().code);
  });
});
