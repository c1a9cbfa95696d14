import type { Db } from '../../db/database.ts';
import { contractOf, effectiveTrackingStart, selectEmployedDuring } from '../../db/employees.ts';
import type { ActorType } from '../../db/schema.ts';
import { zonesOf } from '../../db/time-zones.ts';
import type { CursorCodec } from '../../platform/pagination.ts';
import type { TenantScope } from '../../platform/tenant.ts';
import { monthRange } from '../../time/calendar.ts';
import type { Clock } from '../../time/clock.ts';
import { type ComplianceFinding, complianceFindingsOfEvents, LIMITS } from '../../time/compliance.ts';
import { startOfDate, type Zones, zoneAt } from '../../time/zones.ts';
import { absenceName, absenceTypes } from '../absence-types/absence-types.service.ts';
import { findAdminEmail } from '../admins/admins.repo.ts';
import { findKeyName } from '../api-keys/api-keys.repo.ts';
import { recordsByOthersIn } from '../check-ins/check-ins.service.ts';
import { loadAccount } from '../companies/companies.service.ts';
import { appliedCorrectionsIn } from '../corrections/corrections.repo.ts';
import { findEmployee } from '../employees/employees.repo.ts';
import { findLocation } from '../locations/locations.repo.ts';
import { currentMonthVersion, lastEntry } from '../registry/registry.repo.ts';
import { credentialResetsOf, identityAtClose } from '../registry/registry.service.ts';
import { periodFindingsOf } from '../workdays/compliance-alerts.ts';
import { countedEvents } from '../workdays/consolidation.ts';
import type { Row } from './file-writers.ts';
import { employeeRegistryMonth, hhmm } from './report-rows.ts';

/**
 * Who acted, as a reader of the document can tell: an integration by its key's name, an administrator by email,
 * a worker by name, Jornada itself.
 */
export type ActorName = { type: ActorType; name: string };

/** One worker's month, as the worker's registry document shows it (pdf.ts and document-xlsx.ts lay it out). */
export type WorkerDocument = {
  company: { name: string; tax_id: string | null };
  centre: { name: string; address: string | null; ccc: string | null } | null;
  worker: { name: string; national_id: string | null; social_security_number: string | null };
  month: string;
  /** The zone of the worker's dates, or the zones of a month in which it changed (effective-dated). */
  timeZone: Zones;
  days: Row[];
  totals: Row;
  corrections: Array<{
    reason: string;
    requestedBy: ActorName;
    requestedAt: Date;
    companyApproval: { by: ActorName; at: Date } | null;
    workerApprovalAt: Date | null;
    appliedAt: Date | null;
  }>;
  /** The head of the worker's registry chain when the document was made (hex), or null for an empty chain. */
  chainHead: string | null;
  /** A closed month's seal (hex), printed on its documents; null while the month is open. */
  seal: string | null;
  /** The company's label of each absence type, by key (dayCells names absences in the document's language). */
  absenceLabels: Readonly<Record<string, string>>;
  /** The employment the month was worked under (issue 34): dates, contracted week, part-time share. */
  employment: {
    hireDate: string;
    terminationDate: string | null;
    weeklyMinutes: number;
    /** The contracted week as a share of a full-time one (FULL_TIME_WEEKLY_MINUTES); null when full time. */
    partTimePercent: number | null;
    /**
     * The first day the registry counts for the worker (the later of the hire date and the tracking start):
     * a day before it prints "antes del inicio del registro" instead of an unexplained 0:00 (issue 39).
     */
    trackingStart: string;
  };
  /** marked or worker_consent: whether a record by someone else counts before the worker accepts it. */
  policy: string;
  /** The version of the closed month (1: as it closed); null while the month is open. */
  version: number | null;
  /** Each reset of the worker's portal login by the company, up to the document's making (issue 35). */
  accessResets: Array<{ at: Date; by: ActorName }>;
  /**
   * Where the month's counted records pass a legal limit (issue 38, src/time/compliance.ts): a warning for the
   * reader, dated, with the measure, the limit and the article.
   */
  legalLimits: ComplianceFinding[];
  /** Each record of the month the worker did not make: what, who recorded it and when, the worker's answer. */
  recordsByOthers: Array<{
    type: string;
    timestamp: Date;
    voided: boolean;
    recordedBy: ActorName;
    keyKind: string | null;
    recordedAt: Date;
    response: 'accepted' | 'rejected' | null;
    reason: string | null;
  }>;
};

