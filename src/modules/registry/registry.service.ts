import { createHash } from 'node:crypto';
import type { Executor } from '../../db/database.ts';
import { termsOf } from '../../db/employees.ts';
import {
  absenceFacts,
  accessFacts,
  checkInFacts,
  closingOf,
  companyFacts,
  companyStateAt,
  correctionFacts,
  employeeFacts,
  employeeStateAt,
  entriesOfKind,
  grantFacts,
  holidayFacts,
  insertCompanyEntry,
  insertEntry,
  lastEntry,
  locationFacts,
  lockedLastCompanyEntry,
  responseFacts,
  voidFacts,
} from './registry.repo.ts';

/**
 * The registry of record's hash chains (docs/registry.md): every registry fact of an employee is appended to that
 * employee's chain, in the transaction that records the fact and under the employee's row lock (so a chain has
 * one order). Entry n stores sha256(hash of entry n−1 ‖ content), content being the exact UTF-8 text of the
 * fact's canonical JSON; the first entry's previous hash is 32 zero bytes.
 */
export const GENESIS = Buffer.alloc(32);

export const chainHash = (previous: Buffer, content: string): Buffer =>
  createHash('sha256').update(previous).update(content, 'utf8').digest();

/** JSON with sorted keys at every level: the same fact always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export type RegistryFact = {
  kind: string;
  subjectId: string | null;
  content: Record<string, unknown>;
  recordedAt: Date;
};

/** Appends a fact to the employee's chain. Call it in the fact's transaction, holding the employee's row lock. */
export async function appendToChain(
  tx: Executor,
  companyId: string,
  employeeId: string,
  fact: RegistryFact,
  /**
   * The chain's last entry as this transaction last wrote it (a write of many punches of one employee, under the
   * employee's row lock for the whole transaction): saves reading it again. Never carried across transactions.
   */
  tip?: ChainTip,
): Promise<ChainTip> {
  const last = tip ?? (await lastEntry(tx, companyId, employeeId));
  const previous = last ? last.hash : GENESIS;
  const content = canonicalJson({ kind: fact.kind, ...fact.content });
  const entry = {
    company_id: companyId,
    employee_id: employeeId,
    seq: (last ? Number(last.seq) : 0) + 1,
    kind: fact.kind,
    subject_id: fact.subjectId,
    content,
    recorded_at: fact.recordedAt,
    previous_hash: previous,
    hash: chainHash(previous, content),
  };
  await insertEntry(tx, entry);
  return { seq: entry.seq, hash: entry.hash };
}

/** An employee chain's last entry: its sequence number and hash. */
export type ChainTip = { seq: number; hash: Buffer };

/**
 * Appends a company-wide fact (a holiday, an access grant, an access, a month's seal) to the company's own chain,
 * in the fact's transaction; the chain's advisory lock gives it one order.
 */
export async function appendToCompanyChain(
  tx: Executor,
  companyId: string,
  fact: RegistryFact,
): Promise<void> {
  const last = await lockedLastCompanyEntry(tx, companyId);
  const previous = last ? last.hash : GENESIS;
  const content = canonicalJson({ kind: fact.kind, ...fact.content });
  await insertCompanyEntry(tx, {
    company_id: companyId,
    seq: (last ? Number(last.seq) : 0) + 1,
    kind: fact.kind,
    subject_id: fact.subjectId,
    content,
    recorded_at: fact.recordedAt,
    previous_hash: previous,
    hash: chainHash(previous, content),
  });
}

const instantText = (value: Date | null) => (value === null ? null : value.toISOString());

/** An absence as it stands (issue 34): appended to its employee's chain at every change. */
export function absenceFactContent(row: {
  id: string;
  employee_id: string;
  absence_type_id: string;
  start_date: string;
  end_date: string;
  half_day: boolean;
  status: string;
}): Record<string, unknown> {
  return {
    absence_id: row.id,
    employee_id: row.employee_id,
    absence_type_id: row.absence_type_id,
    start_date: row.start_date,
    end_date: row.end_date,
    half_day: row.half_day,
    status: row.status,
  };
}

/** A holiday added or removed (issue 34), in the company's chain. */
export function holidayFactContent(
  row: { id: string; date: string; name: string; location_id: string | null },
  status: 'added' | 'removed',
): Record<string, unknown> {
  return { holiday_id: row.id, date: row.date, name: row.name, location_id: row.location_id, status };
}

