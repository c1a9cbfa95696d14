import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderOpenApi } from '../../scripts/write-openapi.ts';
import { withFormats } from '../../src/platform/validation.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

type Operation = {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
};

describe('OpenAPI description', () => {
  it('is served at /v1/openapi.json without authentication and matches the committed openapi-v1.json', async () => {
    const response = await ctx.as(null).get('/v1/openapi.json');
    expect(response.statusCode).toBe(200);
    const committed = JSON.parse(await readFile('openapi-v1.json', 'utf8'));
    expect(response.json()).toEqual(committed);
    const rendered = await renderOpenApi();
    expect(JSON.parse(rendered.public)).toEqual(committed);
    expect(JSON.parse(rendered.admin)).toEqual(JSON.parse(await readFile('admin-openapi-v1.json', 'utf8')));
  });

  it('describes every operation with an id, a summary, its scope, its errors and rate-limit headers', async () => {
    const document = JSON.parse(await readFile('openapi-v1.json', 'utf8'));
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Jornada public API', version: '1.0.0' });
    // Shared responses are described once under components.responses: read each operation with them resolved.
    const shared = (document.components?.responses ?? {}) as Record<string, Operation['responses'][string]>;
    const resolved = (operation: Operation): Operation => ({
      ...operation,
      responses: Object.fromEntries(
        Object.entries(operation.responses).map(([status, response]) => {
          const ref = (response as { $ref?: string }).$ref;
          return [status, ref ? (shared[ref.replace('#/components/responses/', '')] ?? {}) : response];
        }),
      ),
    });
    const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(
      ([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({ path, method, operation: resolved(operation) })),
    );
    expect(operations.length).toBeGreaterThan(5);
    const ids = new Set<string>();
    for (const { path, operation } of operations) {
      expect(operation.operationId).toBeTruthy();
      expect(ids.has(operation.operationId as string)).toBe(false);
      ids.add(operation.operationId as string);
      expect(operation.summary).toBeTruthy();
      if (path === '/v1/openapi.json') continue;
      if (path === '/v1/reports/{id}/download') {
        // Authenticated by its signed address alone: no security, no rate-limit headers, 403 and 404 problems.
        expect(operation.security).toEqual([]);
        for (const status of ['403', '404']) {
          expect(operation.responses[status]?.content).toHaveProperty(['application/problem+json']);
        }
        for (const response of Object.values(operation.responses)) {
          expect(response.headers?.['X-RateLimit-Limit']).toBeUndefined();
        }
        continue;
      }
      expect(operation.security).toHaveLength(1);
      for (const status of ['401', '403', '429', '500']) {
        expect(operation.responses[status]?.content).toHaveProperty(['application/problem+json']);
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const code = Number(status);
        if (code === 401 || code >= 500) expect(response.headers?.['X-RateLimit-Limit']).toBeUndefined();
        else expect(response.headers).toHaveProperty('X-RateLimit-Remaining');
      }
      expect(operation.responses['429']?.headers).toHaveProperty('Retry-After');
    }
  });

  it('names its schemas, stays small, and shows a valid example on every operation', async () => {
    const document = JSON.parse(await readFile('openapi-v1.json', 'utf8'));
    // The size budget (docs/decisions/0027-openapi-size-budget.md): at most 3,700 bytes of the file as written per
    // operation and webhook event described, and nothing of more than 300 bytes but a map of references stated twice in paths or webhooks.
    const described =
      Object.values(document.paths as Record<string, object>).reduce(
        (sum, item) => sum + Object.keys(item).length,
        0,
      ) + Object.keys(document.webhooks ?? {}).length;
    expect(Buffer.byteLength(await readFile('openapi-v1.json', 'utf8'))).toBeLessThanOrEqual(
      3_700 * described,
    );
    const seen = new Map<string, number>();
    const visit = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      const text = JSON.stringify(value);
      // A map of references (headers, responses) cannot be referred to as a whole in OpenAPI 3.1.
      const references = Object.values(value).every(
        (child) => typeof child === 'object' && child && '$ref' in child,
      );
      if (text.length > 300 && !references) seen.set(text, (seen.get(text) ?? 0) + 1);
      for (const child of Object.values(value)) visit(child);
    };
    visit(document.paths);
    visit(document.webhooks);
    const repeated = [...seen].filter(([, count]) => count > 1).map(([text]) => text.slice(0, 120));
    expect(repeated, 'stated twice instead of referred to').toEqual([]);
    const schemas = document.components.schemas as Record<string, { examples?: unknown[] }>;
    // An example is stated once: in components.examples when an operation shows it, else on its schema.
    const examples = document.components.examples as Record<string, { value: unknown }>;
    for (const name of ['Employee', 'CheckIn', 'Absence', 'Problem', 'WebhookEndpoint', 'Report']) {
      expect(schemas[name], name).toBeDefined();
    }
    const ajv = withFormats(new Ajv({ strict: false }));
    ajv.addSchema(document, 'openapi');
    for (const [name, schema] of Object.entries(schemas)) {
      const example = examples[name]?.value ?? schema.examples?.[0];
      expect(example, `${name} has an example`).toBeDefined();
      expect(examples[name] !== undefined && schema.examples !== undefined, `${name} stated twice`).toBe(
        false,
      );
      const validate = ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
      expect(validate(example), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    // An operation's example is a reference to components.examples, which holds each example once.
    type Media = Record<string, { example?: unknown; examples?: Record<string, { $ref?: string }> }>;
    const shown = (media: Media[string]) =>
      media.example !== undefined ||
      Object.values(media.examples ?? {}).some(
        (example) =>
          example.$ref !== undefined &&
          document.components.examples?.[example.$ref.replace('#/components/examples/', '')]?.value !==
            undefined,
      );
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(item)) {
        // A shared body ($ref to components.requestBodies) is checked as stated there.
        const stated = (operation as { requestBody?: { content?: Media; $ref?: string } }).requestBody;
        const body = stated?.$ref
          ? (document.components.requestBodies[stated.$ref.replace('#/components/requestBodies/', '')]
              ?.content as Media | undefined)
          : stated?.content;
        if (body) expect(Object.values(body).some(shown), `${method} ${path} request`).toBe(true);
        // A shared response ($ref to components.responses) is checked where it is stated.
        const resolve = (response: { $ref?: string; content?: unknown }) =>
          response.$ref
            ? document.components.responses[response.$ref.replace('#/components/responses/', '')]
            : response;
        const successes = Object.entries(operation.responses)
          .filter(([status]) => status.startsWith('2'))
          .map(([, response]) => resolve(response as { $ref?: string }).content as Media | undefined);
        const documented = successes.some((content) => !content || Object.values(content).some(shown));
        expect(documented, `${method} ${path} response`).toBe(true);
      }
    }
  });

  it("passes Spectral's spectral:oas ruleset with no errors", async () => {
    // Two warnings are kept on purpose (docs/decisions/0008-module-anatomy.md): scopes listed on an http bearer
    // scheme's requirement (OpenAPI 3.1 allows role names there; they are the key's required scope) and no
    // info.contact (a deployment's operator is the contact, not this open-source project). The operator API's
    // short routes have a summary and no longer description.
    const run = promisify(execFile);
    const kept: Record<string, string[]> = {
      'openapi-v1.json': ['oas3-operation-security-defined', 'info-contact'],
      'admin-openapi-v1.json': ['oas3-operation-security-defined', 'info-contact', 'operation-description'],
    };
    for (const file of Object.keys(kept)) {
      const { stdout } = await run(
        'node_modules/.bin/spectral',
        ['lint', file, '--ruleset', '.spectral.yaml', '--format', 'json', '--fail-severity', 'error'],
        { timeout: 60_000 },
      ).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`spectral lint ${file} failed:\n${error.stdout}\n${error.stderr}`);
      });
      const results = JSON.parse(stdout) as Array<{ code: string; severity: number }>;
      expect(results.filter((result) => result.severity === 0)).toEqual([]);
      const warnings = new Set(
        results.filter((result) => result.severity === 1).map((result) => result.code),
      );
      for (const code of warnings) expect(kept[file]).toContain(code);
    }
  }, 120_000);

  it('passes redocly lint with no errors', async () => {
    const run = promisify(execFile);
    for (const file of ['openapi-v1.json', 'admin-openapi-v1.json']) {
      const { stdout, stderr } = await run('node_modules/.bin/redocly', ['lint', file, '--format=summary'], {
        timeout: 60_000,
      }).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`redocly lint ${file} failed:\n${error.stdout}\n${error.stderr}`);
      });
      expect(`${stdout}${stderr}`).not.toMatch(/\berror\b.*[1-9]/i);
    }
  }, 120_000);
});
