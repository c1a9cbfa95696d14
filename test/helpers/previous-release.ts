import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Unpacks the previous release under the project (so that it finds the project's node_modules). */
export async function previousRelease(): Promise<{ cli: string; commit: string }> {
  const packed = gunzipSync(await readFile(path.join(ROOT, 'test/fixtures/previous-release.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { commit?: string; path?: string; text?: string });
  const commit = packed[0]?.commit as string;
  const directory = path.join(ROOT, '.releases', commit);
  const cli = path.join(directory, 'src/cli.ts');
  if (!(await stat(cli).catch(() => null))) {
    for (const file of packed.slice(1)) {
      const target = path.join(directory, file.path as string);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.text as string);
    }
  }
  return { cli, commit };
}
