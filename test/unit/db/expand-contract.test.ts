import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

/**
 * Expand/contract (issue 37, docs/operations.md "Upgrade"): from release 0.37 on, every migration is marked
 * `-- jornada: expand-only` (it only adds: the previous release's nodes keep serving on it during a rolling
 * upgrade, and their schema guard lets them), unless it is named here as a contraction that removes what an
 * earlier release stopped using, and the CHANGELOG says which releases may not be skipped for it.
 */
const FIRST_MARKED = '0047';
const CONTRACTIONS: string[] = [];

describe('migrations after the schema guard', () => {
  it('are marked expand-only, or are a contraction the CHANGELOG announces', async () => {
    const directory = new URL('../../../src/db/migrations/', import.meta.url);
    const changelog = await readFile(new URL('../../../CHANGELOG.md', import.meta.url), 'utf8');
    for (const file of (await readdir(directory)).filter((name) => name.endsWith('.sql')).sort()) {
      if (file < FIRST_MARKED) continue;
      const version = file.replace(/\.sql$/, '');
      if (CONTRACTIONS.includes(version)) {
        expect(changelog, `${version} is a contraction the CHANGELOG must announce`).toContain(version);
        continue;
      }
      const text = await readFile(new URL(file, directory), 'utf8');
      expect(text, `${file} must be marked expand-only or listed as a contraction`).toMatch(
        /^-- jornada: expand-only$/m,
      );
    }
  });
});
