import type { Executor } from '../../db/database.ts';
import { insertBuiltInAbsenceTypes } from '../absence-types/absence-types.repo.ts';
import { type CompanyRow, insertCompany } from './companies.repo.ts';

/**
 * Inserts an empty sandbox tenant for a live company, with its built-in absence types. Its id is chosen before
 * the transaction, which publishes its sync bound for the sandbox too (src/db/sync-stamp.ts).
 */
export async function provisionSandbox(
  tx: Executor,
  account: CompanyRow,
  now: Date,
  id: string,
): Promise<CompanyRow> {
  const sandbox: CompanyRow = {
    ...account,
    id,
    sandbox_of: account.id,
    name: `${account.name} (sandbox)`,
    active_employee_count: 0,
    created_at: now,
    updated_at: now,
  };
  await insertCompany(tx, sandbox);
  await insertBuiltInAbsenceTypes(tx, sandbox, now);
  return sandbox;
}
