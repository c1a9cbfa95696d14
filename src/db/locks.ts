import type { Executor } from './database.ts';

/**
 * Takes the row lock of every employee of a company, in id order (the one order multi-employee writers use;
 * docs/architecture.md, Lock order). Here, below the modules, because writers in several modules take it.
 */
export async function lockEmployees(tx: Executor, companyId: string): Promise<void> {
  await tx
    .selectFrom('employees')
    .select('id')
    .where('company_id', '=', companyId)
    .orderBy('id')
    .forUpdate()
    .execute();
}
