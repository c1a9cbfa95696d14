import type { Db } from '../../db/database.ts';
import { selectEmployedDuring } from '../../db/employees.ts';
import type { CursorCodec } from '../../platform/pagination.ts';
import type { TenantScope } from '../../platform/tenant.ts';
import { monthRange } from '../../time/calendar.ts';
import type { Clock } from '../../time/clock.ts';
import { employeeTimeZone, startOfDate } from '../../time/zones.ts';
import { loadAccount } from '../companies/companies.service.ts';
import { appliedCorrectionsIn } from '../corrections/corrections.repo.ts';
import { findEmployee } from '../employees/employees.repo.ts';
import { findLocation } from '../locations/locations.repo.ts';
import { lastEntry } from '../registry/registry.repo.ts';
import { employeeRegistryMonth } from './content.ts';
import type { Row } from './writers.ts';

/** One worker's month, as the worker's registry document shows it (pdf.ts lays it out). */
export type WorkerDocument = {
  company: { name: string; tax_id: string | null };
  centre: { name: string; address: string | null; ccc: string | null } | null;
  worker: { name: string; national_id: string | null; social_security_number: string | null };
  month: string;
  timeZone: string;
  days: Row[];
  totals: Row;
  corrections: Array<{
    reason: string;
    requestedBy: string;
    requestedAt: Date;
    companyApproval: { by: string; at: Date } | null;
    workerApprovalAt: Date | null;
    appliedAt: Date | null;
  }>;
  /** The head of the worker's registry chain when the document was made (hex), or null for an empty chain. */
  chainHead: string | null;
};

const PAGE = 100;

/**
 * time_registry_worker_monthly: the documents of every worker employed in the month (or the one asked for), in
 * id order, read a page of workers at a time (flat memory): each one's registry rows (the CSV registry's, so
 * both agree), the corrections that touched the month, and the chain head.
 */
export async function* workerMonthlyDocuments(
  db: Db,
  clock: Clock,
  codec: CursorCodec,
  tenant: TenantScope,
  params: { month: string; employee_id?: string | undefined },
): AsyncIterable<WorkerDocument> {
  const { from, to } = monthRange(params.month);
  const { account } = await loadAccount(db, tenant.companyId);
  const company = { name: account.legal_name ?? account.name, tax_id: account.tax_id };
  let after: string | null = null;
  for (;;) {
    let query = selectEmployedDuring(db, tenant.companyId, from, to, params.employee_id)
      .orderBy('id')
      .limit(PAGE);
    if (after !== null) query = query.where('id', '>', after);
    const ids = (await query.execute()).map((row) => row.id);
    for (const id of ids) {
      const employee = await findEmployee(db, tenant.companyId, id);
      if (!employee) continue;
      const zone = employeeTimeZone(employee, tenant.timezone);
      const location = employee.location_id
        ? await findLocation(db, tenant.companyId, employee.location_id)
        : null;
      const { days, totals } = await employeeRegistryMonth(db, clock, codec, tenant, id, params.month);
      const start = startOfDate(from, zone);
      const end = startOfDate(Temporal.PlainDate.from(to).add({ days: 1 }).toString(), zone);
      const corrections = await appliedCorrectionsIn(
        db,
        tenant.companyId,
        id,
        new Date(start.epochMilliseconds),
        new Date(end.epochMilliseconds),
      );
      const head = await lastEntry(db, tenant.companyId, id);
      yield {
        company,
        centre: location ? { name: location.name, address: location.address, ccc: location.ccc } : null,
        worker: {
          name: `${employee.first_name} ${employee.last_name}`,
          national_id: employee.national_id,
          social_security_number: employee.social_security_number,
        },
        month: params.month,
        timeZone: zone,
        days,
        totals: totals as Row,
        corrections: corrections.map((row) => ({
          reason: row.reason,
          requestedBy: `${row.requested_by_type} ${row.requested_by_id}`,
          requestedAt: row.requested_at,
          companyApproval:
            row.company_approval_at && row.company_approval_by_type
              ? {
                  by: `${row.company_approval_by_type} ${row.company_approval_by_id}`,
                  at: row.company_approval_at,
                }
              : null,
          workerApprovalAt: row.employee_approval_at,
          appliedAt: row.applied_at,
        })),
        chainHead: head ? head.hash.toString('hex') : null,
      };
    }
    if (ids.length < PAGE) return;
    after = ids[ids.length - 1] as string;
  }
}
