import { sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ReportFormat, ReportsTable, ReportType } from '../../db/schema.ts';

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

/** Reports still processing (queued or generating) of a tenant. */
export async function countProcessingReports(db: Executor, companyId: string): Promise<number> {
  const pending = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('company_id', '=', companyId)
    .where('status', '=', 'processing')
    .executeTakeFirstOrThrow();
  return Number(pending.count);
}

export async function insertReport(
  db: Executor,
  companyId: string,
  report: { id: string; type: ReportType; format: ReportFormat; params: string; at: Date },
): Promise<void> {
  await db
    .insertInto('reports')
    .values({
      company_id: companyId,
      id: report.id,
      type: report.type,
      format: report.format,
      params: report.params,
      status: 'processing',
      run_at: report.at,
      created_at: report.at,
      updated_at: report.at,
    })
    .execute();
}

export async function findReport(db: Executor, companyId: string, id: string) {
  return await db
    .selectFrom('reports')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The signed download finds its report by id alone: the signature is the credential, before tenancy. */
export async function findReportForDownload(db: Executor, id: string) {
  return await db.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The tenant's latest reports, newest first (ids are UUIDv7, so the primary key orders them). */
export async function latestReports(db: Executor, companyId: string, limit: number) {
  return await db
    .selectFrom('reports')
    .selectAll()
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Consumes a download address's nonce, atomically; false when it was already used. */
export async function useDownloadNonce(
  db: Executor,
  use: { companyId: string; reportId: string; nonce: string; usedAt: Date; urlExpiresAt: Date },
): Promise<boolean> {
  const used = await db
    .insertInto('report_downloads')
    .values({
      company_id: use.companyId,
      report_id: use.reportId,
      nonce: use.nonce,
      used_at: use.usedAt,
      url_expires_at: use.urlExpiresAt,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returning('nonce')
    .executeTakeFirst();
  return used !== undefined;
}

/** A report claimed for generation, with its account's id and time zone. */
export type ClaimedReport = Pick<ReportsTable, 'company_id' | 'id' | 'type' | 'format'> & {
  attempts: number;
  params: Record<string, string>;
  account_id: string;
  timezone: string;
};

/**
 * Claims one due report, taking turns across tenants: among each tenant's oldest due report, the tenant whose
 * report was claimed longest ago (or never) goes first, so one tenant's backlog delays another's report by at
 * most one claim. The turn is recorded in the same statement (queue_turns). The lease runs to `leaseUntil`.
 */
export async function claimDueReport(
  db: Executor,
  at: Date,
  leaseUntil: Date,
): Promise<ClaimedReport | null> {
  const result = await sql<ClaimedReport>`
    with heads as (
      select distinct on (r.company_id) r.company_id, r.id, r.run_at
      from reports r
      where r.status = 'processing' and r.run_at <= ${at}
      order by r.company_id, r.run_at
    ), ranked as (
      select h.company_id, h.id, row_number() over (order by q.last_claimed_at nulls first, h.run_at) as turn
      from heads h
      left join queue_turns q on q.queue = 'reports' and q.company_id = h.company_id
    ), due as (
      select r.company_id, r.id from reports r
      join ranked k on k.company_id = r.company_id and k.id = r.id
      where r.status = 'processing' and r.run_at <= ${at}
      order by k.turn
      limit 1
      for update of r skip locked
    ), turn as (
      insert into queue_turns (queue, company_id, last_claimed_at)
      select 'reports', company_id, ${at} from due
      on conflict (queue, company_id) do update set last_claimed_at = excluded.last_claimed_at
    )
    update reports r
    set attempts = r.attempts + 1, run_at = ${leaseUntil}, updated_at = ${at}
    from due, companies t, companies a
    where r.company_id = due.company_id and r.id = due.id
      and t.id = r.company_id and a.id = coalesce(t.sandbox_of, t.id)
    returning r.company_id, r.id, r.type, r.format, r.params, r.attempts, a.id as account_id, a.timezone`.execute(
    db,
  );
  return result.rows[0] ?? null;
}

/** Updates a claimed report only while this attempt still owns it; returns whether it did. */
export async function updateOwnedReport(
  db: Executor,
  report: Pick<ClaimedReport, 'company_id' | 'id' | 'attempts'>,
  changes: Updateable<ReportsTable>,
): Promise<boolean> {
  const updated = await db
    .updateTable('reports')
    .set(changes)
    .where('company_id', '=', report.company_id)
    .where('id', '=', report.id)
    .where('status', '=', 'processing')
    .where('attempts', '=', report.attempts)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Claims (SKIP LOCKED, across tenants) up to `batch` completed reports whose file is past retention. */
export async function claimExpiredReports(db: Executor, now: Date, batch: number) {
  return await db
    .selectFrom('reports')
    .select(['company_id', 'id', 'storage_key'])
    .where('status', '=', 'completed')
    .where('file_expires_at', '<=', now)
    .limit(batch)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function markReportExpired(db: Executor, report: { company_id: string; id: string }, at: Date) {
  await db
    .updateTable('reports')
    .set({ status: 'expired', storage_key: null, updated_at: at })
    .where('company_id', '=', report.company_id)
    .where('id', '=', report.id)
    .execute();
}