/**
 * The contracted week in force on the month's last day (or the first period, for a month before any): its weekly
 * minutes and, for a part-time period, its percentage of a full-timer's hours (ET art. 12; docs/registry.md,
 * "What the documents print"). A period chained before part-time terms existed (migration 0049) was full-time.
 */
export function contractedWeek(
  contracts: ReadonlyArray<{
    effective_from: string;
    work_schedule: readonly number[];
    contract_type?: string;
    weekly_minutes?: number | null;
    part_time_percentage?: number | string | null;
  }>,
  lastDay: string,
): { weeklyMinutes: number; partTimePercent: number | null } {
  const period = [...contracts].reverse().find((item) => item.effective_from <= lastDay) ?? contracts[0];
  const schedule = (period?.work_schedule ?? []).reduce((sum, minutes) => sum + minutes, 0);
  const percentage = period?.contract_type === 'part_time' ? period.part_time_percentage : null;
  return {
    weeklyMinutes: period?.weekly_minutes ?? schedule,
    partTimePercent: percentage === null || percentage === undefined ? null : Number(percentage),
  };
}

const PAGE = 100;

/**
 * Names the actors of corrections, each looked up once per document set: API keys in the tenant (a sandbox's
 * keys are its own), administrators in the account, other workers in the tenant.
 */
