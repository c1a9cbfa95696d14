import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderReadme, renderSdk, SDK_GENERATED } from '../../../scripts/write-sdk.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The SDK's types and methods are what openapi-v1.json gives: `npm run openapi` rewrites them with it. */
describe('the SDK generated from openapi-v1.json', () => {
  it('is up to date', async () => {
    const openapi = await readFile(path.join(ROOT, 'openapi-v1.json'), 'utf8');
    const rendered = await renderSdk(openapi);
    expect(await readFile(SDK_GENERATED.schema, 'utf8')).toBe(rendered.schema);
    expect(await readFile(SDK_GENERATED.operations, 'utf8')).toBe(rendered.operations);
    expect(await readFile(SDK_GENERATED.types, 'utf8')).toBe(rendered.types);
    // The README's reference: every method with its call (test/e2e/sdk/samples.test.ts compiles the calls).
    const readme = await readFile(SDK_GENERATED.readme, 'utf8');
    expect(readme).toBe(renderReadme(JSON.parse(openapi), readme));
  });

  it('says its own version in its User-Agent', async () => {
    const { SDK_VERSION } = await import('@jornada/sdk');
    const manifest = JSON.parse(await readFile(path.join(ROOT, 'sdk/package.json'), 'utf8'));
    expect(SDK_VERSION).toBe(manifest.version);
  });

  it('has one method per operation of the description, named by its operationId', async () => {
    const { Jornada } = await import('@jornada/sdk');
    const description = JSON.parse(await readFile(path.join(ROOT, 'openapi-v1.json'), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operationIds = Object.values(description.paths).flatMap((verbs) =>
      Object.values(verbs).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
    );
    expect(operationIds.length).toBeGreaterThan(50);
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(Jornada.prototype)).filter(
      (name) => name !== 'constructor',
    );
    expect(methods.sort()).toEqual([...operationIds].sort());
  });
});
