import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
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
    // Inside the repository, so that '@jornada/sdk' resolves as it does for a user (its built types).
    const dir = path.join(ROOT, 'node_modules/.cache/sdk-readme');
    await mkdir(dir, { recursive: true });
    try {
      await writeFile(path.join(dir, 'readme.ts'), source);
      await writeFile(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'es2022',
            module: 'nodenext',
            moduleResolution: 'nodenext',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
            typeRoots: [path.join(ROOT, 'node_modules/@types')],
          },
          files: ['readme.ts'],
        }),
      );
      const result = await run(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir]).catch(
        (error: { stdout: string }) => ({ stdout: error.stdout }),
      );
      expect(result.stdout).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