function actorNames(db: Db, tenant: TenantScope) {
  const known = new Map<string, Promise<ActorName>>();
  const lookup = async (type: ActorType, id: string): Promise<ActorName> => {
    if (type === 'api_key') {
      const key = await findKeyName(db, tenant.companyId, id);
      return { type, name: key ? (key.name ?? key.secret_prefix) : id };
    }
    if (type === 'admin') {
      return { type, name: (await findAdminEmail(db, tenant.accountId, id)) ?? id };
    }
    if (type === 'employee') {
      const employee = await findEmployee(db, tenant.companyId, id);
      return { type, name: employee ? `${employee.first_name} ${employee.last_name}` : id };
    }
    return { type, name: 'Jornada' };
  };
  return (type: ActorType, id: string): Promise<ActorName> => {
    const key = `${type}:${id}`;
    let name = known.get(key);
    if (!name) {
      name = lookup(type, id);
      known.set(key, name);
    }
    return name;
  };
}

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
  const names = actorNames(db, tenant);
  const absenceLabels = Object.fromEntries(
    (await absenceTypes({ db }, tenant)).map((type) => [type.key, type.label]),
  );
  let after: string | null = null;
  for (;;) {
    let query = selectEmployedDuring(db, tenant.companyId, from, to, params.employee_id)
      .orderBy('id')
      .limit(PAGE);
    if (after !== null) query = query.where('id', '>', after);
    const ids = (await query.execute()).map((row) => row.id);
    for (const id of ids) {
      const current = await findEmployee(db, tenant.companyId, id);
      if (!current) continue;
      const zone = await zonesOf(db, tenant.companyId, current, tenant.timezone);
      // A closed month prints the identity its chains recorded at the close, never today's.
      const sealed = await identityAtClose(db, tenant, id, params.month);
      const employee = sealed?.worker
        ? {
            ...current,
            first_name: sealed.worker.first_name,
            last_name: sealed.worker.last_name,
            national_id: sealed.worker.national_id,
            social_security_number: sealed.worker.social_security_number,
            location_id: sealed.worker.location_id,
          }
        : current;
      // Employment as chained at the close (older chains lack it: today's then).
      const contracts = sealed?.worker?.contracts ?? (await contractOf(db, tenant.companyId, id));
      const hireDate = sealed?.worker?.hire_date ?? current.hire_date;
      const employment = {
        hireDate,
        terminationDate: sealed?.worker?.hire_date
          ? sealed.worker.termination_date
          : current.termination_date,
        ...contractedWeek(contracts, to),
        trackingStart: effectiveTrackingStart({
          hire_date: hireDate,
          tracking_start_date: current.tracking_start_date,
          company_tracking_start_date: account.tracking_start_date,
        }),
      };
      const location = sealed?.worker
        ? sealed.centre
        : employee.location_id
          ? await findLocation(db, tenant.companyId, employee.location_id)
          : null;
      const identity = sealed?.company
        ? { name: sealed.company.legal_name ?? sealed.company.name, tax_id: sealed.company.tax_id }
        : company;
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
      const others = await recordsByOthersIn(
        db,
        tenant.companyId,
        id,
        new Date(start.epochMilliseconds),
        new Date(end.epochMilliseconds),
      );
      const policy = sealed?.company?.registry_policy ?? account.registry_policy;
      // The rules look back fifteen days (rest between workdays, night work) and a shift may run into the next day.
      const counted = await countedEvents(db, tenant.companyId, id, policy, {
        from: new Date(start.subtract({ hours: (LIMITS.nightReferenceDays + 1) * 24 }).epochMilliseconds),
        to: new Date(end.add({ hours: 24 }).epochMilliseconds),
      });
      // The daily limits from the records as they are; the planned shift's, the month's and the year's as stored.
      const legalLimits = [
        ...complianceFindingsOfEvents(counted, zone, { from, to }),
        ...(await periodFindingsOf(db, tenant.companyId, id, { from, to })),
      ].sort((a, b) => a.date.localeCompare(b.date) || a.rule.localeCompare(b.rule));
      const workerName = `${employee.first_name} ${employee.last_name}`;
      const actor = (type: ActorType, actorId: string) =>
        type === 'employee' && actorId === id ? { type, name: workerName } : names(type, actorId);
      yield {
        company: identity,
        centre: location ? { name: location.name, address: location.address, ccc: location.ccc } : null,
        worker: {
          name: workerName,
          national_id: employee.national_id,
          social_security_number: employee.social_security_number,
        },
        month: params.month,
        timeZone: zone,
        days,
        totals: totals as Row,
        corrections: await Promise.all(
          corrections.map(async (row) => ({
            reason: row.reason,
            requestedBy: await actor(row.requested_by_type, row.requested_by_id),
            requestedAt: row.requested_at,
            companyApproval:
              row.company_approval_at && row.company_approval_by_type && row.company_approval_by_id
                ? {
                    by: await actor(row.company_approval_by_type, row.company_approval_by_id),
                    at: row.company_approval_at,
                  }
                : null,
            workerApprovalAt: row.employee_approval_at,
            appliedAt: row.applied_at,
          })),
        ),
        chainHead: head ? head.hash.toString('hex') : null,
        seal: sealed?.seal ?? null,
        absenceLabels,
        employment,
        accessResets: await Promise.all(
          (await credentialResetsOf(db, tenant.companyId, id)).map(async (reset) => ({
            at: reset.at,
            by: await actor(reset.by.type as ActorType, reset.by.id),
          })),
        ),
        policy,
        legalLimits,
        version: sealed ? await currentMonthVersion(db, tenant.companyId, id, from) : null,
        recordsByOthers: await Promise.all(
          others.map(async (row) => ({
            type: row.type,
            timestamp: row.timestamp,
            voided: row.status === 'voided',
            recordedBy: await actor(row.recorded_by_type, row.recorded_by_id),
            keyKind: row.recorded_by_key_kind,
            recordedAt: row.recorded_at,
            response: row.worker_response,
            reason: row.worker_response_reason,
          })),
        ),
      };
    }
    if (ids.length < PAGE) return;
    after = ids[ids.length - 1] as string;
  }
}

/** The document's version: bumped whenever its layout or content changes, printed on every page. */
export const DOCUMENT_VERSION = 'jornada-registro-5';

