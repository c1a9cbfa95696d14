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

export async function insertFailures(db: Executor, subjects: string[], at: Date): Promise<void> {
  await db
    .insertInto('login_failures')
    .values(subjects.map((subject) => ({ subject, failed_at: at })))
    .execute();
}

export async function deleteFailures(db: Executor, subject: string): Promise<void> {
  await db.deleteFrom('login_failures').where('subject', '=', subject).execute();
}

export async function deleteFailuresBefore(db: Executor, before: Date): Promise<void> {
  await db.deleteFrom('login_failures').where('failed_at', '<=', before).execute();
}
