import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEB = path.join(ROOT, 'web');
const STAMP = path.join(WEB, 'dist', '.source-hash');
const LOCK = path.join(WEB, '.build-lock');

/** A hash of everything the dashboard's build reads: its sources, its config, and the locked dependencies. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [
    ...(await readdir(WEB, { recursive: true }))
      .filter((file) => !file.startsWith('dist') && !file.startsWith('.build-lock'))
      .map(String),
    'vite.config.ts',
    'tsconfig.json',
  ].sort();
  for (const file of files) {
    const full = path.join(WEB, file);
    const content = await readFile(full).catch(() => null); // a directory, or a file that is not there
    if (content) hash.update(file).update(content);
  }
  // The app imports the service's own view types and scope list.
  hash.update(await readFile(path.join(ROOT, 'package-lock.json')));
  hash.update(await readFile(path.join(ROOT, 'src/platform/scopes.ts')));
  hash.update(await readFile(path.join(ROOT, 'scripts/build-service-workers.ts')));
  return hash.digest('hex');
}

async function withLock<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      await mkdir(LOCK);
      break;
    } catch {
      if (attempt > 600) throw new Error(`the dashboard build lock ${LOCK} is held for over a minute`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await work();
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}

/**
 * The dashboard's assets as the service serves them, built from the current sources, for the tests that serve
 * the dashboard. Built once per change of its sources (a stamp in dist/ records what was built), under a lock,
 * since test files run in parallel processes. Vitest sets NODE_ENV=test, which would give React's development
 * build; `npm run build` gives the production one, and so does this.
 */
export async function ensureDashboardBuilt(): Promise<void> {
  const wanted = await sourceHash();
  const current = async () => (existsSync(STAMP) ? (await readFile(STAMP, 'utf8')).trim() : null);
  if ((await current()) === wanted) return;
  await withLock(async () => {
    if ((await current()) === wanted) return;
    const { build } = await import('vite');
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile: path.join(WEB, 'vite.config.ts'), logLevel: 'warn' });
      // The installable apps' service workers, as `npm run build` makes them.
      const { buildServiceWorkers } = await import('../../scripts/build-service-workers.ts');
      await buildServiceWorkers();
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    await writeFile(STAMP, `${wanted}\n`);
  });
}