export const LABELS = {
  es: {
    locale: 'es',
    title: 'Registro de jornada',
    company: 'Empresa',
    taxId: 'CIF/NIF',
    centre: 'Centro de trabajo',
    ccc: 'CCC',
    worker: 'Trabajador/a',
    nationalId: 'DNI/NIE',
    naf: 'Nº afiliación (NAF)',
    month: 'Mes',
    zone: 'Zona horaria',
    day: 'Día',
    intervals: 'Entradas y salidas',
    mode: 'Modalidad',
    on_site: 'presencial',
    remote: 'teletrabajo',
    worked: 'Trabajado',
    ordinary: 'Ordinario',
    overtime: 'Extra',
    complementary: 'Compl.',
    night: 'Nocturno',
    notes: 'Observaciones',
    totals: 'Totales del mes',
    corrections: 'Correcciones del mes',
    noCorrections: 'Ninguna.',
    requested: 'pedida por',
    approvedBy: 'aprobada por la empresa',
    acceptedByWorker: 'aceptada por la persona trabajadora',
    integration: 'la integración',
    administrator: 'la administración',
    applied: 'aplicada',
    companySignature: 'Firma de la empresa',
    workerSignature: 'Firma del trabajador/a',
    generated: 'Generado',
    version: 'Versión',
    chain: 'Cadena del registro',
    seal: 'Sello del mes cerrado',
    late: 'registro tardío',
    offline: 'fichaje(s) sin conexión',
    beforeTracking: 'antes del inicio del registro',
    corrected: 'corregido',
    incomplete: 'incompleto',
    breaks: 'pausas',
    byOthers: 'registro(s) de otra persona',
    disputed: 'en disputa por la persona trabajadora',
    conflict: 'registros en conflicto',
    none: '—',
    overtimeNote: 'Horas extraordinarias (art. 35.5 ET)',
    complementaryNote: 'Horas complementarias (art. 12.5 ET)',
    limitsTitle: 'Avisos de límites legales',
    noLimits: 'Ninguno.',
    limitWord: 'límite',
    daily_hours: 'más de nueve horas de trabajo en el día',
    rest_between_workdays: 'menos de doce horas de descanso desde la jornada anterior',
    continuous_work_without_break: 'más de seis horas seguidas sin una pausa de quince minutos',
    weekly_rest: 'ningún descanso de día y medio seguido en la semana',
    night_work_average: 'más de ocho horas diarias de media en quince días de trabajo nocturno',
    outside_schedule: 'teletrabajo fuera del turno planificado (desconexión digital)',
    complementary_limit: 'horas complementarias del mes por encima del límite pactado',
    overtime_yearly_warning: 'setenta horas extraordinarias en el año',
    overtime_yearly_cap: 'más de ochenta horas extraordinarias en el año',
    employment: 'Contrato',
    hired: 'alta',
    terminated: 'baja',
    contracted: 'Jornada contratada',
    perWeek: 'h/semana',
    partTime: 'tiempo parcial',
    policy: 'Registros de otra persona',
    policyMarked: 'cuentan, marcados; la persona trabajadora puede rechazarlos',
    policyConsent: 'no cuentan hasta que la persona trabajadora los acepta',
    monthVersion: 'Versión del mes cerrado',
    accessReset: 'Acceso al portal restablecido por la empresa',
    since: 'desde',
    othersTitle: 'Registros hechos por otra persona',
    noOthers: 'Ninguno.',
    recordedBy: 'registrado por',
    terminal: 'terminal',
    on: 'el',
    acceptedAnswer: 'aceptado por la persona trabajadora',
    rejectedAnswer: 'rechazado por la persona trabajadora',
    noAnswer: 'sin respuesta de la persona trabajadora',
    voided: 'anulado por una corrección',
    in: 'entrada',
    out: 'salida',
    break_start: 'inicio de pausa',
    break_end: 'fin de pausa',
  },
  en: {
    locale: 'en',
    title: 'Working time registry',
    company: 'Company',
    taxId: 'Tax id',
    centre: 'Work centre',
    ccc: 'CCC',
    worker: 'Worker',
    nationalId: 'National id',
    naf: 'Social Security no. (NAF)',
    month: 'Month',
    zone: 'Time zone',
    day: 'Day',
    intervals: 'In and out',
    mode: 'Work mode',
    on_site: 'on site',
    remote: 'remote',
    worked: 'Worked',
    ordinary: 'Ordinary',
    overtime: 'Overtime',
    complementary: 'Compl.',
    night: 'Night',
    notes: 'Notes',
    totals: 'Month totals',
    corrections: 'Corrections of the month',
    noCorrections: 'None.',
    requested: 'requested by',
    approvedBy: 'approved by the company',
    acceptedByWorker: 'accepted by the worker',
    integration: 'the integration',
    administrator: 'the administrator',
    applied: 'applied',
    companySignature: 'Company signature',
    workerSignature: 'Worker signature',
    generated: 'Generated',
    version: 'Version',
    chain: 'Registry chain',
    seal: 'Seal of the closed month',
    late: 'late record',
    offline: 'punch(es) made offline',
    beforeTracking: 'before the registry started',
    corrected: 'corrected',
    incomplete: 'incomplete',
    breaks: 'breaks',
    byOthers: 'record(s) by someone else',
    disputed: 'disputed by the worker',
    conflict: 'conflicting records',
    none: '—',
    overtimeNote: 'Overtime (art. 35.5 ET)',
    complementaryNote: 'Complementary hours (art. 12.5 ET)',
    limitsTitle: 'Legal limit warnings',
    noLimits: 'None.',
    limitWord: 'limit',
    daily_hours: 'more than nine hours of work in the day',
    rest_between_workdays: 'less than twelve hours of rest since the previous workday',
    continuous_work_without_break: 'more than six hours in a row without a fifteen-minute break',
    weekly_rest: 'no rest of a day and a half in a row in the week',
    night_work_average: 'more than eight hours a day on average over fifteen days of night work',
    outside_schedule: 'remote work outside the planned shift (the right to disconnect)',
    complementary_limit: "the month's complementary hours above the agreed limit",
    overtime_yearly_warning: 'seventy hours of overtime in the year',
    overtime_yearly_cap: 'more than eighty hours of overtime in the year',
    employment: 'Contract',
    hired: 'hired',
    terminated: 'terminated',
    contracted: 'Contracted hours',
    perWeek: 'h/week',
    partTime: 'part time',
    policy: 'Records by someone else',
    policyMarked: 'count, marked; the worker may reject them',
    policyConsent: 'count only once the worker accepts them',
    monthVersion: 'Version of the closed month',
    accessReset: 'Portal access reset by the company',
    since: 'from',
    othersTitle: 'Records made by someone else',
    noOthers: 'None.',
    recordedBy: 'recorded by',
    terminal: 'terminal',
    on: 'on',
    acceptedAnswer: 'accepted by the worker',
    rejectedAnswer: 'rejected by the worker',
    noAnswer: 'not answered by the worker',
    voided: 'voided by a correction',
    in: 'in',
    out: 'out',
    break_start: 'break start',
    break_end: 'break end',
  },
} as const;

