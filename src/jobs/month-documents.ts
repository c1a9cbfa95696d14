import { makeDueDocuments } from '../modules/month-documents/month-documents.service.ts';
import type { AppDeps } from '../platform/deps.ts';
import type { Job } from './runner.ts';

/** Makes the sealed documents of closed months as soon as they are queued (docs/registry.md, "Sealed documents"). */
export function monthDocumentsJob(deps: Pick<AppDeps, 'db' | 'clock' | 'cursors'>): Job {
  return { name: 'month-documents', idleMilliseconds: 1_000, tick: () => makeDueDocuments(deps) };
}
