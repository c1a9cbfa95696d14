import type { Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { withSyncStamp } from '../../db/sync-stamp.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { companySyncList, type Page, type SyncQuery } from '../../platform/pagination.ts';
import type { CompanyScope, TenantScope } from '../../platform/tenant.ts';
import { formatInstant, toDate } from '../../time/clock.ts';
import { localDate } from '../../time/zones.ts';
import { writeDays } from '../workdays/write-days.ts';
import {
  deleteShiftRows,
  employeesForShifts,
  findRotaPattern,
  insertRotaPattern,
  insertTemplate,
  selectRotaPatterns,
  selectTemplates,
  shiftsOfEmployees,
  type TemplateRow,
  templatesAmong,
} from './shifts.repo.ts';
import type {
  ApplyRotaPatternBody,
  CreateRotaPatternBody,
  CreateShiftTemplateBody,
  RotaApplied,
  RotaPattern,
  ShiftTemplate,
} from './shifts.schemas.ts';
import { type Placement, placeShifts } from './shifts.service.ts';

export type TemplateView = Static<typeof ShiftTemplate>;
export type RotaPatternView = Static<typeof RotaPattern>;

const toTemplateView = (row: TemplateRow): TemplateView => ({
  id: row.id,
  name: row.name,
  start: row.start_time,
  end: row.end_time,
  break_minutes: row.break_minutes,
  kind: row.kind,
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

export async function createShiftTemplate(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: CompanyScope,
  input: Static<typeof CreateShiftTemplateBody>,
): Promise<TemplateView> {
  const row = await withSyncStamp(deps.db, deps.clock, tenant.companyId, async (tx, stamp) => {
    const at = toDate(stamp);
    const template: TemplateRow = {
      id: newId(),
      name: input.name,
      start_time: input.start,
      end_time: input.end,
      break_minutes: input.break_minutes ?? 0,
      kind: input.kind ?? 'work',
      created_at: at,
      updated_at: at,
    };
    await insertTemplate(tx, { company_id: tenant.companyId, ...template });
    return template;
  });
  return toTemplateView(row);
}

export async function listShiftTemplates(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: CompanyScope,
  query: SyncQuery,
): Promise<Page<TemplateView>> {
  return await companySyncList(
    deps,
    tenant.companyId,
    selectTemplates(deps.db, tenant.companyId),
    { listing: 'shift_templates', query },
    toTemplateView,
  );
}

const toPatternView = (row: {
  id: string;
  name: string;
  cycle: Array<string | null>;
  created_at: Date;
  updated_at: Date;
}): RotaPatternView => ({
  id: row.id,
  name: row.name,
  cycle: row.cycle,
  created_at: formatInstant(row.created_at),
  updated_at: formatInstant(row.updated_at),
});

export async function listRotaPatterns(
  deps: Pick<AppDeps, 'db' | 'cursors' | 'syncHorizon'>,
  tenant: CompanyScope,
  query: SyncQuery,
): Promise<Page<RotaPatternView>> {
  return await companySyncList(
    deps,
    tenant.companyId,
    selectRotaPatterns(deps.db, tenant.companyId),
    { listing: 'rota_patterns', query },
    toPatternView,
  );
}

/** A rota pattern: a cycle of days, each a template of the company or rest (null); applied at once if asked. */
export async function createRotaPattern(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: TenantScope,
  input: Static<typeof CreateRotaPatternBody>,
): Promise<RotaPatternView> {
  const ids = [...new Set(input.cycle.flatMap((id) => id ?? []))];
  if (!input.cycle.some((id) => id !== null)) throw invalid({ cycle: 'has no working day' });
  const row = await withSyncStamp(deps.db, deps.clock, tenant.companyId, async (tx, stamp) => {
    const known = new Set((await templatesAmong(tx, tenant.companyId, ids)).map((template) => template.id));
    const unknown = input.cycle.findIndex((id) => id !== null && !known.has(id));
    if (unknown >= 0) throw invalid({ [`cycle/${unknown}`]: 'is not a shift template of this company' });
    const at = toDate(stamp);
    const pattern = { id: newId(), name: input.name, cycle: input.cycle, created_at: at, updated_at: at };
    await insertRotaPattern(tx, {
      company_id: tenant.companyId,
      ...pattern,
      cycle: JSON.stringify(input.cycle),
    });
    return pattern;
  });
  const applied = input.apply ? await applyRotaPattern(deps, tenant, row.id, input.apply) : null;
  return { ...toPatternView(row), ...(applied ? { applied } : {}) };
}

/**
 * Applies a rota pattern to employees over a range (at most 366 days): day `from` is the cycle's first day, and
 * each working day becomes a draft shift from its template. Drafts already there for those employees and dates
 * are replaced; a date with a published shift, a date that has passed and a date outside the employment are
 * left as they are (`skipped`). All or nothing, like any write of shifts.
 */
export async function applyRotaPattern(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: TenantScope,
  patternId: string,
  body: Static<typeof ApplyRotaPatternBody>,
): Promise<Static<typeof RotaApplied>> {
  if (body.to < body.from) throw invalid({ to: 'must be on or after from' });
  if (Temporal.PlainDate.from(body.from).until(body.to).days > 366) {
    throw invalid({ to: 'must be at most 366 days after from' });
  }
  const pattern = await findRotaPattern(deps.db, tenant.companyId, patternId);
  if (!pattern) throw notFound('Rota pattern');
  const employeeIds = [...new Set(body.employee_ids)];
  return await writeDays(
    deps,
    tenant,
    employeeIds,
    async (tx, now) => {
      const employees = await employeesForShifts(tx, tenant.companyId, employeeIds);
      if (employees.length !== employeeIds.length) {
        const known = new Set(employees.map((employee) => employee.id));
        throw invalid({
          [`employee_ids/${employeeIds.findIndex((id) => !known.has(id))}`]:
            'is not an employee of this company',
        });
      }
      const templates = new Map(
        (
          await templatesAmong(
            tx,
            tenant.companyId,
            pattern.cycle.flatMap((id) => id ?? []),
          )
        ).map((template) => [template.id, template]),
      );
      const existing = await shiftsOfEmployees(tx, tenant.companyId, employeeIds, body);
      const drafts = existing.filter((row) => row.status === 'draft');
      const published = new Set(
        existing.filter((row) => row.status === 'published').map((row) => `${row.employee_id}|${row.date}`),
      );
      await deleteShiftRows(
        tx,
        tenant.companyId,
        drafts.map((row) => row.id),
      );
      const today = localDate(now, tenant.timezone).toString();
      const placements: Placement[] = [];
      let skipped = 0;
      const length = pattern.cycle.length;
      const first = Temporal.PlainDate.from(body.from);
      const days = first.until(body.to).days;
      for (const employee of employees) {
        for (let day = 0; day <= days; day += 1) {
          const templateId = pattern.cycle[day % length];
          if (templateId === null || templateId === undefined) continue;
          const template = templates.get(templateId);
          const date = first.add({ days: day }).toString();
          const employed =
            date >= employee.hire_date &&
            (employee.termination_date === null || date <= employee.termination_date);
          if (!template || !employed || date < today || published.has(`${employee.id}|${date}`)) {
            skipped += 1;
            continue;
          }
          placements.push({
            input: {
              employee_id: employee.id,
              date,
              start: template.start_time,
              end: template.end_time,
              break_minutes: template.break_minutes,
              kind: template.kind,
              status: 'draft',
              template_id: template.id,
            },
          });
        }
      }
      const placed = await placeShifts(tx, tenant, now, placements, {
        field: (index, name) =>
          `${placements[index]?.input.employee_id}/${placements[index]?.input.date}/${name}`,
      });
      return {
        result: { created: placed.rows.length, replaced: drafts.length, skipped },
        touched: placed.touched,
        events: placed.events,
      };
    },
    { what: 'applying this rota pattern' },
  );
}

/** The company's shift templates by name (an import names them as people do), name → the template. */
export async function templatesByName(db: Executor, companyId: string) {
  const rows = await selectTemplates(db, companyId).orderBy('created_at').execute();
  return new Map(rows.map((row) => [row.name, row]));
}