export type DocumentLocale = keyof typeof LABELS;

export type Labels = (typeof LABELS)[DocumentLocale];

/** The day table's columns, in order (each writer sets their widths). */
export const DOCUMENT_COLUMNS = [
  'day',
  'intervals',
  'mode',
  'worked',
  'ordinary',
  'overtime',
  'complementary',
  'night',
  'notes',
] as const;
export type DocumentColumn = (typeof DOCUMENT_COLUMNS)[number];

/** A registry row (a day, or the totals) as the document's cells: figures in minutes, marks as notes. */
export function dayCells(
  day: Row,
  label: Labels,
  absenceLabels: Readonly<Record<string, string>> = {},
  trackingStart?: string,
) {
  const worked = Number(day.worked_minutes ?? 0);
  const overtime = Number(day.overtime_minutes ?? 0);
  const complementary = Number(day.complementary_minutes ?? 0);
  const notes = [
    // A day before the registry counts for the worker: nothing is expected or counted, and the document says why.
    trackingStart !== undefined && typeof day.date === 'string' && day.date < trackingStart
      ? label.beforeTracking
      : null,
    day.holiday,
    typeof day.absence_type === 'string' ? absenceName(day.absence_type, label.locale, absenceLabels) : null,
    Number(day.late_records ?? 0) > 0 ? label.late : null,
    Number(day.offline_records ?? 0) > 0 ? `${Number(day.offline_records)} ${label.offline}` : null,
    day.corrected === true ? label.corrected : null,
    day.incomplete === true ? label.incomplete : null,
    Number(day.records_by_others ?? 0) > 0 ? `${Number(day.records_by_others)} ${label.byOthers}` : null,
    Number(day.disputed_records ?? 0) > 0 ? `${Number(day.disputed_records)} ${label.disputed}` : null,
    day.conflict === true ? label.conflict : null,
  ].filter((note): note is string => typeof note === 'string' && note !== '');
  return {
    day: dayText(day.date, label),
    intervals:
      typeof day.intervals === 'string' && day.intervals !== ''
        ? typeof day.breaks === 'string' && day.breaks !== ''
          ? `${day.intervals} (${label.breaks} ${day.breaks})`
          : day.intervals
        : label.none,
    mode:
      typeof day.work_mode === 'string'
        ? day.work_mode
            .split(';')
            .map((mode) => (mode === 'remote' ? label.remote : label.on_site))
            .join(', ')
        : '',
    worked,
    ordinary: worked - overtime - complementary,
    overtime,
    complementary,
    night: Number(day.night_minutes ?? 0),
    notes: notes.join('; '),
  };
}

