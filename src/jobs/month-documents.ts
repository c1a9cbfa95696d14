import { makeDueDocuments } from '../modules/month-documents/month-documents.service.ts';
import type { AppDeps } from '../platform/deps.ts';
import type { Job } from './runner.ts';

/** The pause after each worker's documents: the job paces itself beside the requests the node answers. */
const PAUSE_MILLISECONDS = 250;

/**
 * Makes the sealed documents of closed months (docs/registry.md, "Sealed documents"): one worker's (or a company
 * CSV edition) per tick, then a short pause, so that a large company's close never takes the node's event loop
 * for itself. A download or a correction that needs documents still queued makes them at once.
 */
export function monthDocumentsJob(deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>): Job {
  return {
    name: 'month-documents',
    idleMilliseconds: PAUSE_MILLISECONDS,
    tick: async () => {
      await makeDueDocuments(deps);
      // Always "nothing more for now": the runner pauses before the next item.
      return 0;
    },
  };
}
