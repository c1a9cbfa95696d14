import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** One of the worker's devices that may sign queued punches (not revoked), or undefined. */
export async function findWorkerDevice(db: Executor, companyId: string, employeeId: string, id: string) {
  return await db
    .selectFrom('worker_devices')
    .select(['id', 'public_key', 'registered_at'])
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .where('employee_id', '=', employeeId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function insertWorkerDevice(
  db: Executor,
  row: { company_id: string; id: string; employee_id: string; public_key: JsonWebKey; registered_at: Date },
): Promise<void> {
  await db
    .insertInto('worker_devices')
    .values({ ...row, public_key: JSON.stringify(row.public_key) })
    .execute();
}

/** Revokes a worker's devices beyond the newest `keep` (a worker logs in on a few phones and browsers). */
export async function revokeOldWorkerDevices(
  db: Executor,
  companyId: string,
  employeeId: string,
  keep: number,
  at: Date,
): Promise<void> {
  await sql`
    update worker_devices set revoked_at = ${at}
    where company_id = ${companyId} and employee_id = ${employeeId} and revoked_at is null
      and id not in (
        select id from worker_devices
        where company_id = ${companyId} and employee_id = ${employeeId} and revoked_at is null
        order by registered_at desc, id desc limit ${keep}
      )`.execute(db);
}

/**
 * Takes a queued punch's sequence on its device: true when the device never sent it before (its row is made),
 * false for a replay. Under the primary key, a second batch sending the same punch at once waits for the first
 * and then finds it.
 */
export async function takeSequence(
  db: Executor,
  row: {
    company_id: string;
    device_id: string;
    sequence: bigint;
    employee_id: string | null;
    device_time: Date;
    received_at: Date;
    refusal: string | null;
  },
): Promise<boolean> {
  const taken = await db
    .insertInto('offline_punches')
    .values({ ...row, sequence: row.sequence.toString() })
    .onConflict((conflict) => conflict.columns(['company_id', 'device_id', 'sequence']).doNothing())
    .returning('sequence')
    .executeTakeFirst();
  return taken !== undefined;
}

/** What became of a taken sequence: the check-in it recorded, or the rule's refusal. */
export async function settleSequence(
  db: Executor,
  companyId: string,
  deviceId: string,
  sequence: bigint,
  outcome: { check_in_id: string } | { refusal: string },
): Promise<void> {
  await db
    .updateTable('offline_punches')
    .set(outcome)
    .where('company_id', '=', companyId)
    .where('device_id', '=', deviceId)
    .where('sequence', '=', sequence.toString())
    .execute();
}

/** The sequences a device never sent below its highest: ranges of missing punches, first to last. */
export async function sequenceGaps(db: Executor, companyId: string, deviceId: string) {
  const { rows } = await sql<{ from: string; to: string }>`
    select (coalesce(previous, 0) + 1)::text as "from", (sequence - 1)::text as "to"
    from (
      select sequence, lag(sequence) over (order by sequence) as previous
      from offline_punches where company_id = ${companyId} and device_id = ${deviceId}
    ) s
    where sequence - coalesce(previous, 0) > 1
    order by sequence`.execute(db);
  return rows.map((row) => ({ from: Number(row.from), to: Number(row.to) }));
}
