// The two ends of `npm run build` (run by `prepare` too, so that `npm pack`, a git install and a path install all
// get a built package): `clean` empties dist/ before the two compilations (ES modules into dist/esm, CommonJS
// into dist/cjs, each with declarations); `mark` then says which module system each half is, whatever the
// package's own "type".
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const dist = new URL('dist/', import.meta.url);
if (process.argv[2] === 'clean') rmSync(dist, { recursive: true, force: true });
if (process.argv[2] === 'mark') {
  for (const [half, type] of [
    ['esm', 'module'],
    ['cjs', 'commonjs'],
  ]) {
    mkdirSync(new URL(`${half}/`, dist), { recursive: true });
    writeFileSync(new URL(`${half}/package.json`, dist), `{ "type": "${type}" }\n`);
  }
}
