import type { Executor } from '../../db/database.ts';

/** The newest row id of a sandbox's table, for a sample event that names real sandbox data; undefined if none. */
async function newest(
  db: Executor,
  table: 'employees' | 'check_ins' | 'absences' | 'check_in_corrections' | 'reports',
  companyId: string,
): Promise<{ id: string; employee_id?: string } | undefined> {
  const columns =
    table === 'employees' || table === 'reports' ? (['id'] as const) : (['id', 'employee_id'] as const);
  return (await db
    .selectFrom(table)
    .select(columns)
    .where('company_id', '=', companyId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()) as { id: string; employee_id?: string } | undefined;
}

/** The sandbox's newest employee, check-in, absence, correction and report (what exists of them). */
export async function newestSandboxRows(db: Executor, companyId: string) {
  const [employee, checkIn, absence, correction, report] = await Promise.all([
    newest(db, 'employees', companyId),
    newest(db, 'check_ins', companyId),
    newest(db, 'absences', companyId),
    newest(db, 'check_in_corrections', companyId),
    newest(db, 'reports', companyId),
  ]);
  return { employee, checkIn, absence, correction, report };
}

/** A sandbox's events after an event id (uuid) and, given `before`, before that id; oldest first, at most `limit`. */
export async function eventsAfter(
  db: Executor,
  companyId: string,
  range: { after: string; before: string | undefined },
  limit: number,
) {
  let query = db
    .selectFrom('events')
    .select(['id', 'type', 'data', 'created_at'])
    .where('company_id', '=', companyId)
    .where('id', '>', range.after);
  if (range.before !== undefined) query = query.where('id', '<', range.before);
  return await query.orderBy('id').limit(limit).execute();
}

/** A sandbox's newest event (before the id `before`, when given), or undefined. */
export async function newestEvent(
  db: Executor,
  companyId: string,
  before: string | undefined,
): Promise<{ id: string; created_at: Date } | undefined> {
  let query = db.selectFrom('events').select(['id', 'created_at']).where('company_id', '=', companyId);
  if (before !== undefined) query = query.where('id', '<', before);
  return await query.orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** A poll of the sandbox's feed by `listener` (a key or an administrator), at `at`. */
export async function notePoll(db: Executor, companyId: string, listener: string, at: Date): Promise<void> {
  await db
    .insertInto('sandbox_listeners')
    .values({ company_id: companyId, listener, last_poll_at: at })
    .onConflict((conflict) => conflict.columns(['company_id', 'listener']).doUpdateSet({ last_poll_at: at }))
    .execute();
}

/** How many listeners polled the sandbox's feed since `since`. */
export async function countListeners(db: Executor, companyId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('sandbox_listeners')
    .select((eb) => eb.fn.countAll<string>().as('listeners'))
    .where('company_id', '=', companyId)
    .where('last_poll_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.listeners);
}
