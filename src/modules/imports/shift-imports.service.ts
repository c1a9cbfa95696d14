import type { Static } from 'typebox';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid } from '../../platform/errors.ts';
import type { ActingTenant } from '../../platform/tenant.ts';
import { employeeNamed } from '../employees/employees.service.ts';
import { templatesByName } from '../shifts/rota.service.ts';
import { MAX_BULK_SHIFTS } from '../shifts/shifts.schemas.ts';
import { bulkShifts } from '../shifts/shifts.service.ts';
import { headerKey, isoDate, readSheet, rowsRefused } from './imports.parse.ts';
import type { ImportShiftsBody, ShiftImportResult } from './imports.schemas.ts';

type Row = Static<typeof ShiftImportResult>['rows'][number];

/** The columns of a week plan, in Spanish or English: who, which week, and the seven days from Monday. */
const WHO = [
  'employee',
  'email',
  'external id',
  'empleado',
  'persona',
  'correo',
  'correo electronico',
  'id externo',
];
const WEEK = ['week', 'week of', 'monday', 'semana', 'semana del', 'lunes de la semana'];
const DAYS: ReadonlyArray<readonly string[]> = [
  ['lunes', 'monday', 'mon', 'lun'],
  ['martes', 'tuesday', 'tue', 'mar'],
  ['miercoles', 'wednesday', 'wed', 'mie'],
  ['jueves', 'thursday', 'thu', 'jue'],
  ['viernes', 'friday', 'fri', 'vie'],
  ['sabado', 'saturday', 'sat', 'sab'],
  ['domingo', 'sunday', 'sun', 'dom'],
];

/** A day's cell: `08:00-16:00`, with an optional break in minutes (`08:00-16:30 30`), or a template's name. */
const SPAN = /^(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})(?:\s+(\d{1,3}))?$/;
const time = (hours: string, minutes: string) => `${hours.padStart(2, '0')}:${minutes}`;

/**
 * Imports a week plan (issue 39): a row per employee and week (the week's Monday), a column per day with a span
 * or a shift template's name; empty is no shift. Every shift is placed as a draft through the planner's own bulk
 * placement (POST /v1/shifts/bulk: the same checks, all or nothing), inside one transaction that a preview always
 * rolls back; each problem is named by the row's line and the day's column. Publishing stays the planner's step.
 */
export async function importShifts(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  tenant: ActingTenant,
  input: Static<typeof ImportShiftsBody>,
): Promise<Static<typeof ShiftImportResult>> {
  const sheet = await readSheet(input.format, Buffer.from(input.content, 'base64'));
  const find = (names: readonly string[]) =>
    sheet.headers.find((header) => names.includes(headerKey(header)));
  const who = find(WHO);
  const week = find(WEEK);
  const days = DAYS.map((names) => find(names));
  if (!who || !week || days.every((day) => day === undefined)) {
    throw invalid({ content: 'lacks the columns employee, week and the days (or their Spanish names)' });
  }
  const used = new Set([who, week, ...days]);
  const ignored = sheet.headers.filter((header) => header !== '' && !used.has(header));
  const templates = new Map(
    [...(await templatesByName(deps.db, tenant.companyId))].map(([name, row]) => [headerKey(name), row]),
  );
  const rows: Row[] = [];
  // Each shift with the row and the day's column it came from, to name them in a problem.
  const items: Array<{ row: Row; column: string; shift: Parameters<typeof bulkShifts>[2][number] }> = [];
  for (const { line, cells } of sheet.rows) {
    const errors: Record<string, string[]> = {};
    const key = cells[who] ?? '';
    const employee = key === '' ? undefined : await employeeNamed(deps.db, tenant.companyId, key);
    if (!employee) errors[who] = [key === '' ? 'is required' : 'is not an employee of this company'];
    const monday = isoDate(cells[week] ?? '');
    let start: Temporal.PlainDate | null = null;
    try {
      start = Temporal.PlainDate.from(monday);
      if (start.dayOfWeek !== 1) errors[week] = ['must be a Monday'];
    } catch {
      errors[week] = ['must be a date (YYYY-MM-DD or DD/MM/YYYY)'];
    }
    const row: Row = { line, name: employee?.name ?? key, shifts: 0, errors };
    rows.push(row);
    days.forEach((column, index) => {
      if (!column) return;
      const text = (cells[column] ?? '').trim();
      if (text === '' || text === '-' || text === '—') return;
      const span = SPAN.exec(text);
      const template = templates.get(headerKey(text));
      if (!span && !template) {
        errors[column] = [
          'must be a time span like 08:00-16:00 (a break in minutes after it) or a template’s name',
        ];
        return;
      }
      if (!employee || !start || errors[week]) return;
      const shift = span
        ? {
            start: time(span[1] ?? '', span[2] ?? ''),
            end: time(span[3] ?? '', span[4] ?? ''),
            ...(span[5] ? { break_minutes: Number(span[5]) } : {}),
          }
        : {
            start: template?.start_time.slice(0, 5) ?? '',
            end: template?.end_time.slice(0, 5) ?? '',
            break_minutes: template?.break_minutes ?? 0,
            template_id: template?.id ?? null,
          };
      items.push({
        row,
        column,
        shift: { employee_id: employee.id, date: start.add({ days: index }).toString(), ...shift },
      });
      row.shifts += 1;
    });
  }
  if (items.length > MAX_BULK_SHIFTS) {
    throw invalid({ content: `places more than ${MAX_BULK_SHIFTS} shifts` });
  }
  // The planner's checks (overlaps, rest, dates), each mapped back to its row and day.
  const commit = input.commit ?? false;
  const rolledBack = new Error('preview');
  const clean = () => rows.every((row) => Object.keys(row.errors).length === 0);
  if (items.length > 0) {
    try {
      await deps.db.transaction().execute(async (tx) => {
        // The planner's checks run on the rows the file itself got right, so that a preview marks every error.
        const readable = items.filter((item) => Object.keys(item.row.errors).length === 0);
        if (readable.length > 0) {
          try {
            await bulkShifts(
              { ...deps, db: tx },
              tenant,
              readable.map((item) => item.shift),
            );
          } catch (error) {
            if (!(error instanceof ApiError) || error.code !== 'validation_failed') throw error;
            for (const [field, messages] of Object.entries(error.errors ?? {})) {
              const match = /^shifts\/(\d+)\/(.+)$/.exec(field);
              const item = match ? readable[Number(match[1])] : undefined;
              if (!item) throw error;
              const list = Array.isArray(messages) ? messages.map(String) : [String(messages)];
              item.row.errors[item.column] = [...(item.row.errors[item.column] ?? []), ...list];
            }
          }
        }
        if (!commit || !clean()) throw rolledBack;
      });
    } catch (error) {
      if (error !== rolledBack) throw error;
    }
  }
  const bad = rows.filter((row) => Object.keys(row.errors).length > 0);
  if (commit && bad.length > 0) {
    throw rowsRefused(bad, 'no shift was placed');
  }
  return {
    committed: commit && items.length > 0,
    rows,
    ignored_columns: ignored,
    rows_with_errors: bad.length,
    shifts: items.length,
  };
}
