import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { createEmptyDatabase } from '../helpers/database.ts';
import { E2E_ADMIN_TOKEN, spawnCli } from '../helpers/service.ts';

/**
 * A service manager may signal a service that is still starting. `serve` installs its handlers before it starts:
 * a SIGTERM that comes while it starts (here: right after its migrations, on an empty database) is drained once
 * the service is up, instead of killing the process mid-start by Node's default action.
 */
it('drains a SIGTERM that arrives while the service is still starting', async () => {
  const database = await createEmptyDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-e2e-start-signal-'));
  onTestFinished(async () => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const { child, output, exited } = spawnCli(['serve', '--role=all'], {
    DATABASE_URL: database.url,
    PORT: '0',
    JORNADA_DATA_DIR: dataDir,
    JORNADA_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    JORNADA_DEMO: '0',
    LOG_LEVEL: 'info',
  });
  // The first line logged inside the start, before "jornada started".
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (!output().includes('migrations applied')) return;
      child.stdout?.off('data', onData);
      child.kill('SIGTERM');
      resolve();
    };
    child.stdout?.on('data', onData);
    child.on('exit', () => reject(new Error(`exited before its migrations:\n${output()}`)));
  });
  const code = await exited;
  expect(code, output()).toBe(0);
  expect(output()).toContain('SIGTERM received: draining');
  expect(output()).toContain('jornada started');
  expect(output()).toContain('jornada stopped');
}, 60_000);
