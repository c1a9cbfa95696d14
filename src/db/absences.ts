import type { Executor } from './database.ts';

// Queries on absence rows that modules on both sides of the absences module need (the workdays module, which the
// absences module calls, recounts them): here, below the modules, so that no module cycle is needed.

/** A tenant's absences joined with their type (same company, by the composite key). */
export const absencesWithType = (db: Executor, companyId: string) =>
  db
    .selectFrom('absences')
    .innerJoin('absence_types', (join) =>
      join
        .onRef('absence_types.company_id', '=', 'absences.company_id')
        .onRef('absence_types.id', '=', 'absences.absence_type_id'),
    )
    .where('absences.company_id', '=', companyId);
