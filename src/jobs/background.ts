import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { readdirSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import type { DbOptions } from '../db/database.ts';
import { type Clock, systemClock } from '../time/clock.ts';

/**
 * Puts this process in the background: the lowest priority the system offers, so that when the machine's cores
 * are busy, the service's requests run first and background work (a report's file, a closed month's documents)
 * slows down instead. On Linux that is the SCHED_IDLE policy, set on every thread with util-linux's `chrt` (V8's
 * helpers and libuv's pool included; threads started later inherit it): a request's thread that wakes up takes the
 * core at once. Merely the lowest niceness (19) is not enough there, because the scheduler lets a running thread
 * finish its slice, a few milliseconds, before a woken one runs. Without `chrt`, every thread gets niceness 19; a
 * system that refuses both runs at normal priority.
 */
export function runInBackground(): void {
  try {
    execFileSync('chrt', ['--idle', '--all-tasks', '--pid', '0', String(process.pid)], { stdio: 'ignore' });
    return;
  } catch {
    // No chrt (or not allowed): niceness instead.
  }
  try {
    // Linux keeps a niceness per thread, each thread's id in /proc/self/task.
    for (const thread of readdirSync('/proc/self/task')) os.setPriority(Number(thread), 19);
  } catch {
    try {
      os.setPriority(19);
    } catch {
      // Normal priority.
    }
  }
}

/**
 * How far the service's clock is from the system's (a fake clock's offset in the end-to-end tests; 0 otherwise):
 * a background process follows the service's clock with it.
 */
export function clockOffsetOf(clock: Clock): number {
  return clock.now().epochMilliseconds - systemClock.now().epochMilliseconds;
}

/** What every background process of the service is given to reach the database as the service does. */
export type BackgroundDatabase = {
  databaseUrl: string;
  pool: DbOptions;
  /** The key of the cursors the documents page with (the same as the service's). */
  cursorKey: Uint8Array;
};

/** How a background process ends: its result, or why it could not finish. */
export type BackgroundOutcome<T> = ({ kind: 'done' } & T) | { kind: 'failed'; message: string };

/**
 * Node's flags for a background process. Its heap is capped at 256 MB: what a report keeps is about 40–50 MB at
 * any size (docs/performance.md), and without a cap V8 sizes the heap from the machine's memory and lets garbage
 * pile up (a 1M-row XLSX peaked at 350 MB instead of 213 MB). `npm run bench reports` runs its reports with these.
 */
export const BACKGROUND_PROCESS_FLAGS = ['--max-old-space-size=256'];

/** The message that asks a background process to end its work early (the service is stopping). */
const STOP = 'jornada:stop';

/** The background processes of this process still running. */
const running = new Set<ChildProcess>();
let killedOnExit = false;

/**
 * Starts a background process (its entry calls `serveInBackground`). It does not keep this process alive (the
 * CLI's serve also exits when stopped), and it never outlives it: when the service exits (a stop past its drain
 * deadline), the processes still running are killed. A process also ends when it sees its channel close, but at
 * idle priority on a saturated machine it may not run for seconds (test/e2e/report-process-stop.test.ts).
 */
export function forkBackground(entry: string): ChildProcess {
  // The service's compile cache (src/cli.js), passed on so that a report's process does not strip and compile
  // every module it loads again: the environment variable turns it on before the entry loads.
  const cache = module.getCompileCacheDir?.();
  const child = fork(entry, [], {
    execArgv: BACKGROUND_PROCESS_FLAGS,
    serialization: 'advanced',
    stdio: 'inherit',
    ...(cache ? { env: { ...process.env, NODE_COMPILE_CACHE: cache } } : {}),
  });
  child.unref();
  child.channel?.unref();
  running.add(child);
  child.once('close', () => running.delete(child));
  if (!killedOnExit) {
    killedOnExit = true;
    process.once('exit', () => {
      for (const each of running) each.kill('SIGKILL');
    });
  }
  return child;
}

/**
 * Runs one background process (its entry calls `serveInBackground`) on one piece of work, to its end: what it
 * answered, or why it failed (its message, or its exit code when it said nothing).
 */
export function runToEnd<D, T extends object>(
  entry: string,
  data: D,
  what: string,
  /** When it aborts (the service stops), the process is asked to end its work early (`serveInBackground`). */
  stopping?: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = forkBackground(entry);
    const stop = () => {
      if (child.connected) child.send(STOP);
    };
    stopping?.addEventListener('abort', stop, { once: true });
    let result: BackgroundOutcome<T> | null = null;
    child.on('message', (message: BackgroundOutcome<T>) => {
      result = message;
    });
    child.on('error', (error) => {
      if (child.pid === undefined) reject(error);
    });
    child.on('close', (code) => {
      stopping?.removeEventListener('abort', stop);
      const ended = result as BackgroundOutcome<T> | null;
      if (ended?.kind === 'done') resolve(ended);
      else
        reject(
          new Error(ended?.kind === 'failed' ? ended.message : `the ${what} process stopped (code ${code})`),
        );
    });
    child.send(data as Parameters<typeof child.send>[0]);
  });
}

/**
 * The background process's side: at the lowest priority (runInBackground), it takes one piece of work from the
 * service on its IPC channel, does it, says how it ended, and leaves. The service decides when it stops: a signal
 * sent to the whole process group (Ctrl-C, a service manager stopping the unit) is the parent's to drain; when the
 * parent is gone (past its drain deadline), so is this process, before it finished (what it did not commit is
 * done again: a report is claimed again after its lease, a worker's documents are made by the next process).
 */
export function serveInBackground<D, T extends object>(
  work: (data: D, stopping: AbortSignal) => Promise<T>,
): void {
  runInBackground();
  let finished = false;
  const stopping = new AbortController();
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => {});
  process.on('disconnect', () => {
    if (!finished) process.exit(1);
  });
  let started = false;
  process.on('message', async (message: D | typeof STOP) => {
    if (started) {
      if (message === STOP) stopping.abort();
      return;
    }
    started = true;
    const data = message as D;
    let outcome: BackgroundOutcome<T>;
    try {
      outcome = { kind: 'done', ...(await work(data, stopping.signal)) };
    } catch (error) {
      outcome = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    }
    finished = true;
    await new Promise<void>((resolve) =>
      (process.send as NonNullable<typeof process.send>)(outcome, () => resolve()),
    );
    process.disconnect?.();
  });
}
