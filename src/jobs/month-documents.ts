import { fileURLToPath } from 'node:url';
import { hasDueDocuments, makeDueDocuments } from '../modules/month-documents/month-documents.service.ts';
import type { AppDeps } from '../platform/deps.ts';
import { type BackgroundDatabase, clockOffsetOf, runToEnd } from './background.ts';
import type { Job } from './runner.ts';

/** The pause after each worker's documents: the job paces itself beside the requests the node answers. */
const PAUSE_MILLISECONDS = 250;
/**
 * How many workers' documents one background process makes before the next one starts: each start costs the
 * service a fork, 20–40 ms of its event loop on a large heap (docs/performance.md), so a close of thousands of
 * workers is one process. Its memory stays flat: each worker's documents are one transaction.
 */
const PROCESS_BATCH = 5_000;

/** Where a documents process reads and writes: the service's database, its cursors, its clock's offset. */
export type DocumentsProcessData = BackgroundDatabase & { clockOffsetMilliseconds: number; batch: number };

const ENTRY = fileURLToPath(new URL('./documents-process.ts', import.meta.url));

/**
 * Makes the sealed documents of closed months (docs/registry.md, "Sealed documents"). In a service with the
 * database's address (`serve`), in a background process of its own at the lowest priority (documents-process.ts):
 * a close of thousands of workers never takes the event loop that answers the API. Without it (a test's
 * in-process service), one worker's documents per tick, then a short pause. A download or a correction that needs
 * documents still queued makes them at once, in the request.
 */
export function monthDocumentsJob(
  deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>,
  background?: Omit<DocumentsProcessData, 'clockOffsetMilliseconds' | 'batch'>,
): Job {
  return {
    name: 'month-documents',
    idleMilliseconds: PAUSE_MILLISECONDS,
    tick: async () => {
      if (!background) {
        await makeDueDocuments(deps);
        // Always "nothing more for now": the runner pauses before the next item.
        return 0;
      }
      if (!(await hasDueDocuments(deps.db))) return 0;
      await runToEnd<DocumentsProcessData, { made: number }>(
        ENTRY,
        { ...background, clockOffsetMilliseconds: clockOffsetOf(deps.clock), batch: PROCESS_BATCH },
        'documents',
      );
      return 0;
    },
  };
}
