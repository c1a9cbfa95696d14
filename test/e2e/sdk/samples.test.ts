import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeSamples } from '../../../src/surfaces/docs-site/code-samples.ts';
import { typeCheck } from '../../helpers/typecheck.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The reference's code samples (issue 41): every operation has a curl command and an SDK call, made from the
 * description, and every SDK call compiles against the SDK's types (strict): a sample cannot show a method,
 * an argument or a body field the SDK does not take.
 */
describe('the code samples of /docs', () => {
  it('cover every operation, and their SDK calls compile', async () => {
    const description = JSON.parse(await readFile(path.join(ROOT, 'openapi-v1.json'), 'utf8'));
    const samples = codeSamples(description);
    const operations = Object.values(
      description.paths as Record<string, Record<string, { operationId?: string }>>,
    )
      .flatMap((verbs) => Object.values(verbs))
      .flatMap((operation) => (operation.operationId ? [operation.operationId] : []));
    expect(Object.keys(samples).sort()).toEqual([...operations].sort());
    for (const id of operations) {
      expect(
        samples[id]?.map((sample) => sample.label),
        id,
      ).toEqual(['curl', 'SDK']);
      expect(samples[id]?.[0]?.source, id).toMatch(/^curl /);
    }
    const names = new Set<string>();
    for (const url of Object.keys(description.paths))
      for (const match of url.matchAll(/\{(\w+)\}/g)) if (match[1] !== 'month') names.add(match[1] as string);
    const source = [
      "import type { Jornada as Client, Report } from '@jornada/sdk';",
      'declare const jornada: Client;',
      'declare const report: Report;',
      ...[...names].map((name) => `declare const ${name}: string;`),
      ...operations.map(
        (id, index) => `export async function sample${index}() {\n${samples[id]?.[1]?.source ?? ''}\n}`,
      ),
    ].join('\n');
    expect(await typeCheck('docs-samples', source)).toBe('');
  }, 60_000);
});
