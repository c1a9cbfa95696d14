import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DocumentFact } from '../month-documents/month-documents.service.ts';

// The reads of verification (verify.ts): each one a bounded statement under the normal statement timeout, so a
// verification of any size holds one connection, never waits on itself, and keeps its memory flat.

export type EntryKey = { company_id: string; employee_id: string; seq: number };

/** The next batch of chain entries after a key, in chain order (company, employee, seq). */
export async function entriesAfter(
  db: Executor,
  companyId: string | null,
  after: EntryKey | null,
  limit: number,
) {
  let query = db
    .selectFrom('registry_entries')
    .select(['company_id', 'employee_id', 'seq', 'kind', 'subject_id', 'content', 'previous_hash', 'hash']);
  if (companyId !== null) query = query.where('company_id', '=', companyId);
  if (after !== null) {
    query = query.where(
      sql<boolean>`(company_id, employee_id, seq) > (${after.company_id}::uuid, ${after.employee_id}::uuid, ${after.seq}::bigint)`,
    );
  }
  return await query.orderBy('company_id').orderBy('employee_id').orderBy('seq').limit(limit).execute();
}

/** The next batch of a company chain's entries after a key, in chain order (company, seq). */
export async function companyEntriesAfter(
  db: Executor,
  companyId: string | null,
  after: { company_id: string; seq: number } | null,
  limit: number,
) {
  let query = db
    .selectFrom('registry_company_entries')
    .select(['company_id', 'seq', 'kind', 'subject_id', 'content', 'previous_hash', 'hash']);
  if (companyId !== null) query = query.where('company_id', '=', companyId);
  if (after !== null) {
    query = query.where(sql<boolean>`(company_id, seq) > (${after.company_id}::uuid, ${after.seq}::bigint)`);
  }
  return await query.orderBy('company_id').orderBy('seq').limit(limit).execute();
}

/** The closed months of a tenant (or of all) with their stored seal. */
export async function closedMonthsWithSeals(db: Executor, companyId: string | null) {
  let query = db
    .selectFrom('registry_months')
    .select(['company_id', sql<string>`to_char(month, 'YYYY-MM')`.as('month'), 'seal']);
  if (companyId !== null) query = query.where('company_id', '=', companyId);
  return await query.orderBy('company_id').orderBy('month').execute();
}

/** The corrections among the ids with who approved them on each side (the rows an approval entry records). */
export async function approvalFacts(db: Executor, companyId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return await db
    .selectFrom('check_in_corrections')
    .select([
      'id',
      'employee_id',
      'company_approval_by_type',
      'company_approval_by_id',
      'company_approval_at',
      'employee_approval_at',
    ])
    .where('company_id', '=', companyId)
    .where('id', 'in', ids)
    .execute();
}

/**
 * Facts the database holds that no chain entry records, after a key in (company, id) order: check-ins, voids,
 * correction approvals on either side, acknowledgements. Each is a row written behind the application's back.
 */
export async function factsWithoutEntry(db: Executor, companyId: string | null, limit: number) {
  const company = companyId === null ? sql`true` : sql`x.company_id = ${companyId}::uuid`;
  const result = await sql<{ company_id: string; employee_id: string | null; kind: string; subject: string }>`
    select x.company_id, x.employee_id, x.kind, x.subject from (
      select c.company_id, c.employee_id, 'check_in' as kind, c.id::text as subject, c.id::text as entry_subject
      from check_ins c
      union all
      select c.company_id, c.employee_id, 'check_in_void', c.id::text, c.id::text
      from check_ins c where c.status = 'voided'
      union all
      select k.company_id, k.employee_id, 'correction_approved', k.id::text, k.id::text
      from check_in_corrections k where k.company_approval_at is not null
      union all
      select k.company_id, k.employee_id, 'correction_accepted', k.id::text, k.id::text
      from check_in_corrections k where k.employee_approval_at is not null
      union all
      select c.company_id, c.employee_id, 'check_in_' || c.worker_response, c.id::text, c.id::text
      from check_ins c where c.worker_response is not null
      union all
      select a.company_id, a.employee_id, 'absence', a.id::text, a.id::text from absences a
      union all
      select h.company_id, null, 'holiday', h.id::text, h.id::text from holidays h
      union all
      select g.company_id, null, 'access_grant', g.id::text, g.id::text from registry_access_grants g
      union all
      select a.company_id, null, 'registry_access', a.id::text, a.id::text from registry_accesses a
      union all
      select v.company_id, v.employee_id, 'month_version', v.cause_id::text, v.cause_id::text
      from registry_month_versions v
      union all
      select e.company_id, e.id, 'employee', e.id::text, e.id::text from employees e
      union all
      select c.id, null, 'company', c.id::text, c.id::text from companies c
      union all
      select l.company_id, null, 'location', l.id::text, l.id::text from locations l
      union all
      select d.company_id, d.employee_id, 'month_document', d.id::text, d.id::text from registry_documents d
    ) x
    where ${company}
      and not exists (
        select 1 from registry_entries r
        where x.employee_id is not null and r.company_id = x.company_id and r.employee_id = x.employee_id
          and r.kind = x.kind and r.subject_id = x.entry_subject::uuid)
      and not exists (
        select 1 from registry_company_entries r
        where x.employee_id is null and r.company_id = x.company_id
          and r.kind = x.kind and r.subject_id = x.entry_subject::uuid)
    order by x.company_id, x.employee_id, x.subject
    limit ${limit}`.execute(db);
  return result.rows;
}

