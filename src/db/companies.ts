import type { Executor } from './database.ts';

// Queries on company rows that modules on both sides of the companies module need (the registry, which the
// companies module calls to chain a company's settings, among them): here, below the modules, so that no module
// cycle is needed. Compare db/employees.ts.

/** Serialises a tenant's writers that count something of theirs (a month close, the report cap) for the transaction. */
export async function lockCompanyRow(db: Executor, companyId: string): Promise<void> {
  await db.selectFrom('companies').select('id').where('id', '=', companyId).forNoKeyUpdate().execute();
}
