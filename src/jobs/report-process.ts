import { runInBackground } from './background.ts';
import type { ReportProcessData, ReportProcessMessage } from './report-file.ts';

/**
 * A report process (report-file.ts, processWriter): writes one report's file into the file store from its own
 * database connection, then says how many rows it held. A report is background work: the process runs at the
 * lowest priority the system offers (background.ts).
 */
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
