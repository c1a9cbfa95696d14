import { sql, type Updateable } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import type { CheckInsTable, WorkdaysTable } from '../../src/db/schema.ts';
import { canonicalJson, chainHash } from '../../src/modules/registry/registry.service.ts';

/**
 * An operator's SQL that rewrites one entry of a worker's chain and re-links every later entry, so that every
 * link and hash holds (the thorough forger): triggers are off for the transaction, as a superuser can.
 */
export async function rewriteChainEntry(
  db: Db,
  where: { companyId: string; employeeId: string; seq: number },
  change: (content: Record<string, unknown>) => void,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    const rows = (
      await sql<{ seq: string; content: string; previous_hash: Buffer }>`
        select seq, content, previous_hash from registry_entries
        where company_id = ${where.companyId} and employee_id = ${where.employeeId} and seq >= ${where.seq}
        order by seq`.execute(tx)
    ).rows;
    let previous = rows[0]?.previous_hash as Buffer;
    for (const row of rows) {
      let content = row.content;
      if (Number(row.seq) === where.seq) {
        const parsed = JSON.parse(content) as Record<string, unknown>;
        change(parsed);
        content = canonicalJson(parsed);
      }
      const hash = chainHash(previous, content);
      await sql`update registry_entries set content = ${content}, previous_hash = ${previous}, hash = ${hash}
        where company_id = ${where.companyId} and employee_id = ${where.employeeId} and seq = ${row.seq}`.execute(
        tx,
      );
      previous = hash;
    }
  });
}

/**
 * An operator's SQL that rewrites the stored figures of one day (the `workdays` table is derived from the
 * records: verification recomputes it and names the difference).
 */
export async function rewriteStoredDay(
  db: Db,
  where: { companyId: string; employeeId: string; date: string },
  change: Updateable<WorkdaysTable>,
): Promise<void> {
  await db
    .updateTable('workdays')
    .set(change)
    .where('company_id', '=', where.companyId)
    .where('employee_id', '=', where.employeeId)
    .where('date', '=', where.date)
    .execute();
}

/** An operator's SQL that changes a stored check-in's columns behind the chain (what verification must catch). */
export async function rewriteCheckIn(db: Db, id: string, changes: Updateable<CheckInsTable>): Promise<void> {
  await db.updateTable('check_ins').set(changes).where('id', '=', id).execute();
}
