import { Ajv } from 'ajv';
import type { Static } from 'typebox';
import { withSavepoint } from '../../db/database.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { ApiError, invalid, validationErrors } from '../../platform/errors.ts';
import type { ActingTenant } from '../../platform/tenant.ts';
import { withFormats } from '../../platform/validation.ts';
import { CreateEmployeeBody } from '../employees/employees.schemas.ts';
import { createEmployee } from '../employees/employees.service.ts';
import { locationIdsByName } from '../locations/locations.service.ts';
import { inviteWorker } from '../portal/portal.service.ts';
import { unitIdsByName } from '../units/units.service.ts';
import { headerKey, isoDate, readSheet, rowsRefused, type Sheet } from './imports.parse.ts';
import type { ImportEmployeesBody, ImportResult } from './imports.schemas.ts';

type Row = Static<typeof ImportResult>['rows'][number];
type EmployeeBody = Static<typeof CreateEmployeeBody>;

/**
 * The columns of the employee form, by the headers a staff list may carry in Spanish or English (compared
 * without case, accents or punctuation: "Correo electrónico" is "correo electronico"). docs/dashboard.md.
 */
const EMPLOYEE_COLUMNS: Record<string, readonly string[]> = {
  first_name: ['first name', 'nombre'],
  last_name: ['last name', 'apellidos', 'apellido'],
  email: ['email', 'e mail', 'correo', 'correo electronico'],
  external_id: ['external id', 'id externo', 'identificador externo'],
  hire_date: ['hire date', 'hired', 'fecha de alta', 'fecha alta', 'alta'],
  national_id: ['national id', 'dni', 'nie', 'dni nie', 'nif'],
  social_security_number: ['social security number', 'naf', 'nss', 'numero de afiliacion', 'n afiliacion'],
  location: ['location', 'work centre', 'work center', 'centro', 'centro de trabajo'],
  unit: ['unit', 'unidad'],
  vacation_days_per_year: ['vacation days per year', 'vacation days', 'dias de vacaciones', 'vacaciones'],
  contract_type: ['contract type', 'tipo de contrato', 'contrato'],
  weekly_hours: ['weekly hours', 'horas semanales'],
};
const REQUIRED = ['first_name', 'last_name', 'email'];

const CONTRACT_TYPES: Record<string, 'full_time' | 'part_time'> = {
  'full time': 'full_time',
  completa: 'full_time',
  'tiempo completo': 'full_time',
  'jornada completa': 'full_time',
  'part time': 'part_time',
  parcial: 'part_time',
  'tiempo parcial': 'part_time',
  'jornada parcial': 'part_time',
};

const checkEmployee = withFormats(new Ajv({ allErrors: true, strict: false })).compile(CreateEmployeeBody);

/** Which field each header of the sheet fills; the headers that fill none are ignored (and said so). */
function columnsOf(sheet: Sheet) {
  const byKey = new Map<string, string>();
  for (const [field, names] of Object.entries(EMPLOYEE_COLUMNS)) {
    byKey.set(headerKey(field), field);
    for (const name of names) byKey.set(name, field);
  }
  const fields = new Map<string, string>();
  const ignored: string[] = [];
  for (const header of sheet.headers) {
    const field = byKey.get(headerKey(header));
    if (field && ![...fields.values()].includes(field)) fields.set(header, field);
    else if (header !== '') ignored.push(header);
  }
  const missing = REQUIRED.filter((field) => ![...fields.values()].includes(field));
  if (missing.length > 0) {
    throw invalid({ content: `lacks the columns ${missing.join(', ')} (or their Spanish names)` });
  }
  return { fields, ignored };
}

