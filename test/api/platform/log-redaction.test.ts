import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { redactUrl } from '../../../src/platform/log-redaction.ts';
import { createTestContext, type TestContext } from '../../helpers/context.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('secrets in URLs never reach the log', () => {
  it('redacts every query value but a few harmless ones', () => {
    expect(redactUrl('/v1/reports/abc/download?expires=1790000000&signature=n0nce.MAC')).toBe(
      '/v1/reports/abc/download?expires=[redacted]&signature=[redacted]',
    );
    expect(redactUrl('/v1/employees?limit=25&status=active&cursor=eyJ4IjoxfQ.sig&api_key=jrn_live_x')).toBe(
      '/v1/employees?limit=25&status=active&cursor=[redacted]&api_key=[redacted]',
    );
    expect(redactUrl('/v1/organization')).toBe('/v1/organization');
    // An access link's token is in the path (issue 35).
    expect(redactUrl('/registry-access/tok3nSECRET/api/workers/x/2026-10.pdf')).toBe(
      '/registry-access/[redacted]/api/workers/x/2026-10.pdf',
    );
    expect(redactUrl('/registry-access/tok3nSECRET?x=1')).toBe('/registry-access/[redacted]?x=[redacted]');
  });

  it('logs requests with signed download addresses and keys in the query string redacted', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = await buildApp(ctx.deps, { logger: { level: 'info', stream } });
    try {
      const secrets = [
        'n0nceSECRET.MACSECRET',
        'jrn_live_SECRETSECRETSECRETSECRETSECRETSECRET12',
        'tokenSECRET',
      ];
      await app.inject({
        url: `/v1/reports/0191a8e0-0000-7000-8000-000000000000/download?expires=1&signature=${secrets[0]}`,
      });
      await app.inject({ url: `/v1/organization?api_key=${secrets[1]}&access_token=${secrets[2]}` });
      await app.inject({ url: `/registry-access/${secrets[2]}/api/summary` });
      const log = lines.join('');
      expect(log).toContain('/v1/reports/0191a8e0-0000-7000-8000-000000000000/download?expires=[redacted]');
      for (const secret of secrets) expect(log).not.toContain(secret);
      // One line per request, when it is answered (issue 19): Fastify's own pair is switched off.
      const requestLines = lines
        .map(
          (line) => JSON.parse(line) as { msg: string; req?: { url: string }; res?: { statusCode: number } },
        )
        .filter((line) => line.req !== undefined);
      expect(requestLines.map((line) => line.msg)).toEqual([
        'request completed',
        'request completed',
        'request completed',
      ]);
      expect(requestLines.map((line) => line.res?.statusCode).slice(0, 2)).toEqual([404, 401]);
      expect(requestLines[2]?.req?.url).toBe('/registry-access/[redacted]/api/summary');
    } finally {
      await app.close();
    }
  });
});
