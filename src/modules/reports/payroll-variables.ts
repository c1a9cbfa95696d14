import type { Db } from '../../db/database.ts';
import type { Language } from '../../platform/language.ts';
import type { CursorCodec } from '../../platform/pagination.ts';
import type { TenantScope } from '../../platform/tenant.ts';
import { monthRange } from '../../time/calendar.ts';
import type { Clock } from '../../time/clock.ts';
import { absenceName, absenceTypes } from '../absence-types/absence-types.service.ts';
import { approvedAbsencesOfEmployees } from '../absences/absences.service.ts';
import { findEmployeeIdentities } from '../employees/employees.service.ts';
import type { PayrollColumn, TimeConcept } from '../payroll/payroll.schemas.ts';
import type { PayrollLayout } from '../payroll/payroll.service.ts';
import { isMonthClosed } from '../registry/months.service.ts';
import { listWorkSummaries, type WorkSummaryView } from '../work-summaries/work-summaries.service.ts';
import type { Column, ColumnKind, Row } from './file-writers.ts';

/**
 * The payroll_variables report (issue 41, docs/payroll.md): one row per worker and concept of a month, from the
 * same monthly work summaries the API serves (so the file and GET /v1/work-summaries agree to the minute), and
 * the approved absences of the month.
 */

const KINDS: Record<PayrollColumn, ColumnKind> = {
  worker_id: 'text',
  employee_id: 'text',
  employee_name: 'text',
  month: 'text',
  concept: 'text',
  code: 'text',
  concept_name: 'text',
  hours: 'decimal',
  minutes: 'integer',
  days: 'decimal',
  from: 'date',
  to: 'date',
  provisional: 'boolean',
};

/** A layout's columns, with its own headers where it has them. */
export const payrollColumns = (layout: PayrollLayout): Column[] =>
  layout.columns.map((key) => ({
    key,
    kind: KINDS[key],
    ...(layout.headers[key] ? { header: layout.headers[key] } : {}),
  }));

const CONCEPT_NAMES: Record<TimeConcept, Record<Language, string>> = {
  ordinary: { en: 'Ordinary hours', es: 'Horas ordinarias' },
  overtime_paid: { en: 'Overtime, paid', es: 'Horas extraordinarias retribuidas' },
  overtime_time_off: {
    en: 'Overtime, compensated with time off',
    es: 'Horas extraordinarias compensadas con descanso',
  },
  complementary: { en: 'Complementary hours', es: 'Horas complementarias' },
  night: { en: 'Night hours', es: 'Horas nocturnas' },
  holiday_worked: { en: 'Hours worked on holidays', es: 'Horas trabajadas en festivo' },
  on_call: { en: 'On-call hours worked', es: 'Horas de guardia trabajadas' },
};

/** The minutes of each time concept in a worker's month (docs/payroll.md says how they add up). */
export function conceptMinutes(month: WorkSummaryView): Record<TimeConcept, number> {
  return {
    ordinary: month.worked_minutes - month.overtime_minutes - month.complementary_minutes,
    overtime_paid: month.overtime_counted_minutes,
    overtime_time_off: month.overtime_minutes - month.overtime_counted_minutes,
    complementary: month.complementary_minutes,
    night: month.night_minutes,
    holiday_worked: month.holiday_worked_minutes,
    on_call: month.on_call_worked_minutes,
  };
}

/** Minutes as decimal hours, two places (7 h 20 min: 7.33), as payroll programs take quantities. */
export const decimalHours = (minutes: number) => Math.round((minutes * 100) / 60) / 100;

/** The days of an absence that fall in [from, to]: calendar days, a half day as 0.5. */
function daysWithin(
  absence: { start_date: string; end_date: string; half_day: boolean },
  from: string,
  to: string,
) {
  if (absence.half_day) return 0.5;
  const start = absence.start_date > from ? absence.start_date : from;
  const end = absence.end_date < to ? absence.end_date : to;
  return Temporal.PlainDate.from(start).until(Temporal.PlainDate.from(end)).days + 1;
}

const EMPLOYEES_PER_PAGE = 100;

/** Absence types whose every spell is a row with its dates: sick leave (a payroll program needs each spell's start). */
const SPELL_TYPES = new Set(['sick_leave']);

export async function* payrollVariablesRows(
  db: Db,
  clock: Clock,
  codec: CursorCodec,
  tenant: TenantScope,
  params: { month: string; locale: Language; layout: PayrollLayout },
): AsyncIterable<Row> {
  const { month, locale, layout } = params;
  const { from, to } = monthRange(month);
  const provisional = !(await isMonthClosed(db, tenant.companyId, month));
  const labels = Object.fromEntries(
    (await absenceTypes({ db }, tenant)).map((type) => [type.key, type.label]),
  );
  let cursor: string | undefined;
  do {
    const months = await listWorkSummaries({ db, clock, cursors: codec }, tenant, {
      period: 'month',
      from,
      to,
      limit: EMPLOYEES_PER_PAGE,
      cursor,
    });
    const ids = months.data.map((row) => row.employee_id);
    const employees = new Map(
      (await findEmployeeIdentities(db, tenant.companyId, ids)).map((employee) => [employee.id, employee]),
    );
    const absencesOf = Map.groupBy(
      await approvedAbsencesOfEmployees(db, tenant.companyId, ids, { from, to }),
      (absence) => absence.employee_id,
    );
    for (const summary of months.data) {
      const employee = employees.get(summary.employee_id);
      if (!employee) continue;
      const identity = {
        worker_id:
          layout.workerIdentifier === 'national_id'
            ? employee.national_id
            : layout.workerIdentifier === 'naf'
              ? employee.social_security_number
              : employee.external_id,
        employee_id: employee.id,
        employee_name: `${employee.first_name} ${employee.last_name}`,
        month,
      };
      const row = (concept: string, code: string | undefined, name: string, figures: Partial<Row>): Row => ({
        ...identity,
        concept,
        code: code ?? concept,
        concept_name: name,
        hours: null,
        minutes: null,
        days: null,
        from: null,
        to: null,
        provisional,
        ...figures,
      });
      // Ordinary hours always (every worker of the month has a row); every other concept when it is not zero.
      for (const [concept, minutes] of Object.entries(conceptMinutes(summary)) as [TimeConcept, number][]) {
        if (minutes === 0 && concept !== 'ordinary') continue;
        yield row(concept, layout.codes[concept], CONCEPT_NAMES[concept][locale], {
          hours: decimalHours(minutes),
          minutes,
        });
      }
      const totals = new Map<string, number>();
      for (const absence of absencesOf.get(employee.id) ?? []) {
        const days = daysWithin(absence, from, to);
        // A spell's own dates, even where they lie outside the month: its start decides how it is paid.
        if (SPELL_TYPES.has(absence.key)) {
          const name = absenceName(absence.key, locale, labels);
          yield row(`absence:${absence.key}`, layout.absenceCodes[absence.key], name, {
            days,
            from: absence.start_date,
            to: absence.end_date,
          });
        } else totals.set(absence.key, (totals.get(absence.key) ?? 0) + days);
      }
      for (const [key, days] of totals) {
        yield row(`absence:${key}`, layout.absenceCodes[key], absenceName(key, locale, labels), { days });
      }
    }
    cursor = months.meta.next_cursor ?? undefined;
  } while (cursor !== undefined);
}
