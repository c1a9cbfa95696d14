import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';

/** Per subject, the failures since `since`: how many, and the oldest. */
export async function recentFailures(
  db: Executor,
  subjects: string[],
  since: Date,
): Promise<Array<{ subject: string; failures: number; oldest: Date }>> {
  const rows = await db
    .selectFrom('login_failures')
    .select((eb) => ['subject', eb.fn.countAll<number>().as('failures'), eb.fn.min('failed_at').as('oldest')])
    .where('subject', 'in', subjects)
    .where('failed_at', '>', since)
    .groupBy('subject')
    .execute();
  return rows.map((row) => ({ subject: row.subject, failures: Number(row.failures), oldest: row.oldest }));
}

/** Serialises the attempts on these subjects (email, address) for the transaction, in a fixed order. */
export async function lockSubjects(db: Executor, subjects: readonly string[]): Promise<void> {
  for (const subject of [...subjects].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`login:${subject}`}, 0))`.execute(db);
  }
}

/** Counts an attempt for each subject before its password is checked (a failure until it succeeds). */
export async function insertFailures(
  db: Executor,
  subjects: string[],
  at: Date,
  attemptId: string | null = null,
): Promise<void> {
  await db
    .insertInto('login_failures')
    .values(subjects.map((subject) => ({ subject, failed_at: at, attempt_id: attemptId })))
    .execute();
}

/** A succeeded attempt's own rows. */
export async function deleteAttempt(db: Executor, attemptId: string): Promise<void> {
  await db.deleteFrom('login_failures').where('attempt_id', '=', attemptId).execute();
}

export async function deleteFailures(db: Executor, subject: string): Promise<void> {
  await db.deleteFrom('login_failures').where('subject', '=', subject).execute();
}

export async function deleteFailuresBefore(db: Executor, before: Date): Promise<void> {
  await db.deleteFrom('login_failures').where('failed_at', '<=', before).execute();
}
