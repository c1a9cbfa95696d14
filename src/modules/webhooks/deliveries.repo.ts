import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** Deletes up to `batch` deliveries that reached their final state before `before`; returns how many. */
export async function deleteFinishedDeliveries(db: Executor, before: Date, batch: number): Promise<number> {
  const result = await sql`
    delete from webhook_deliveries d using (
      select company_id, id from webhook_deliveries
      where status <> 'pending' and updated_at < ${before}
      order by updated_at
      limit ${batch}
    ) old
    where d.company_id = old.company_id and d.id = old.id`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