/** An access grant as it stands (issue 34), in the company's chain at its creation and its revocation. */
export function grantFactContent(row: {
  id: string;
  kind: string;
  label: string;
  from_date: string;
  to_date: string;
  employee_ids: string[] | null;
  expires_at: Date;
  created_by_type: string;
  created_by_id: string;
  revoked_at: Date | null;
}): Record<string, unknown> {
  return {
    grant_id: row.id,
    grant_kind: row.kind,
    label: row.label,
    from: row.from_date,
    to: row.to_date,
    employee_ids: row.employee_ids,
    expires_at: instantText(row.expires_at),
    created_by: { type: row.created_by_type, id: row.created_by_id },
    revoked_at: instantText(row.revoked_at),
  };
}

/** One use of an access link (issue 34), in the company's chain: the access log is chained. */
export function accessFactContent(row: {
  id: string;
  grant_id: string;
  at: Date;
  ip: string;
  what: string;
  outcome: string;
}): Record<string, unknown> {
  return {
    access_id: row.id,
    grant_id: row.grant_id,
    at: row.at.toISOString(),
    ip: row.ip,
    what: row.what,
    outcome: row.outcome,
  };
}

/** The canonical content of a check-in's registry fact, from its stored row. */
export function checkInFactContent(row: {
  id: string;
  employee_id: string;
  type: string;
  timestamp: Date;
  source: string;
  recorded_at: Date;
  recorded_by_type: string;
  recorded_by_id: string;
  work_mode: string | null;
  late: boolean;
  correction_id: string | null;
  recorded_by_key_kind: string | null;
  worker_confirmed: boolean | null;
  device_id?: string | null;
  location?: unknown;
  recorded_offline?: boolean;
  device_time?: Date | null;
  offline_device_id?: string | null;
  device_sequence?: string | number | null;
}): Record<string, unknown> {
  return {
    check_in_id: row.id,
    employee_id: row.employee_id,
    type: row.type,
    timestamp: `${row.timestamp.toISOString().slice(0, 19)}Z`,
    source: row.source,
    recorded_at: row.recorded_at.toISOString(),
    recorded_by: {
      type: row.recorded_by_type,
      id: row.recorded_by_id,
      // Since issue 34 (older entries have neither key: their text is unchanged).
      key_kind: row.recorded_by_key_kind ?? undefined,
    },
    worker_confirmed: row.worker_confirmed ?? undefined,
    work_mode: row.work_mode,
    late: row.late,
    // Only a check-in a correction added names one (older entries have no such key: their text is unchanged).
    correction_id: row.correction_id ?? undefined,
    // Only a punch made on a kiosk names its device (issue 40; the same holds for older entries).
    device_id: row.device_id ?? undefined,
    // Only a punch of a centre that asks for the position records one (or the worker's refusal).
    location: row.location ?? undefined,
    // Only a punch sent from a device's queue (issue 40): the device's clock, the device that signed it and its
    // sequence there (older entries have no such key).
    offline: row.recorded_offline
      ? {
          device_time: row.device_time?.toISOString(),
          device_id: row.offline_device_id,
          sequence: Number(row.device_sequence),
        }
      : undefined,
  };
}

/** The canonical content of a worker's answer to a check-in someone else recorded (issue 34). */
export function responseFactContent(row: {
  check_in_id: string;
  employee_id: string;
  response: string;
  reason: string | null;
  responded_at: Date;
  /** The credential and session, canonical JSON (issue 35); answers from before have none: their text is unchanged. */
  credential?: string | null;
}): Record<string, unknown> {
  return {
    check_in_id: row.check_in_id,
    employee_id: row.employee_id,
    response: row.response,
    reason: row.reason,
    responded_at: row.responded_at.toISOString(),
    credential: row.credential ? JSON.parse(row.credential) : undefined,
  };
}

