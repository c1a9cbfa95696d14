import { createHash } from 'node:crypto';
import { type Db, type Executor, withoutStatementTimeout } from '../../db/database.ts';
import {
  checkInFacts,
  checkInsWithoutEntry,
  insertEntry,
  lastEntry,
  streamEntries,
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
}): Record<string, unknown> {
  return {
    check_in_id: row.id,
    employee_id: row.employee_id,
    type: row.type,
    timestamp: `${row.timestamp.toISOString().slice(0, 19)}Z`,
    source: row.source,
    recorded_at: row.recorded_at.toISOString(),
    recorded_by: { type: row.recorded_by_type, id: row.recorded_by_id },
    work_mode: row.work_mode,
    late: row.late,
  };
}

export type Verification =
  | { ok: true; entries: number }
  | {
      ok: false;
      entries: number;
      broken: { employee_id: string; entry: number; expected: string; found: string };
    };

const CHUNK = 1_000;

/**
 * Recomputes every chain (of one company, or of all) and compares each check-in's recorded fact with the row the
 * database holds now. Names the first broken entry: a hash that does not follow, a link to a previous hash that
 * is not the previous entry's, a seq out of order, or a check-in whose row no longer says what was recorded (or
 * that no entry records).
 */
export async function verifyChains(db: Db, companyId: string | null): Promise<Verification> {
  // One long streamed read: in a transaction that lifts the statement timeout (the cursor is one statement).
  return await withoutStatementTimeout(db, (tx) => verifyWithin(tx, companyId));
}

async function verifyWithin(db: Executor, companyId: string | null): Promise<Verification> {
  let entries = 0;
  let chain: { company: string; employee: string; hash: Buffer; seq: number } | null = null;
  let pending: Array<{
    company_id: string;
    employee_id: string;
    seq: number;
    content: string;
    subject: string;
  }> = [];

  const checkPending = async (): Promise<Verification | null> => {
    const byCompany = new Map<string, typeof pending>();
    for (const item of pending)
      byCompany.set(item.company_id, [...(byCompany.get(item.company_id) ?? []), item]);
    pending = [];
    for (const [company, items] of byCompany) {
      const rows = new Map(
        (
          await checkInFacts(
            db,
            company,
            items.map((item) => item.subject),
          )
        ).map((row) => [row.id, row]),
      );
      for (const item of items) {
        const row = rows.get(item.subject);
        const found = row
          ? canonicalJson({ kind: 'check_in', ...checkInFactContent(row) })
          : 'no such check-in';
        const expected = canonicalJson(JSON.parse(item.content));
        if (found !== expected) {
          return {
            ok: false,
            entries,
            broken: { employee_id: item.employee_id, entry: item.seq, expected, found },
          };
        }
      }
    }
    return null;
  };

  for await (const entry of streamEntries(db, companyId, CHUNK)) {
    entries += 1;
    const seq = Number(entry.seq);
    if (chain === null || chain.company !== entry.company_id || chain.employee !== entry.employee_id) {
      chain = { company: entry.company_id, employee: entry.employee_id, hash: GENESIS, seq: 0 };
    }
    const expectedHash = chainHash(chain.hash, entry.content);
    const broken = (expected: string, found: string): Verification => ({
      ok: false,
      entries,
      broken: { employee_id: entry.employee_id, entry: seq, expected, found },
    });
    if (seq !== chain.seq + 1) return broken(`entry ${chain.seq + 1}`, `entry ${seq}`);
    if (!entry.previous_hash.equals(chain.hash)) {
      return broken(chain.hash.toString('hex'), entry.previous_hash.toString('hex'));
    }
    if (!entry.hash.equals(expectedHash))
      return broken(expectedHash.toString('hex'), entry.hash.toString('hex'));
    chain = { ...chain, hash: entry.hash, seq };
    if (entry.kind === 'check_in' && entry.subject_id) {
      pending.push({
        company_id: entry.company_id,
        employee_id: entry.employee_id,
        seq,
        content: entry.content,
        subject: entry.subject_id,
      });
      if (pending.length >= CHUNK) {
        const failure = await checkPending();
        if (failure) return failure;
      }
    }
  }
  const failure = await checkPending();
  if (failure) return failure;
  const [orphan] = await checkInsWithoutEntry(db, companyId);
  if (orphan) {
    return {
      ok: false,
      entries,
      broken: {
        employee_id: orphan.employee_id,
        entry: 0,
        expected: 'a registry entry',
        found: `check-in ${orphan.id} without one`,
      },
    };
  }
  return { ok: true, entries };
}
