import { createHash } from 'node:crypto';
import type { Executor } from '../../db/database.ts';
import {
  checkInFacts,
  correctionFacts,
  insertEntry,
  lastEntry,
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
): Promise<void> {
  const last = await lastEntry(tx, companyId, employeeId);
  const previous = last ? last.hash : GENESIS;
  const content = canonicalJson({ kind: fact.kind, ...fact.content });
  await insertEntry(tx, {
    company_id: companyId,
    employee_id: employeeId,
    seq: (last ? Number(last.seq) : 0) + 1,
    kind: fact.kind,
    subject_id: fact.subjectId,
    content,
    recorded_at: fact.recordedAt,
    previous_hash: previous,
    hash: chainHash(previous, content),
  });
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
  };
}

/** The canonical content of a worker's answer to a check-in someone else recorded (issue 34). */
export function responseFactContent(row: {
  check_in_id: string;
  employee_id: string;
  response: string;
  reason: string | null;
  responded_at: Date;
}): Record<string, unknown> {
  return {
    check_in_id: row.check_in_id,
    employee_id: row.employee_id,
    response: row.response,
    reason: row.reason,
    responded_at: row.responded_at.toISOString(),
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

/**
 * The facts whose entries verification compares with the rows the database holds now: for each kind, the
 * canonical content each subject's row gives today, by subject id (a row that no longer says it is absent).
 */
const SUBJECT_FACTS: Record<
  string,
  (db: Executor, companyId: string, ids: string[]) => Promise<Map<string, string>>
> = {
  check_in: async (db, companyId, ids) =>
    new Map(
      (await checkInFacts(db, companyId, ids)).map((row) => [
        row.id,
        canonicalJson({ kind: 'check_in', ...checkInFactContent(row) }),
      ]),
    ),
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
  correction_requested: async (db, companyId, ids) =>
    new Map(
      (await correctionFacts(db, companyId, ids)).map((row) => [
        row.id,
        canonicalJson({ kind: 'correction_requested', ...correctionRequestContent(row) }),
      ]),
    ),
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
export function subjectFacts(
  kind: string,
): ((db: Executor, companyId: string, ids: string[]) => Promise<Map<string, string>>) | undefined {
  return Object.hasOwn(SUBJECT_FACTS, kind) ? SUBJECT_FACTS[kind] : undefined;
}
