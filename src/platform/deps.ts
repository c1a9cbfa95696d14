import type { Db } from '../db/database.ts';
import type { Clock, FakeClock } from '../time/clock.ts';
import type { Mailer } from './mail.ts';
import type { CursorCodec, SyncHorizons } from './pagination.ts';
import type { ReportStore, SealedDocuments, TargetPolicy } from './ports.ts';

/** What route modules may use. Each service takes only the parts it needs. */
export type AppDeps = {
  db: Db;
  clock: Clock;
  /** Present only when JORNADA_FAKE_CLOCK=1: the admin clock routes move it. */
  fakeClock: FakeClock | null;
  cursors: CursorCodec;
  /** Where sync listings end (src/db/sync-stamp.ts): one per process, kept per company, shared by every listing. */
  syncHorizon: SyncHorizons;
  /** Purpose-specific keys derived from the instance secret. */
  instanceSecret: Buffer;
  publicUrl: string;
  adminToken: string | null;
  /** Where webhooks may be sent (SSRF policy) and how host names resolve. */
  webhookTargets: TargetPolicy;
  /** Where generated report files are kept. */
  reportStore: ReportStore;
  /** JORNADA_MAX_PENDING_REPORTS: reports a tenant may have queued or generating at once (default 10). */
  maxPendingReports?: number;
  /**
   * JORNADA_LATE_RECORD_HOURS: the operator's late threshold (default 24). A company may set a lower one, never a
   * higher one: a company that could raise it could back-date records unmarked (docs/registry.md, Late records).
   */
  lateRecordHours: number;
  /** Makes the sealed documents of closed months still to make (docs/registry.md, "Sealed documents"). */
  sealedDocuments: SealedDocuments;
  /** Sends mail (JORNADA_SMTP_URL); null when none is configured. */
  mailer: Mailer | null;
};