/** Acknowledgements whose row no chain entry records (compared by month, in the chain's content). */
export async function acknowledgementsWithoutEntry(db: Executor, companyId: string | null, limit: number) {
  const company = companyId === null ? sql`true` : sql`a.company_id = ${companyId}::uuid`;
  const result = await sql<{ company_id: string; employee_id: string; month: string }>`
    select a.company_id, a.employee_id, to_char(a.month, 'YYYY-MM') || ' (version ' || a.version || ')' as month
    from registry_acknowledgements a
    where ${company}
      and not exists (
        select 1 from registry_entries r
        where r.company_id = a.company_id and r.employee_id = a.employee_id and r.kind = 'month_acknowledged'
          and (r.content::jsonb ->> 'month') = to_char(a.month, 'YYYY-MM')
          and coalesce((r.content::jsonb ->> 'version')::int, 1) = a.version)
    order by a.company_id, a.employee_id, a.month
    limit ${limit}`.execute(db);
  return result.rows;
}

/** Whether each (company, month) has its closing row, for the month_close entries of a batch. */
export async function closedMonthRows(db: Executor, companyId: string, months: string[]) {
  if (months.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom('registry_months')
    .select(sql<string>`to_char(month, 'YYYY-MM')`.as('month'))
    .where('company_id', '=', companyId)
    .where(
      'month',
      'in',
      months.map((month) => `${month}-01`),
    )
    .execute();
  return new Set(rows.map((row) => row.month));
}

/** Whether each (employee, month) has its acknowledgement row, for the month_acknowledged entries of a batch. */
export async function acknowledgementRows(
  db: Executor,
  companyId: string,
  keys: Array<{ employee: string; month: string }>,
) {
  if (keys.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom('registry_acknowledgements')
    .select(['employee_id', sql<string>`to_char(month, 'YYYY-MM')`.as('month'), 'version'])
    .where('company_id', '=', companyId)
    .where(
      'employee_id',
      'in',
      keys.map((key) => key.employee),
    )
    .execute();
  return new Set(rows.map((row) => `${row.employee_id}|${row.month}|${row.version}`));
}

/** The employees of a tenant (or of all) with their time zone and stored workday range, after a key. */
export async function employeesWithWorkdays(
  db: Executor,
  companyId: string | null,
  after: { company_id: string; id: string } | null,
  limit: number,
) {
  const company = companyId === null ? sql`true` : sql`e.company_id = ${companyId}::uuid`;
  const key =
    after === null ? sql`true` : sql`(e.company_id, e.id) > (${after.company_id}::uuid, ${after.id}::uuid)`;
  const result = await sql<{
    company_id: string;
    id: string;
    timezone: string;
    first: string | null;
    last: string | null;
  }>`
    select e.company_id, e.id, a.timezone,
           (select min(w.date)::text from workdays w where w.company_id = e.company_id and w.employee_id = e.id) as first,
           (select max(w.date)::text from workdays w where w.company_id = e.company_id and w.employee_id = e.id) as last
    from employees e
    join companies t on t.id = e.company_id
    join companies a on a.id = coalesce(t.sandbox_of, t.id)
    where ${company} and ${key}
    order by e.company_id, e.id
    limit ${limit}`.execute(db);
  return result.rows;
}

/** An employee's time zone: their own, or their company's (the account's). */
export async function employeeZoneOf(db: Executor, companyId: string, employeeId: string) {
  const row = await db
    .selectFrom('employees as e')
    .innerJoin('companies as t', 't.id', 'e.company_id')
    .innerJoin('companies as a', (join) =>
      join.on((eb) => eb('a.id', '=', eb.fn.coalesce('t.sandbox_of', 't.id'))),
    )
    .select((eb) => eb.fn.coalesce('e.timezone', 'a.timezone').as('timezone'))
    .where('e.company_id', '=', companyId)
    .where('e.id', '=', employeeId)
    .executeTakeFirst();
  return row?.timezone;
}

/** A closed month with its seal and the company's identity, for a bundle. */
export async function bundleMonth(db: Executor, companyId: string, month: string) {
  return await db
    .selectFrom('registry_months as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['m.closed_at', 'm.seal', 'c.name', 'c.legal_name', 'c.tax_id'])
    .where('m.company_id', '=', companyId)
    .where('m.month', '=', `${month}-01`)
    .executeTakeFirst();
}

/**
 * Every entry of each chain that holds the month's closing, from its first through that closing or the last entry
 * of the month's sealed documents, whichever is later.
 */
export async function bundleEmployeeEntries(db: Executor, companyId: string, month: string) {
  const result = await sql<{
    employee_id: string;
    seq: string;
    kind: string;
    subject_id: string | null;
    content: string;
    recorded_at: Date;
    previous_hash: Buffer;
    hash: Buffer;
  }>`
    select r.employee_id, r.seq, r.kind, r.subject_id, r.content, r.recorded_at, r.previous_hash, r.hash
    from registry_entries r
    join (select employee_id, max(seq) as seq from registry_entries
          where company_id = ${companyId}::uuid and kind in ('month_close', 'month_document')
            and (content::jsonb ->> 'month') = ${month}
            and employee_id in (select employee_id from registry_entries
                                where company_id = ${companyId}::uuid and kind = 'month_close'
                                  and (content::jsonb ->> 'month') = ${month})
          group by employee_id) c
      on c.employee_id = r.employee_id
    where r.company_id = ${companyId}::uuid and r.seq <= c.seq
    order by r.employee_id, r.seq`.execute(db);
  return result.rows;
}

/** The company's chain from its first entry through the month's seal or its CSV's last entry, whichever is later. */
export async function bundleCompanyEntries(db: Executor, companyId: string, month: string) {
  const result = await sql<{
    seq: string;
    kind: string;
    subject_id: string | null;
    content: string;
    recorded_at: Date;
    previous_hash: Buffer;
    hash: Buffer;
  }>`
    select seq, kind, subject_id, content, recorded_at, previous_hash, hash
    from registry_company_entries
    where company_id = ${companyId}::uuid
      and seq <= (select max(seq) from registry_company_entries
                  where company_id = ${companyId}::uuid and kind in ('month_sealed', 'month_document')
                    and (content::jsonb ->> 'month') = ${month})
    order by seq`.execute(db);
  return result.rows;
}

/** Whether each (employee, month, version) has its row, for the month_version entries of a batch. */
export async function monthVersionRows(db: Executor, companyId: string, employees: string[]) {
  if (employees.length === 0) return new Set<string>();
  const rows = await db
    .selectFrom('registry_month_versions')
    .select(['employee_id', sql<string>`to_char(month, 'YYYY-MM')`.as('month'), 'version'])
    .where('company_id', '=', companyId)
    .where('employee_id', 'in', employees)
    .execute();
  return new Set(rows.map((row) => `${row.employee_id}|${row.month}|${row.version}`));
}

/** The stored documents of a batch's month_document entries, with the SHA-256 of their bytes as stored now. */
export async function documentRows(db: Executor, companyId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const result = await sql<DocumentFact & { actual: Buffer }>`
    select id, employee_id, to_char(month, 'YYYY-MM') as month, version, format, locale, sha256,
           sha256(content) as actual
    from registry_documents
    where company_id = ${companyId} and id = any(${[...ids]}::uuid[])`.execute(db);
  return result.rows;
}

/** The month's stored documents, with their bytes, for a bundle. */
export async function bundleDocuments(db: Executor, companyId: string, month: string) {
  return await db
    .selectFrom('registry_documents')
    .select(['id', 'employee_id', 'version', 'format', 'locale', 'sha256', 'content'])
    .where('company_id', '=', companyId)
    .where('month', '=', `${month}-01`)
    .orderBy('employee_id')
    .orderBy('version')
    .orderBy('format')
    .orderBy('locale')
    .execute();
}
