import { sql } from 'kysely';
import { employeeZones, type Zones } from '../time/zones.ts';
import type { Executor } from './database.ts';

// The effective-dated time zones (migration 0039; docs/time-rules.md, "Time zones are effective-dated"): read by
// the recomputation and the registry documents, written by the company's and the employee's changes. Here, below
// the modules, because both sides need them.

export type ZonePeriods = {
  company: Array<{ from: string; zone: string }>;
  employee: Array<{ from: string; zone: string | null }>;
};

/** The periods that decide an employee's zones: their company's (a sandbox follows its live company) and their own. */
export async function zonePeriodsOf(
  db: Executor,
  companyId: string,
  employeeId: string,
): Promise<ZonePeriods> {
  const result = await sql<{ employee_id: string | null; from: string; zone: string | null }>`
    select p.employee_id, to_char(p.effective_from, 'YYYY-MM-DD') as "from", p.timezone as zone
    from timezone_periods p
    where (p.company_id = (select coalesce(c.sandbox_of, c.id) from companies c where c.id = ${companyId})
           and p.employee_id is null)
       or (p.company_id = ${companyId} and p.employee_id = ${employeeId})
    order by p.effective_from`.execute(db);
  return {
    company: result.rows
      .filter((row) => row.employee_id === null)
      .map((row) => ({ from: row.from, zone: row.zone as string })),
    employee: result.rows.filter((row) => row.employee_id !== null).map(({ from, zone }) => ({ from, zone })),
  };
}

/** Whether a company (employeeId null) or an employee has any period recorded. */
export async function hasZonePeriods(db: Executor, companyId: string, employeeId: string | null) {
  const result = await sql<{ found: boolean }>`
    select exists (select 1 from timezone_periods
                   where company_id = ${companyId} and employee_id is not distinct from ${employeeId}::uuid) as found`.execute(
    db,
  );
  return result.rows[0]?.found === true;
}

/** Records a period; false when one already starts on that date. */
export async function insertZonePeriod(
  db: Executor,
  row: {
    company_id: string;
    employee_id: string | null;
    effective_from: string;
    timezone: string | null;
    recorded_at: Date;
    recorded_by_type: string;
    recorded_by_id: string;
  },
): Promise<boolean> {
  const result = await sql`
    insert into timezone_periods
      (company_id, employee_id, effective_from, timezone, recorded_at, recorded_by_type, recorded_by_id)
    values (${row.company_id}, ${row.employee_id}, ${row.effective_from}, ${row.timezone}, ${row.recorded_at},
            ${row.recorded_by_type}, ${row.recorded_by_id})
    on conflict do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** The zones an employee's dates follow: their own or the company's, effective-dated (employeeZones). */
export async function zonesOf(
  db: Executor,
  companyId: string,
  employee: { id: string; timezone: string | null },
  companyZone: string,
): Promise<Zones> {
  return employeeZones(
    { employee: employee.timezone, company: companyZone },
    await zonePeriodsOf(db, companyId, employee.id),
  );
}
