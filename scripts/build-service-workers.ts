/**
 * The service workers of the installable apps (issue 40, decision 0031), made after `vite build` with Workbox's
 * generateSW: one for the portal (/portal/sw.js) and one for the kiosk (/kiosk/sw.js), each precaching its own
 * page and the assets that page loads (read from Vite's manifest), so each app opens without a connection. The API
 * is never cached: a punch made offline is kept by the app itself (web/shared/offline.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSW } from 'workbox-build';

const DIST = fileURLToPath(new URL('../web/dist', import.meta.url));
type Chunk = { file: string; css?: string[]; imports?: string[]; assets?: string[] };

/** The files an entry loads: its chunk, the chunks it imports, their styles and assets (paths under web/dist). */
function filesOf(manifest: Record<string, Chunk>, key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return new Set();
  seen.add(key);
  const files = new Set([chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]);
  for (const imported of chunk.imports ?? [])
    for (const file of filesOf(manifest, imported, seen)) files.add(file);
  return files;
}

/** Writes web/dist/portal/sw.js and web/dist/kiosk/sw.js from the build in web/dist. */
export async function buildServiceWorkers(): Promise<string[]> {
  const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    Chunk
  >;
  const lines: string[] = [];
  for (const app of ['portal', 'kiosk'] as const) {
    const page = readFileSync(path.join(DIST, app, 'index.html'));
    const { count, size, warnings } = await generateSW({
      swDest: path.join(DIST, app, 'sw.js'),
      globDirectory: DIST,
      globPatterns: [...filesOf(manifest, `${app}/index.html`)],
      // The assets are served under /dashboard/assets/ (src/surfaces/pages.ts); their names carry their hash.
      modifyURLPrefix: { 'assets/': '/dashboard/assets/' },
      dontCacheBustURLsMatching: /\/dashboard\/assets\//,
      additionalManifestEntries: [
        { url: `/${app}`, revision: createHash('sha256').update(page).digest('hex') },
      ],
      // A visit to the app's address opens the kept page; the invitation link (with its token) always goes out.
      navigateFallback: `/${app}`,
      navigateFallbackAllowlist: [new RegExp(`^/${app}$`)],
      cacheId: `jornada-${app}`,
      cleanupOutdatedCaches: true,
      clientsClaim: true,
      skipWaiting: true,
      inlineWorkboxRuntime: true,
      sourcemap: false,
      mode: 'production',
    });
    lines.push(...warnings);
    lines.push(`web/dist/${app}/sw.js: ${count} files, ${Math.round(size / 1024)} KiB kept for offline use`);
  }
  return lines;
}

if (import.meta.main) console.log((await buildServiceWorkers()).join('\n'));