/** One row as the body of POST /v1/employees, with what cannot even be read said per field. */
function bodyOf(
  cells: Record<string, string>,
  fields: Map<string, string>,
  names: { locations: Map<string, string>; units: Map<string, string> },
): { body: Record<string, unknown>; errors: Record<string, string[]> } {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const [header, field] of fields) {
    const text = cells[header] ?? '';
    if (text === '') continue;
    if (field === 'location') {
      const id = names.locations.get(headerKey(text));
      if (id) body.location_id = id;
      else errors.location_id = ['is not the name of a work centre of this company'];
    } else if (field === 'unit') {
      const id = names.units.get(headerKey(text));
      if (id) body.unit_id = id;
      else errors.unit_id = ['is not the name of a unit of this company'];
    } else if (field === 'hire_date') {
      body.hire_date = isoDate(text);
    } else if (field === 'vacation_days_per_year') {
      body.vacation_days_per_year = Number(text.replace(',', '.'));
    } else if (field === 'weekly_hours') {
      const hours = Number(text.replace(',', '.'));
      body.weekly_minutes = Number.isFinite(hours) ? Math.round(hours * 60) : text;
    } else if (field === 'contract_type') {
      body.contract_type = CONTRACT_TYPES[headerKey(text)] ?? text;
    } else {
      body[field] = text;
    }
  }
  return { body, errors };
}

const mergeErrors = (into: Record<string, string[]>, from: Record<string, unknown> | undefined) => {
  for (const [field, messages] of Object.entries(from ?? {})) {
    const list = Array.isArray(messages) ? messages.map(String) : [String(messages)];
    into[field] = [...(into[field] ?? []), ...list.filter((message) => !into[field]?.includes(message))];
  }
};

/**
 * Imports a staff list (issue 39): every row is checked as POST /v1/employees checks it, and hired in one
 * transaction, each row in a savepoint so that one row's failure neither hides another's nor leaves anything
 * behind. A preview (`commit` false) always rolls back and shows every row with its errors; a commit keeps all
 * the rows or, when any row fails, none (422, naming each row's line and field). The imported workers may then
 * be invited to the portal at once (after the commit: an invitation e-mail is never sent for a rolled-back hire).
 */
export async function importEmployees(
  deps: Pick<AppDeps, 'db' | 'clock' | 'publicUrl' | 'mailer'>,
  tenant: ActingTenant,
  input: Static<typeof ImportEmployeesBody>,
): Promise<Static<typeof ImportResult>> {
  const sheet = await readSheet(input.format, Buffer.from(input.content, 'base64'));
  const { fields, ignored } = columnsOf(sheet);
  const names = {
    locations: new Map(
      [...(await locationIdsByName(deps.db, tenant.companyId))].map(([name, id]) => [headerKey(name), id]),
    ),
    units: new Map(
      [...(await unitIdsByName(deps.db, tenant.companyId))].map(([name, id]) => [headerKey(name), id]),
    ),
  };
  const commit = input.commit ?? false;
  const rows: Row[] = [];
  const rolledBack = new Error('preview');
  try {
    await deps.db.transaction().execute(async (tx) => {
      const within = { ...deps, db: tx };
      for (const { line, cells } of sheet.rows) {
        const { body, errors } = bodyOf(cells, fields, names);
        const row: Row = {
          line,
          name: [body.first_name, body.last_name].filter(Boolean).join(' '),
          email: typeof body.email === 'string' ? body.email : null,
          errors,
          employee_id: null,
          invitation: null,
        };
        rows.push(row);
        if (!checkEmployee(body)) mergeErrors(errors, validationErrors(checkEmployee.errors ?? [], 'body'));
        if (Object.keys(errors).length > 0) continue;
        try {
          const created = await withSavepoint(tx, () => createEmployee(within, tenant, body as EmployeeBody));
          row.employee_id = created.id;
        } catch (error) {
          if (!(error instanceof ApiError) || error.status >= 500) throw error;
          mergeErrors(errors, error.errors ?? { row: [error.message] });
        }
      }
      // A preview, or a file with a bad row: nothing stays.
      if (!commit || rows.some((row) => Object.keys(row.errors).length > 0)) throw rolledBack;
    });
  } catch (error) {
    if (error !== rolledBack) throw error;
    for (const row of rows) row.employee_id = null;
    const bad = rows.filter((row) => Object.keys(row.errors).length > 0);
    if (commit) {
      throw rowsRefused(bad, 'nothing was imported');
    }
    return { committed: false, rows, ignored_columns: ignored, rows_with_errors: bad.length };
  }
  if (input.invite) {
    for (const row of rows) {
      if (!row.employee_id) continue;
      const invitation = await inviteWorker(deps, tenant, row.employee_id);
      row.invitation = { emailed: invitation.emailed, ...(invitation.url ? { url: invitation.url } : {}) };
    }
  }
  return { committed: true, rows, ignored_columns: ignored, rows_with_errors: 0 };
}
