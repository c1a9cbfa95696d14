import type { Executor } from '../../db/database.ts';

/** Maintenance: a used download nonce matters only while its address could still be presented. */
export async function deleteExpiredDownloadNonces(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom('report_downloads').where('url_expires_at', '<', now).execute();
}

/** Deletes every report of the tenants; returns the storage keys of their files (to delete after the commit). */
export async function deleteReportsOf(db: Executor, companyIds: string[]): Promise<string[]> {
  const reports = await db
    .deleteFrom('reports')
    .where('company_id', 'in', companyIds)
    .returning('storage_key')
    .execute();
  return reports.flatMap((report) => (report.storage_key === null ? [] : [report.storage_key]));
}
