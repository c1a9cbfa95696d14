import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * What `tsc` says of a TypeScript source written as a client of the SDK writes it (strict, Node's types, the
 * SDK's built declarations): '' when it compiles. It is checked inside the repository, so that '@jornada/sdk'
 * resolves as it does for a user.
 */
export async function typeCheck(name: string, source: string): Promise<string> {
  const dir = path.join(ROOT, 'node_modules/.cache', name);
  await mkdir(dir, { recursive: true });
  try {
    await writeFile(path.join(dir, 'source.ts'), source);
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
        files: ['source.ts'],
      }),
    );
    const result = await run(path.join(ROOT, 'node_modules/.bin/tsc'), ['-p', dir]).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout }),
    );
    return result.stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
