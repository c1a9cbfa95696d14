import { type Selectable, sql, type Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { CompaniesTable } from '../../db/schema.ts';

export type CompanyRow = Selectable<CompaniesTable>;

const COLUMNS = [
  'id',
  'sandbox_of',
  'name',
  'timezone',
  'seats',
  'default_expiration_days',
  'max_active_keys',
  'company_status',
  'subscription_status',
  'addon_enabled',
  'vacation_carry_over_max_days',
  'vacation_carry_over_expiry',
  'active_employee_count',
  'late_record_hours',
  'registry_policy',
  'overtime_compensation',
  'tracking_start_date',
  'legal_name',
  'tax_id',
  'default_region',
  'created_at',
  'updated_at',
] as const;

export async function insertCompany(db: Executor, row: CompanyRow): Promise<void> {
  await db.insertInto('companies').values(row).execute();
}

export async function findCompany(
  db: Executor,
  companyId: string,
  options: { forUpdate?: boolean } = {},
): Promise<CompanyRow | undefined> {
  let query = db.selectFrom('companies').select(COLUMNS).where('id', '=', companyId);
  if (options.forUpdate) query = query.forUpdate();
  return await query.executeTakeFirst();
}

/** The deployment's companies (not their sandboxes), for the operator's listing. */
export const selectAccounts = (db: Executor) =>
  db.selectFrom('companies').selectAll().where('sandbox_of', 'is', null);

/** Records a tenant's overtime compensation from a date on (a period starting the same day is replaced). */
export async function insertCompensationPeriod(
  db: Executor,
  row: { company_id: string; effective_from: string; compensation: 'paid' | 'time_off'; recorded_at: Date },
): Promise<void> {
  await db
    .insertInto('overtime_compensation_periods')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .columns(['company_id', 'effective_from'])
        .doUpdateSet({ compensation: row.compensation, recorded_at: row.recorded_at }),
    )
    .execute();
}

export async function findSandboxOf(db: Executor, companyId: string): Promise<CompanyRow | undefined> {
  return await db
    .selectFrom('companies')
    .select(COLUMNS)
    .where('sandbox_of', '=', companyId)
    .executeTakeFirst();
}

export async function updateCompany(
  db: Executor,
  companyId: string,
  changes: Updateable<CompaniesTable>,
): Promise<void> {
  await db.updateTable('companies').set(changes).where('id', '=', companyId).execute();
}

/** Deletes a company; every tenant table cascades from it (the sandbox's removal on addon disable). */
export async function deleteCompany(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('companies').where('id', '=', id).execute();
}

/** The account's vacation carry-over policy. */
export async function findVacationPolicy(db: Executor, accountId: string) {
  return await db
    .selectFrom('companies')
    .select(['vacation_carry_over_max_days', 'vacation_carry_over_expiry'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
}

/** Takes one seat of the account's plan for the tenant, atomically; false when none is free. */
export async function takeSeat(
  tx: Executor,
  tenant: { companyId: string; accountId: string },
): Promise<boolean> {
  const taken = await tx
    .updateTable('companies')
    .set((eb) => ({ active_employee_count: eb('active_employee_count', '+', 1) }))
    .where('id', '=', tenant.companyId)
    .where((eb) =>
      eb(
        'active_employee_count',
        '<',
        eb
          .selectFrom('companies as account')
          .select('account.seats')
          .where('account.id', '=', tenant.accountId),
      ),
    )
    .executeTakeFirst();
  return taken.numUpdatedRows > 0n;
}

export async function freeSeat(tx: Executor, companyId: string): Promise<void> {
  await tx
    .updateTable('companies')
    .set((eb) => ({ active_employee_count: eb('active_employee_count', '-', 1) }))
    .where('id', '=', companyId)
    .execute();
}

/**
 * Lets this transaction delete registry rows (check-ins, chain entries) while a whole sandbox is removed with its
 * company: the append-only triggers refuse every other delete (docs/registry.md).
 */
export async function allowSandboxPurge(db: Executor): Promise<void> {
  await sql`set local jornada.purge = 'sandbox'`.execute(db);
}