/**
 * A month as a reader says it (issue 39: "Mes: 2026-10" read as a code): `octubre de 2026 (2026-10)`, the ISO
 * month kept beside it for whoever files the document.
 */
export function monthText(month: string, label: Labels): string {
  const name = new Intl.DateTimeFormat(label.locale, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${month}-15T12:00:00Z`));
  return `${name} (${month})`;
}

/** A day of the table with its weekday (`2026-10-05 lun`); the totals row has no date. */
function dayText(date: unknown, label: Labels): string {
  if (typeof date !== 'string' || !/^\d{4}-\d\d-\d\d$/.test(date)) return String(date ?? '');
  const weekday = new Intl.DateTimeFormat(label.locale, { weekday: 'short', timeZone: 'UTC' })
    .format(new Date(`${date}T12:00:00Z`))
    .replace(/\.$/, '');
  return `${date} ${weekday}`;
}

/**
 * When the document was made, in the worker's zone of that moment, named (issue 39: it was printed in UTC):
 * `2026-11-28 11:17 (Europe/Madrid)`.
 */
export function generatedText(at: Temporal.Instant, zone: Zones): string {
  const timeZone = zoneAt(zone, at);
  return `${documentTime(new Date(at.epochMilliseconds), zone)} (${timeZone})`;
}

/** A time of the document in its zone, to the minute: `2026-11-23 17:09`. */
export function documentTime(at: Date, zone: Zones): string {
  const instant = Temporal.Instant.fromEpochMilliseconds(at.getTime());
  return instant
    .toZonedDateTimeISO(zoneAt(zone, instant))
    .toPlainDateTime()
    .toString({ smallestUnit: 'minute' })
    .replace('T', ' ');
}

/** An actor as the document names it. */
export function actorText(actor: ActorName, label: Labels): string {
  if (actor.type === 'api_key') return `${label.integration} “${actor.name}”`;
  if (actor.type === 'admin') return `${label.administrator} ${actor.name}`;
  return actor.name;
}

/** One correction of the month as a line: why, who asked and when, who approved and when, when it applied. */
export function correctionLine(
  correction: WorkerDocument['corrections'][number],
  label: Labels,
  zone: Zones,
): string {
  const at = (date: Date) => documentTime(date, zone);
  return [
    `“${correction.reason}”`,
    `${label.requested} ${actorText(correction.requestedBy, label)} (${at(correction.requestedAt)})`,
    correction.companyApproval
      ? `${label.approvedBy}: ${actorText(correction.companyApproval.by, label)} (${at(correction.companyApproval.at)})`
      : null,
    correction.workerApprovalAt ? `${label.acceptedByWorker} (${at(correction.workerApprovalAt)})` : null,
    correction.appliedAt ? `${label.applied} ${at(correction.appliedAt)}` : null,
  ]
    .filter(Boolean)
    .join('; ');
}

/** The identity and terms a document opens with, as (label, value) lines: the PDF and the XLSX print the same. */
export function documentHeading(document: WorkerDocument, label: Labels): Array<[string, string | null]> {
  const { employment } = document;
  const week = `${hhmm(employment.weeklyMinutes)} ${label.perWeek}`;
  return [
    [label.company, document.company.name],
    [label.taxId, document.company.tax_id],
    [
      label.centre,
      document.centre ? [document.centre.name, document.centre.address].filter(Boolean).join(', ') : null,
    ],
    [label.ccc, document.centre?.ccc ?? null],
    [label.worker, document.worker.name],
    [label.nationalId, document.worker.national_id],
    [label.naf, document.worker.social_security_number],
    [label.month, monthText(document.month, label)],
    [label.zone, zonesText(document, label)],
    [
      label.employment,
      [
        `${label.hired} ${employment.hireDate}`,
        employment.terminationDate === null ? null : `${label.terminated} ${employment.terminationDate}`,
      ]
        .filter(Boolean)
        .join(' · '),
    ],
    [
      label.contracted,
      employment.partTimePercent === null
        ? week
        : `${week} (${label.partTime}, ${employment.partTimePercent.toLocaleString(label.locale)} %)`,
    ],
    [label.policy, document.policy === 'worker_consent' ? label.policyConsent : label.policyMarked],
    ...(document.version === null
      ? []
      : [[label.monthVersion, String(document.version)] as [string, string]]),
    // A company that reset the worker's portal login could have acted as the worker: every document says so.
    ...(document.accessResets.length === 0
      ? []
      : [
          [
            label.accessReset,
            document.accessResets
              .map((reset) => `${documentTime(reset.at, document.timeZone)} (${actorText(reset.by, label)})`)
              .join('; '),
          ] as [string, string],
        ]),
  ];
}

/** One record someone else made, as a line: when and what, who recorded it and when, the worker's answer. */
export function othersLine(
  record: WorkerDocument['recordsByOthers'][number],
  label: Labels,
  zone: Zones,
): string {
  const type = (label as Record<string, string>)[record.type] ?? record.type;
  const answer =
    record.response === 'accepted'
      ? label.acceptedAnswer
      : record.response === 'rejected'
        ? `${label.rejectedAnswer}${record.reason ? `: “${record.reason}”` : ''}`
        : label.noAnswer;
  return [
    `${documentTime(record.timestamp, zone)} ${type}`,
    `${label.recordedBy} ${actorText(record.recordedBy, label)}${record.keyKind === 'terminal' ? ` (${label.terminal})` : ''} ${label.on} ${documentTime(record.recordedAt, zone)}`,
    answer,
    record.voided ? label.voided : null,
  ]
    .filter(Boolean)
    .join('; ');
}

/** A legal limit warning as the documents print it: `2026-11-02 · more than nine hours…: 10:00 (limit 9:00) · ET art. 34.3`. */
export function limitLine(finding: ComplianceFinding, label: Labels): string {
  return `${finding.date} · ${label[finding.rule]}: ${hhmm(finding.minutes)} (${label.limitWord} ${hhmm(finding.limit)}) · ${finding.law}`;
}

/** The month's zone, or its zones in order with the date each applies from (`Europe/Madrid; Atlantic/Canary desde 2026-11-15`). */
function zonesText(document: WorkerDocument, label: Labels): string {
  if (typeof document.timeZone === 'string') return document.timeZone;
  const { from, to } = monthRange(document.month);
  return document.timeZone
    .within(from, to)
    .map((period, index) => (index === 0 ? period.zone : `${period.zone} ${label.since} ${period.from}`))
    .join('; ');
}
