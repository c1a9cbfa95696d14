import { serveInBackground } from './background.ts';
import type { DocumentsProcessData } from './month-documents.ts';

/**
 * A documents process (month-documents.ts): makes the closed months' queued documents, worker after worker, from
 * its own database connection and at the lowest priority the system offers (background.ts), until the queue is
 * empty or its batch is done; then says how many it made. A month close of 2,000 workers is minutes of PDF and
 * XLSX layout: here it never holds up the event loop that answers the API (issue 39, `npm run bench month-close`).
 * Each worker's documents are one transaction: what a process stopped with the service did not commit is made by
 * the next one.
 */
serveInBackground(async (data: DocumentsProcessData) => {
  const [{ createDb }, { CursorCodec }, { FakeClock }, { makeDueDocuments }] = await Promise.all([
    import('../db/database.ts'),
    import('../platform/pagination.ts'),
    import('../time/clock.ts'),
    import('../modules/month-documents/month-documents.service.ts'),
  ]);
  const db = createDb(data.databaseUrl, { ...data.pool, applicationName: 'jornada documents' });
  try {
    // The parent's clock, offset and all (a fake clock in the end-to-end tests).
    const clock = new FakeClock();
    clock.setOffset(data.clockOffsetMilliseconds);
    const deps = { db, clock, cursors: new CursorCodec(Buffer.from(data.cursorKey)) };
    let made = 0;
    while (made < data.batch && (await makeDueDocuments(deps)) > 0) made += 1;
    return { made };
  } finally {
    await db.destroy().catch(() => {});
  }
});
