import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/context.ts';

/**
 * Issue 41: the description and the developers' site are served compressed (brotli or gzip, whichever the client
 * accepts best), with an ETag that makes a revalidation a 304 and a cache lifetime; a client that accepts no
 * encoding gets the same bytes plain.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

async function fetchRaw(url: string, headers: Record<string, string> = {}) {
  const response = await ctx.app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, headers: response.headers, bytes: response.rawPayload };
}

describe('compressed, cacheable descriptions and pages (issue 41)', () => {
  it('serves /v1/openapi.json in brotli or gzip, the same bytes as plain, with an ETag and five minutes of cache', async () => {
    const plain = await fetchRaw('/v1/openapi.json');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    expect(plain.headers['cache-control']).toBe('public, max-age=300');
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const document = JSON.parse(plain.bytes.toString('utf8'));
    expect(document.openapi).toBe('3.1.0');

    const br = await fetchRaw('/v1/openapi.json', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.bytes).equals(plain.bytes)).toBe(true);
    // The description compresses to well under a fifth.
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 5);

    const gz = await fetchRaw('/v1/openapi.json', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.bytes).equals(plain.bytes)).toBe(true);
    const refused = await fetchRaw('/v1/openapi.json', { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();

    const etag = plain.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(br.headers.etag).toBe(etag);
    const again = await fetchRaw('/v1/openapi.json', { 'if-none-match': etag, 'accept-encoding': 'br' });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect((await fetchRaw('/v1/openapi.json', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('serves the reference page and Redoc’s bundle compressed, the bundle cached for an hour', async () => {
    const bundle = await fetchRaw('/docs/assets/redoc.standalone.js', { 'accept-encoding': 'br' });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-encoding']).toBe('br');
    expect(bundle.headers['cache-control']).toBe('public, max-age=3600');
    const size = brotliDecompressSync(bundle.bytes).length;
    expect(size).toBeGreaterThan(500_000);
    expect(bundle.bytes.length).toBeLessThan(size / 3);
    const page = await fetchRaw('/docs', { 'accept-encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.bytes).toString('utf8')).toContain('/docs/assets/redoc.standalone.js');
    // A page is revalidated at each visit (no-cache), which its ETag makes a 304.
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const revalidated = await fetchRaw('/docs', { 'if-none-match': page.headers.etag as string });
    expect(revalidated.status).toBe(304);
    const guide = await fetchRaw('/docs/getting-started', { 'accept-encoding': 'br' });
    expect(brotliDecompressSync(guide.bytes).toString('utf8')).toContain('registry_month.closed');
  });
});