/** The canonical content of a correction request's registry fact, from its stored row. */
export function correctionRequestContent(row: {
  id: string;
  employee_id: string;
  reason: string;
  void_ids: string[];
  add_items: unknown[];
  requested_by_type: string;
  requested_by_id: string;
  requested_at: Date;
}): Record<string, unknown> {
  return {
    correction_id: row.id,
    employee_id: row.employee_id,
    reason: row.reason,
    void: row.void_ids,
    add: row.add_items,
    requested_by: { type: row.requested_by_type, id: row.requested_by_id },
    requested_at: row.requested_at.toISOString(),
  };
}

/** Loads some subjects' rows and gives, by subject id, the canonical text of the entry each row should have. */
type FactsNow = (db: Executor, companyId: string, ids: string[]) => Promise<Map<string, string>>;

function factsNow<Row extends { id: string }>(
  kind: string,
  load: (db: Executor, companyId: string, ids: string[]) => Promise<Row[]>,
  content: (row: Row) => Record<string, unknown>,
): FactsNow {
  return async (db, companyId, ids) =>
    new Map(
      (await load(db, companyId, ids)).map((row) => [row.id, canonicalJson({ kind, ...content(row) })]),
    );
}

/**
 * The facts whose entries verification compares with the rows the database holds now: for each kind, the
 * canonical content each subject's row gives today, by subject id (a row that no longer says it is absent).
 */
const SUBJECT_FACTS: Record<string, FactsNow> = {
  check_in: factsNow('check_in', checkInFacts, checkInFactContent),
  check_in_void: async (db, companyId, ids) =>
    new Map(
      (await voidFacts(db, companyId, ids)).map((row) => [
        row.id,
        canonicalJson({
          kind: 'check_in_void',
          check_in_id: row.id,
          correction_id: row.voided_by_correction_id,
          employee_id: row.employee_id,
        }),
      ]),
    ),
  check_in_accepted: async (db, companyId, ids) => responsesAs('check_in_accepted', db, companyId, ids),
  check_in_rejected: async (db, companyId, ids) => responsesAs('check_in_rejected', db, companyId, ids),
  correction_requested: factsNow('correction_requested', correctionFacts, correctionRequestContent),
};

async function responsesAs(
  kind: 'check_in_accepted' | 'check_in_rejected',
  db: Executor,
  companyId: string,
  ids: string[],
): Promise<Map<string, string>> {
  const response = kind === 'check_in_accepted' ? 'accepted' : 'rejected';
  return new Map(
    (await responseFacts(db, companyId, ids))
      .filter((row) => row.response === response)
      .map((row) => [row.check_in_id, canonicalJson({ kind, ...responseFactContent(row) })]),
  );
}

/** The rows a kind of entry records, as the canonical text each gives today, by subject id (verification). */
export function subjectFacts(kind: string): FactsNow | undefined {
  return Object.hasOwn(SUBJECT_FACTS, kind) ? SUBJECT_FACTS[kind] : undefined;
}

/** Appends an absence's state to its employee's chain, as the row stands now (after a request or a decision). */
export async function chainAbsence(
  tx: Executor,
  companyId: string,
  absenceId: string,
  at: Date,
): Promise<void> {
  const [row] = await absenceFacts(tx, companyId, [absenceId]);
  if (!row) return;
  await appendToChain(tx, companyId, row.employee_id, {
    kind: 'absence',
    subjectId: row.id,
    content: absenceFactContent(row),
    recordedAt: at,
  });
}

/** Appends a holiday added (as the row stands) or removed (as it stood) to the company's chain. */
export async function chainHoliday(
  tx: Executor,
  companyId: string,
  row: { id: string; date: string; name: string; location_id: string | null },
  status: 'added' | 'removed',
  at: Date,
): Promise<void> {
  await appendToCompanyChain(tx, companyId, {
    kind: 'holiday',
    subjectId: row.id,
    content: holidayFactContent(row, status),
    recordedAt: at,
  });
}

/** Appends an access grant's state to the company's chain (at its creation and at its revocation). */
export async function chainGrant(tx: Executor, companyId: string, grantId: string, at: Date): Promise<void> {
  const [row] = await grantFacts(tx, companyId, [grantId]);
  if (!row) return;
  await appendToCompanyChain(tx, companyId, {
    kind: 'access_grant',
    subjectId: row.id,
    content: grantFactContent(row),
    recordedAt: at,
  });
}

