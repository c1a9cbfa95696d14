import type { Db } from './db/database.ts';
import { ensureInstanceSecret } from './db/instance-secret.ts';
import { SyncHorizon } from './db/sync-stamp.ts';
import { DEFAULT_LATE_RECORD_HOURS } from './modules/companies/companies.service.ts';
import { sealedDocuments } from './modules/month-documents/month-documents.service.ts';
import { type ReportStoreConfig, reportStore } from './modules/reports/store.ts';
import type { TargetPolicy } from './modules/webhooks/target.ts';
import type { AppDeps } from './platform/deps.ts';
import { smtpMailer } from './platform/mail.ts';
import { CursorCodec, cursorKey } from './platform/pagination.ts';
import type { Clock, FakeClock } from './time/clock.ts';

export type DepsOptions = {
  db: Db;
  clock: Clock;
  /** The clock again when it is a FakeClock that the admin API may move (JORNADA_FAKE_CLOCK=1); else null. */
  fakeClock: FakeClock | null;
  publicUrl: string;
  adminToken: string | null;
  webhookTargets: TargetPolicy;
  /** Where generated report files live (JORNADA_REPORTS_STORE; by default `<data dir>/reports`). */
  reportsStore: ReportStoreConfig;
  maxPendingReports?: number;
  /** JORNADA_SMTP_URL and JORNADA_MAIL_FROM; no mail without a URL. */
  smtp?: { url: string; from: string } | null;
  /** JORNADA_LATE_RECORD_HOURS (default 24). */
  lateRecordHours?: number;
};

/**
 * The composition root: the one place that turns settings and a database into the dependencies every route
 * module and job receives. main.ts, the tests and the bench all build them here, so they cannot differ in how
 * (the instance secret, the keys derived from it, the report store).
 */
export async function createDeps(options: DepsOptions): Promise<AppDeps> {
  const instanceSecret = await ensureInstanceSecret(options.db);
  const cursors = new CursorCodec(cursorKey(instanceSecret));
  return {
    db: options.db,
    clock: options.clock,
    fakeClock: options.fakeClock,
    cursors,
    syncHorizon: new SyncHorizon(options.db, options.clock),
    instanceSecret,
    publicUrl: options.publicUrl,
    adminToken: options.adminToken,
    webhookTargets: options.webhookTargets,
    reportStore: reportStore(options.reportsStore),
    sealedDocuments: sealedDocuments({ clock: options.clock, cursors }),
    lateRecordHours: options.lateRecordHours ?? DEFAULT_LATE_RECORD_HOURS,
    mailer: options.smtp ? smtpMailer(options.smtp.url, options.smtp.from) : null,
    ...(options.maxPendingReports === undefined ? {} : { maxPendingReports: options.maxPendingReports }),
  };
}
