import { readdir, readFile } from 'node:fs/promises';
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import {
  companyWithLiveKey,
  freePort,
  httpClient,
  type ServiceNode,
  stopServiceNode,
  useServiceWorld,
} from '../helpers/service.ts';

/**
 * Decision 0017: a report is written by a child process of the service. A service told to stop while that child
 * is still writing must stop within its drain deadline (the child does not hold it), and the child must not
 * outlive it. The report keeps its lease, to be claimed again. The child is held mid-report by a lock on the
 * table it reads.
 */
const world = useServiceWorld('report-stop');
let node: ServiceNode;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  const port = await freePort();
  node = await world.start('all', { port, env: { JORNADA_DRAIN_TIMEOUT_MS: '1500' } });
  http = httpClient(`http://127.0.0.1:${port}`);
}, 60_000);

/** The ids of the running processes whose parent is `parent` and whose command line names `script` (Linux). */
async function childrenRunning(parent: number, script: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // The parent's id is the second field after the command name (which may hold spaces, inside parentheses).
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (ppid === parent && command.includes(script)) found.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it.runIf(process.platform === 'linux')(
  'stops within its drain deadline while a report process writes, and the report process ends with it',
  async () => {
    const { liveKey } = await companyWithLiveKey(http, 'Report stop', ['org:informes:read']);
    const lock = new pg.Client({ connectionString: world.database.url });
    await lock.connect();
    try {
      await lock.query('begin');
      await lock.query('lock table check_ins in access exclusive mode');
      const created = await http(
        'POST',
        '/v1/reports',
        { type: 'check_ins_export', format: 'csv', params: { from: '2026-01-01', to: '2026-01-31' } },
        liveKey,
      );
      expect(created.status).toBe(202);
      const servicePid = node.child.pid as number;
      let reportProcesses: number[] = [];
      const deadline = Date.now() + 15_000;
      while (reportProcesses.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        reportProcesses = await childrenRunning(servicePid, 'report-process.ts');
      }
      expect(reportProcesses).toHaveLength(1);
      const [reportProcess] = reportProcesses as [number];
      // The report process is waiting for the lock: the report cannot finish.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(alive(reportProcess)).toBe(true);

      const started = performance.now();
      await stopServiceNode(node);
      const seconds = (performance.now() - started) / 1000;
      // The drain deadline (1.5 s), then at most 3 s for the pools to close, and a margin for a busy machine.
      expect(seconds).toBeLessThan(8);
      expect(node.output()).toContain('drain deadline passed');
      const gone = Date.now() + 5_000;
      while (alive(reportProcess) && Date.now() < gone) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(alive(reportProcess)).toBe(false);
      await lock.query('rollback');
      // Not completed, not failed: the report keeps its lease and will be claimed again.
      const report = await lock.query('select status, attempts from reports where id = $1', [
        created.body.id,
      ]);
      expect(report.rows).toEqual([{ status: 'processing', attempts: 1 }]);
    } finally {
      await lock.end();
    }
  },
  30_000,
);
