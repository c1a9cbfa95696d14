import type { Executor } from '../../db/database.ts';
import { revokeKeys } from '../api-keys/api-keys.repo.ts';
import {
  allowSandboxPurge,
  type CompanyRow,
  deleteCompany,
  findSandboxOf,
} from '../companies/companies.repo.ts';
import { provisionSandbox } from '../companies/sandbox.ts';
import { lockEmployees } from '../employees/employees.service.ts';
import { deleteReportsOf } from '../reports/reports.repo.ts';

/**
 * Switching the public API addon off, inside the caller's transaction (which holds the account's row lock):
 * every key of the account and of its sandbox is revoked with reason addon_disabled, every report row is
 * deleted, and the sandbox goes with all its data (every tenant table cascades from companies). Returns the
 * storage keys of the deleted reports' files: the caller removes them once the transaction has committed, so
 * a rollback leaves every file in place.
 */
export async function disableAddon(tx: Executor, account: CompanyRow, now: Date): Promise<string[]> {
  const sandbox = await findSandboxOf(tx, account.id);
  const tenants = sandbox ? [account.id, sandbox.id] : [account.id];
  await revokeKeys(tx, now, { companyIds: tenants }, 'addon_disabled');
  const storageKeys = await deleteReportsOf(tx, tenants);
  if (sandbox) {
    // The cascade rewrites every sandbox employee's days: their row locks come first, in id order, so that a
    // check-in in flight (which holds its employee's lock and then writes that employee's days) cannot deadlock.
    await lockEmployees(tx, sandbox.id);
    // The registry refuses deletes (0009_registry.sql) but for a whole sandbox going with its company.
    await allowSandboxPurge(tx);
    await deleteCompany(tx, sandbox.id);
  }
  return storageKeys;
}

/** Switching the addon back on: a new, empty sandbox. Revoked keys stay revoked. */
export async function enableAddon(
  tx: Executor,
  account: CompanyRow,
  now: Date,
  sandboxId: string,
): Promise<void> {
  if (!(await findSandboxOf(tx, account.id))) await provisionSandbox(tx, account, now, sandboxId);
}
