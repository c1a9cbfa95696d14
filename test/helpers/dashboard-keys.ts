import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SCOPE_DESCRIPTIONS } from '../../src/platform/scopes.ts';

/**
 * The translation keys the dashboard's source uses: the English text of every `t('…')` and `msg('…')` call
 * (docs/dashboard.md, "Languages"). The portal and the access page have their own catalogues.
 */
const ROOT = new URL('../../web/', import.meta.url).pathname;
const SKIP = ['portal/', 'access/', 'shared/locales/', 'dist/', '.build-lock/'];
const CALL = /\b(?:t|msg)\(\s*(['"])((?:\\.|(?!\1)[^\\])*)\1/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return SKIP.some((skip) => `${relative(ROOT, path)}/` === skip) ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

export function dashboardKeys(): Map<string, string> {
  const keys = new Map<string, string>();
  for (const file of sources(ROOT)) {
    for (const match of readFileSync(file, 'utf8').matchAll(CALL)) {
      const key = (match[2] ?? '').replace(/\\(.)/g, '$1');
      if (!keys.has(key)) keys.set(key, relative(ROOT, file));
    }
  }
  // Texts the dashboard takes from the service's own tables and translates as they come.
  for (const text of Object.values(SCOPE_DESCRIPTIONS)) keys.set(text, 'src/platform/scopes.ts');
  return keys;
}

/** The variables a text interpolates: `{{count}}`, `{{count, number}}` → count. */
export const variables = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)[^}]*\}\}/g)].map((match) => match[1]).sort();
