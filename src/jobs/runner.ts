import type { Logger } from 'pino';

/**
 * A background job: `tick` claims and runs due work (rows claimed with FOR UPDATE SKIP LOCKED) and returns how
 * many items it handled. The runner calls it again at once while there is work, and otherwise every
 * `idleMilliseconds`. Stopping waits for the tick in progress, so SIGTERM drains jobs.
 */
export type Job = {
  name: string;
  idleMilliseconds: number;
  /** `stopping` aborts when the runner stops: a tick that waits on long work (a lingering process) ends it. */
  tick: (stopping?: AbortSignal) => Promise<number>;
  /** Work a tick started but did not await (requests in flight); stopping waits for it after the last tick. */
  drain?: () => Promise<void>;
};

export type Runner = { stop(): Promise<void> };

export function startJobs(jobs: Job[], log: Logger): Runner {
  let stopping = false;
  const stopped = new AbortController();
  const wakeups = new Set<() => void>();
  const sleep = (milliseconds: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakeups.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, milliseconds);
      wakeups.add(wake);
    });
  const loops = jobs.map(async (job) => {
    while (!stopping) {
      let handled = 0;
      try {
        handled = await job.tick(stopped.signal);
      } catch (error) {
        log.error({ err: error, job: job.name }, 'job tick failed');
      }
      if (!stopping && handled === 0) await sleep(job.idleMilliseconds);
    }
    await job.drain?.();
  });
  return {
    async stop() {
      stopping = true;
      stopped.abort();
      for (const wake of [...wakeups]) wake();
      await Promise.all(loops);
    },
  };
}