/** Appends one access to the registry to the company's chain: the access log is chained. */
export async function chainAccess(tx: Executor, companyId: string, accessId: string): Promise<void> {
  const [row] = await accessFacts(tx, companyId, [accessId]);
  if (!row) return;
  await appendToCompanyChain(tx, companyId, {
    kind: 'registry_access',
    subjectId: row.id,
    content: accessFactContent(row),
    recordedAt: row.at,
  });
}

type EmployeeFact = Awaited<ReturnType<typeof employeeFacts>>[number];

/**
 * An employee as the registry prints and computes them (issue 34): identity, work centre, employment dates, time
 * zone, tracking start, opening balance and every contract period. Appended at every change.
 */
export function employeeFactContent(row: EmployeeFact): Record<string, unknown> {
  return {
    employee_id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    national_id: row.national_id,
    social_security_number: row.social_security_number,
    location_id: row.location_id,
    hire_date: row.hire_date,
    termination_date: row.termination_date,
    timezone: row.timezone,
    tracking_start_date: row.tracking_start_date,
    opening_banked_minutes: row.opening_banked_minutes,
    contracts: row.contracts.map((contract) => ({
      effective_from: contract.effective_from,
      work_schedule: contract.work_schedule,
      vacation_days_per_year: Number(contract.vacation_days_per_year),
      // Part-time terms (migration 0049) are stated when a period has any, so that the chains of full-time
      // employees recorded before them stay what they were.
      ...(contract.contract_type === 'full_time' &&
      contract.weekly_minutes === null &&
      contract.overtime_compensation === null
        ? {}
        : termsOf(contract)),
    })),
  };
}

type CompanyFact = Awaited<ReturnType<typeof companyFacts>>[number];

/** A company's settings that its documents print or its figures follow (issue 34), in its own chain. */
export function companyFactContent(row: CompanyFact): Record<string, unknown> {
  return {
    company_id: row.id,
    name: row.name,
    legal_name: row.legal_name,
    tax_id: row.tax_id,
    timezone: row.timezone,
    tracking_start_date: row.tracking_start_date,
    late_record_hours: row.late_record_hours,
    registry_policy: row.registry_policy,
    // Stated once a company pays overtime (migration 0049), so the chains recorded before stay what they were.
    ...(row.overtime_compensation === 'paid' ? { overtime_compensation: row.overtime_compensation } : {}),
  };
}

/** A work centre as the documents print it (issue 34), in the company's chain. */
export function locationFactContent(row: {
  id: string;
  name: string;
  address: string | null;
  ccc: string | null;
  location_capture?: string;
  geofence?: unknown;
}): Record<string, unknown> {
  return {
    location_id: row.id,
    name: row.name,
    address: row.address,
    ccc: row.ccc,
    // Recorded only while a centre asks for the position at the punch (older entries: their text is unchanged).
    ...(row.location_capture === 'at_punch'
      ? { location_capture: row.location_capture, geofence: row.geofence ?? null }
      : {}),
  };
}

/** Appends an employee's state to their chain (after a hire, a change, a contract period, a termination). */
export async function chainEmployee(
  tx: Executor,
  companyId: string,
  employeeId: string,
  at: Date,
): Promise<void> {
  const [row] = await employeeFacts(tx, companyId, [employeeId]);
  if (!row) return;
  await appendToChain(tx, companyId, employeeId, {
    kind: 'employee',
    subjectId: row.id,
    content: employeeFactContent(row),
    recordedAt: at,
  });
}

/** Appends a company's settings to its chain (after a change). */
export async function chainCompany(tx: Executor, companyId: string, at: Date): Promise<void> {
  const [row] = await companyFacts(tx, [companyId]);
  if (!row) return;
  await appendToCompanyChain(tx, companyId, {
    kind: 'company',
    subjectId: row.id,
    content: companyFactContent(row),
    recordedAt: at,
  });
}

/** Appends a work centre's state to the company's chain (after its creation or a change). */
export async function chainLocation(
  tx: Executor,
  companyId: string,
  locationId: string,
  at: Date,
): Promise<void> {
  const [row] = await locationFacts(tx, companyId, [locationId]);
  if (!row) return;
  await appendToCompanyChain(tx, companyId, {
    kind: 'location',
    subjectId: row.id,
    content: locationFactContent(row),
    recordedAt: at,
  });
}

