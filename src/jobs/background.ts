import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import type { DbOptions } from '../db/database.ts';

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

/** What every background process of the service is given to reach the database as the service does. */
export type BackgroundDatabase = {
  databaseUrl: string;
  pool: DbOptions;
  /** The key of the cursors the documents page with (the same as the service's). */
  cursorKey: Uint8Array;
};

/** How a background process ends: its result, or why it could not finish. */
export type BackgroundOutcome<T> = ({ kind: 'done' } & T) | { kind: 'failed'; message: string };
