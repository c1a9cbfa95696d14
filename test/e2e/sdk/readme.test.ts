import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeCheck } from '../../helpers/typecheck.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The SDK README's TypeScript examples compile against the SDK's types (strict), so the documentation cannot
 * drift from the generated methods. Each block is wrapped in a function; names a block assumes are declared.
 */
describe('the SDK README', () => {
  it('has examples that compile', async () => {
    const readme = await readFile(path.join(ROOT, 'sdk/README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] as string);
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const imports = new Set<string>();
    const bodies = blocks.map((block, index) => {
      const code = block.replace(/^import .*\n/gm, (line) => {
        imports.add(line.trim());
        return '';
      });
      return `export async function example${index}() {\n${code}}\n`;
    });
    const source = [
      ...imports,
      "import type { Jornada as Client } from '@jornada/sdk';",
      'declare const jornada: Client;',
      'declare const apiKey: string;',
      'declare const baseUrl: string;',
      'declare const eventNumber: number;',
      "declare const body: Parameters<Client['createCheckIn']>[0];",
      'declare function save(items: unknown[]): void;',
      ...bodies,
    ].join('\n');
    expect(await typeCheck('sdk-readme', source)).toBe('');
  }, 60_000);
});