/**
 * The rows behind company-chain and state facts, as canonical text by subject id, for verification: what the
 * last entry of each subject must say now.
 */
export const STATE_FACTS: Record<string, FactsNow> = {
  absence: factsNow('absence', absenceFacts, absenceFactContent),
  holiday: factsNow('holiday', holidayFacts, (row) => holidayFactContent(row, 'added')),
  access_grant: factsNow('access_grant', grantFacts, grantFactContent),
  employee: factsNow('employee', employeeFacts, employeeFactContent),
  company: factsNow('company', (db, _companyId, ids) => companyFacts(db, ids), companyFactContent),
  location: factsNow('location', locationFacts, locationFactContent),
  registry_access: factsNow('registry_access', accessFacts, accessFactContent),
};

/** What a closed month's documents print of the company, the centre and the worker: as it was at the close. */
export type IdentityAtClose = {
  closedAt: Date;
  seal: string | null;
  company: {
    name: string;
    legal_name: string | null;
    tax_id: string | null;
    registry_policy: string | null;
  } | null;
  worker: {
    first_name: string;
    last_name: string;
    national_id: string | null;
    social_security_number: string | null;
    location_id: string | null;
    hire_date: string | null;
    termination_date: string | null;
    /** The contract periods as chained (effective_from, work_schedule in minutes Monday to Sunday). */
    contracts: Array<{ effective_from: string; work_schedule: number[] }> | null;
  } | null;
  centre: { name: string; address: string | null; ccc: string | null } | null;
};

const parsed = (text: string | undefined): Record<string, unknown> | null => {
  if (text === undefined) return null;
  const value: unknown = JSON.parse(text);
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
};
const textOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/**
 * The identity a closed month's documents print (issue 34, "A closed month is sealed"): the company's, the work
 * centre's and the worker's states as their chains recorded them at the closing instant, so that a later move,
 * a new legal name or a corrected national id never rewrites a closed month's documents. Null while the month
 * is open (its documents print today's identity).
 */
export async function identityAtClose(
  db: Executor,
  tenant: { companyId: string; accountId: string },
  employeeId: string,
  month: string,
): Promise<IdentityAtClose | null> {
  const closing = await closingOf(db, tenant.companyId, month);
  if (!closing) return null;
  const at = closing.closed_at;
  const company = parsed(await companyStateAt(db, tenant.accountId, 'company', tenant.accountId, at));
  const worker = parsed(await employeeStateAt(db, tenant.companyId, employeeId, 'employee', at));
  const locationId = textOrNull(worker?.location_id);
  const centre = locationId
    ? parsed(await companyStateAt(db, tenant.companyId, 'location', locationId, at))
    : null;
  return {
    closedAt: at,
    seal: closing.seal === null ? null : closing.seal.toString('hex'),
    company: company
      ? {
          name: String(company.name),
          legal_name: textOrNull(company.legal_name),
          tax_id: textOrNull(company.tax_id),
          registry_policy: textOrNull(company.registry_policy),
        }
      : null,
    worker: worker
      ? {
          first_name: String(worker.first_name),
          last_name: String(worker.last_name),
          national_id: textOrNull(worker.national_id),
          social_security_number: textOrNull(worker.social_security_number),
          location_id: locationId,
          hire_date: textOrNull(worker.hire_date),
          termination_date: textOrNull(worker.termination_date),
          contracts: Array.isArray(worker.contracts)
            ? (worker.contracts as Array<{ effective_from: string; work_schedule: number[] }>)
            : null,
        }
      : null,
    centre: centre
      ? { name: String(centre.name), address: textOrNull(centre.address), ccc: textOrNull(centre.ccc) }
      : null,
  };
}

/**
 * The resets of a worker's portal login the company made (issue 35), from the worker's chain: when, and who.
 * The portal shows them to the worker and every later document of the worker prints them.
 */
export async function credentialResetsOf(
  db: Executor,
  companyId: string,
  employeeId: string,
): Promise<Array<{ at: Date; by: { type: string; id: string } }>> {
  return (await entriesOfKind(db, companyId, employeeId, 'credential_reset')).map((row) => {
    const content = JSON.parse(row.content) as { by?: { type?: string; id?: string } };
    return { at: row.recorded_at, by: { type: String(content.by?.type), id: String(content.by?.id) } };
  });
}
