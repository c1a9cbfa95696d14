import type { Executor } from './database.ts';

// Queries on company rows that modules on both sides of the companies module need (the registry, which the
// companies module calls to chain a company's settings, among them): here, below the modules, so that no module
// cycle is needed. Compare db/employees.ts.

/** Serialises a tenant's writers that count something of theirs (a month close, the report cap) for the transaction. */
export async function lockCompanyRow(db: Executor, companyId: string): Promise<void> {
  await db.selectFrom('companies').select('id').where('id', '=', companyId).forNoKeyUpdate().execute();
}

/**
 * What a background job needs to act for a company: its account (the live company of a sandbox) and the account's
 * time zone, as a request's tenant has them; undefined when there is no such company.
 */
export async function tenantScopeOf(db: Executor, companyId: string) {
  const row = await db
    .selectFrom('companies as t')
    .innerJoin('companies as a', (join) =>
      join.on((eb) => eb('a.id', '=', eb.fn.coalesce('t.sandbox_of', 't.id'))),
    )
    .select(['t.id as companyId', 'a.id as accountId', 'a.timezone as timezone'])
    .where('t.id', '=', companyId)
    .executeTakeFirst();
  return row;
}
