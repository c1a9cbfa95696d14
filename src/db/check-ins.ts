import { sql } from 'kysely';

// The one rule of whose record a check-in is, for the modules on both sides of the check-ins module (the
// consolidation and the reports read it; check-ins writes it): here, below the modules. Compare db/employees.ts.

/**
 * Whether a stored check-in is the worker's own record (docs/registry.md, "Records the worker did not make"): its
 * `worker_confirmed`, or for a row from before issue 34 (null) the rule by who recorded it: the worker, Jornada's
 * own migration, or an applied correction. A key's kind was not known then, so a key counts as an integration.
 */
export function isOwnRecord(row: {
  worker_confirmed: boolean | null;
  recorded_by_type: string;
  source: string;
}): boolean {
  return (
    row.worker_confirmed ??
    (row.recorded_by_type === 'employee' || row.recorded_by_type === 'system' || row.source === 'correction')
  );
}

/** The same rule as a SQL expression over a `check_ins` row. */
export const ownRecordSql = sql<boolean>`coalesce(worker_confirmed,
  recorded_by_type in ('employee', 'system') or source = 'correction')`;
