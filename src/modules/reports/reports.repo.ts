import type { Executor } from '../../db/database.ts';

/** Maintenance: a used download nonce matters only while its address could still be presented. */
export async function deleteExpiredDownloadNonces(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom('report_downloads').where('url_expires_at', '<', now).execute();
}
