import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureDashboardBuilt } from './dashboard-build.ts';
import { createTestDatabase } from './database.ts';
import { freePort, httpClient, startServiceNode, stopServiceNode } from './service.ts';

/**
 * What a browser test drives: the built pages and a real `jornada serve` process (API and workers) on a fresh
 * database and data directory, on the real clock. `stop()` removes them all.
 */
export async function startServedApp(
  name: string,
  env: Record<string, string> = {},
  options: { host?: '127.0.0.1' | 'localhost' } = {},
) {
  await ensureDashboardBuilt();
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `jornada-e2e-${name}-`));
  const port = await freePort();
  // WebAuthn wants a domain as its relying party: the passkey tests serve at localhost (Chromium refuses an IP).
  const base = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const node = await startServiceNode(database.url, 'all', {
    port,
    env: { JORNADA_DATA_DIR: dataDir, JORNADA_PUBLIC_URL: base, JORNADA_FAKE_CLOCK: '0', ...env },
  });
  return {
    base,
    http: httpClient(base),
    /** The service's database, for a test that plays an operator with SQL. */
    db: database.db,
    async stop() {
      await stopServiceNode(node);
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
