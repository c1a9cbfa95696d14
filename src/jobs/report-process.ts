import { serveInBackground } from './background.ts';
import type { ReportProcessData } from './report-file.ts';

/**
 * A report process (report-file.ts, processWriter): writes one report's file into the file store from its own
 * database connection, then says how many rows it held. A report is background work: the process runs at the
 * lowest priority the system offers, and a service that is gone takes it along (background.ts); the partial file
 * it leaves is the sweep's, and the report is claimed again after its lease.
 */
serveInBackground(async (data: ReportProcessData) => {
  // Loaded only now, so that even their loading runs in the background.
  const [{ createDb }, { reportStore }, { CursorCodec }, { inProcessWriter }] = await Promise.all([
    import('../db/database.ts'),
    import('../modules/reports/store.ts'),
    import('../platform/pagination.ts'),
    import('./report-file.ts'),
  ]);
  const db = createDb(data.databaseUrl, { ...data.pool, applicationName: 'jornada report' });
  try {
    const write = inProcessWriter({
      streamDb: db,
      cursors: new CursorCodec(Buffer.from(data.cursorKey)),
      store: reportStore(data.reportsStore),
    });
    return { rows: await write(data.report, Temporal.Instant.from(data.now), data.key) };
  } finally {
    await db.destroy().catch(() => {});
  }
});
