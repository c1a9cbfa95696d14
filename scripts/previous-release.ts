/**
 * `node scripts/previous-release.ts COMMIT`: packs the source of a previous release (src/ and package.json at
 * COMMIT) into test/fixtures/previous-release.jsonl.gz, for the two-release upgrade test
 * (test/e2e/upgrade.test.ts), which runs it beside this release on one database. Run it at each release with the
 * release just shipped, so that the test always checks the upgrade an operator will make next.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

const commit = process.argv[2];
if (!commit) {
  process.stderr.write('usage: node scripts/previous-release.ts COMMIT\n');
  process.exit(2);
}
const full = execFileSync('git', ['rev-parse', commit], { encoding: 'utf8' }).trim();
const date = execFileSync('git', ['show', '-s', '--format=%cI', full], { encoding: 'utf8' }).trim();
const files = execFileSync('git', ['ls-tree', '-r', '--name-only', full, 'src', 'package.json'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);
const lines = [JSON.stringify({ commit: full, date, files: files.length })];
for (const file of files) {
  lines.push(
    JSON.stringify({
      path: file,
      text: execFileSync('git', ['show', `${full}:${file}`], {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      }),
    }),
  );
}
await writeFile('test/fixtures/previous-release.jsonl.gz', gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
process.stdout.write(`packed ${files.length} files of ${full} (${date})\n`);
