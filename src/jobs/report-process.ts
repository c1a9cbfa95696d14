import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import type { ReportProcessData, ReportProcessMessage } from './report-file.ts';

/**
 * A report process (report-file.ts, processWriter): writes one report's file into the file store from its own
 * database connection, then says how many rows it held.
 *
 * A report is background work, so this process runs at the lowest priority the system offers: when the machine's
 * cores are busy, the service's requests run first and the export slows down instead, reading its rows more
 * slowly, which also slows the database session that sends them. On Linux that is the SCHED_IDLE policy, set on
 * every thread with util-linux's `chrt` (V8's helpers and libuv's pool included; threads started later inherit
 * it): a request's thread that wakes up takes the core at once. Merely the lowest niceness (19) is not enough
 * there, because the scheduler lets a running thread finish its slice, a few milliseconds, before a woken one
 * runs. Without `chrt`, every thread gets niceness 19; a system that refuses both generates at normal priority.
 */
function runInBackground(): void {
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
runInBackground();

// The service decides when a report stops. A signal sent to the whole process group (Ctrl-C, a service manager
// stopping the unit) is the parent's to drain; when the parent is gone (past its drain deadline), so is this
// process, leaving a partial file for the sweep and the report to be claimed again after its lease.
let finished = false;
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
process.on('disconnect', () => {
  if (!finished) process.exit(1);
});

const say = (message: ReportProcessMessage) =>
  new Promise<void>((resolve) =>
    (process.send as NonNullable<typeof process.send>)(message, () => resolve()),
  );

process.once('message', async (data: ReportProcessData) => {
  // Loaded only now, so that even their loading runs in the background.
  const [{ createDb }, { reportStore }, { CursorCodec }, { inProcessWriter }] = await Promise.all([
    import('../db/database.ts'),
    import('../modules/reports/store.ts'),
    import('../platform/pagination.ts'),
    import('./report-file.ts'),
  ]);
  const db = createDb(data.databaseUrl, data.pool);
  const write = inProcessWriter({
    streamDb: db,
    cursors: new CursorCodec(Buffer.from(data.cursorKey)),
    store: reportStore(data.reportsStore),
  });
  let message: ReportProcessMessage;
  try {
    message = { kind: 'done', rows: await write(data.report, Temporal.Instant.from(data.now), data.key) };
  } catch (error) {
    message = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  }
  await db.destroy().catch(() => {});
  finished = true;
  await say(message);
  process.disconnect?.();
});
