import type { Db, Executor } from '../../db/database.ts';
import { monthRange } from '../../time/calendar.ts';
import type { Clock } from '../../time/clock.ts';
import { localDateOf } from '../../time/engine.ts';
import { documentFactContent } from '../month-documents/month-documents.service.ts';
import { type ApprovalSignature, checkStoredSignature } from '../passkeys/passkeys.service.ts';
import { sealOf } from '../registry/months.service.ts';
import {
  canonicalJson,
  chainHash,
  GENESIS,
  STATE_FACTS,
  subjectFacts,
} from '../registry/registry.service.ts';
import { storedFiguresDiffering } from '../workdays/consolidation.ts';
import {
  acknowledgementRows,
  acknowledgementsWithoutEntry,
  approvalFacts,
  closedMonthRows,
  closedMonthsWithSeals,
  companyEntriesAfter,
  documentRows,
  type EntryKey,
  employeesWithWorkdays,
  employeeZoneOf,
  entriesAfter,
  factsWithoutEntry,
  monthVersionRows,
} from './verification.repo.ts';

/**
 * Verification of the registry of record (docs/registry.md, "Verification"). One pass over every chain in chain
 * order, in keyset batches of bounded statements inside one repeatable-read transaction (one connection, one
 * consistent snapshot, the normal statement timeout on each statement), then one pass over every employee's
 * stored figures. It lists every problem it finds, up to PROBLEM_LIMIT, each with its kind:
 *
 * - `chain_sequence`, `chain_link`, `chain_hash`: an entry missing, reordered, relinked or rewritten;
 * - `fact_mismatch`: a fact's row (a check-in, a void, a correction request, an approval) no longer says what its
 *   entry recorded, or is gone;
 * - `fact_without_entry`: a row (a check-in, a void, an approval on either side, an acknowledgement) that no
 *   entry records: written behind the application's back (a forged approval, a check-in inserted by SQL);
 * - `entry_without_fact`: an entry whose row is gone (a deleted acknowledgement, a deleted closing);
 * - `recorded_into_closed_month`: a check-in entered the chain after a closing sealed its day, other than through
 *   a correction (a closing deleted and put back around a back-dated check-in);
 * - `figures_mismatch`: a day's stored figures are not what its facts give (figures edited, facts removed);
 * - `document_mismatch`: a closed month's stored document (PDF, XLSX or CSV) no longer hashes to the SHA-256 its
 *   entry recorded (a file swapped or edited);
 * - `approval_signature`: a worker's approval signed with a passkey whose signature does not verify against the
 *   public key the worker's chain registered, or signs another approval (a forged or moved signature);
 * - `seal_mismatch`: a closed month's seal as the chains give it now differs from the one stored at the close,
 *   or from a seal a worker or an inspector kept (a whole chain rewritten consistently).
 * State facts (an absence, a holiday, an access grant) are compared by their last entry; the company's own chain
 * (holidays, grants, each access to the registry, seals) is verified like an employee's.
 */
export type Problem = {
  kind: string;
  employee_id?: string;
  entry?: number;
  expected: string;
  found: string;
};

export type Verification = {
  ok: boolean;
  entries: number;
  problems: Problem[];
  /** More problems were found than listed. */
  problems_truncated?: boolean;
  /** The first problem (kept from the first version of this answer). */
  broken?: { employee_id: string; entry: number; expected: string; found: string };
};

export const PROBLEM_LIMIT = 1_000;
const BATCH = 2_000;

type Chain = {
  company: string;
  employee: string;
  hash: Buffer;
  seq: number;
  /** The last day sealed by a closing already in this chain. */
  sealedThrough: string | null;
  zone: string | null;
  /** The worker's passkeys this chain registered so far: credential id → public key (base64url COSE). */
  passkeys: Map<string, string>;
  /** The corrections this chain requested so far: id → what they void and add, and why (canonical JSON). */
  requests: Map<string, string>;
};

class Findings {
  readonly problems: Problem[] = [];
  truncated = false;
  add(problem: Problem): void {
    if (this.problems.length < PROBLEM_LIMIT) this.problems.push(problem);
    else this.truncated = true;
  }
}

export async function verifyRegistry(
  deps: { db: Db; clock: Clock },
  companyId: string | null,
  options: { seals?: ReadonlyMap<string, string> } = {},
): Promise<Verification> {
  return await deps.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const findings = new Findings();
      const entries =
        (await verifyChains(tx, companyId, findings)) + (await verifyCompanyChains(tx, companyId, findings));
      await verifyRowsHaveEntries(tx, companyId, findings);
      await verifySeals(tx, companyId, options.seals ?? new Map(), findings);
      await verifyFigures(tx, companyId, new Date(deps.clock.now().epochMilliseconds), findings);
      const [first] = findings.problems;
      return {
        ok: findings.problems.length === 0,
        entries,
        problems: findings.problems,
        ...(findings.truncated ? { problems_truncated: true } : {}),
        ...(first
          ? {
              broken: {
                employee_id: first.employee_id ?? '00000000-0000-0000-0000-000000000000',
                entry: first.entry ?? 0,
                expected: first.expected,
                found: first.found,
              },
            }
          : {}),
      };
    });
}

type Entry = Awaited<ReturnType<typeof entriesAfter>>[number];

async function verifyChains(tx: Executor, companyId: string | null, findings: Findings): Promise<number> {
  let entries = 0;
  let chain: Chain | null = null;
  let after: EntryKey | null = null;
  const states = new LastStates();
  for (;;) {
    const batch = await entriesAfter(tx, companyId, after, BATCH);
    if (batch.length === 0) break;
    for (const entry of batch) {
      entries += 1;
      if (chain === null || chain.company !== entry.company_id || chain.employee !== entry.employee_id) {
        await states.flush(tx, findings);
        chain = {
          company: entry.company_id,
          employee: entry.employee_id,
          hash: GENESIS,
          seq: 0,
          sealedThrough: null,
          zone: null,
          passkeys: new Map(),
          requests: new Map(),
        };
      }
      chain = checkLink(chain, entry, findings);
      chain = await checkSealedDays(tx, chain, entry, findings);
      await checkSignature(chain, entry, findings);
      states.note(entry.company_id, entry.employee_id, entry);
    }
    await checkFacts(tx, batch, findings);
    const last = batch[batch.length - 1] as Entry;
    after = { company_id: last.company_id, employee_id: last.employee_id, seq: Number(last.seq) };
  }
  await states.flush(tx, findings);
  return entries;
}

/**
 * The last entry of each subject of a state fact (an absence, a holiday, an access grant) in one chain: the row
 * must say now what that entry says (a holiday whose last entry removed it must be gone). Kept for one chain at a
 * time, and compared when the chain ends.
 */
class LastStates {
  #company = '';
  #employee: string | null = null;
  #last = new Map<string, { kind: string; content: string; seq: number }>();

  note(
    company: string,
    employee: string | null,
    entry: { kind: string; subject_id: string | null; content: string; seq: number | string },
  ) {
    if (!(entry.kind in STATE_FACTS) || entry.subject_id === null) return;
    this.#company = company;
    this.#employee = employee;
    this.#last.set(entry.subject_id, { kind: entry.kind, content: entry.content, seq: Number(entry.seq) });
  }

  async flush(tx: Executor, findings: Findings): Promise<void> {
    const byKind = new Map<string, string[]>();
    for (const [subject, state] of this.#last) {
      byKind.set(state.kind, [...(byKind.get(state.kind) ?? []), subject]);
    }
    for (const [kind, subjects] of byKind) {
      const rows = await (STATE_FACTS[kind] as NonNullable<(typeof STATE_FACTS)[string]>)(
        tx,
        this.#company,
        subjects,
      );
      for (const subject of subjects) {
        const state = this.#last.get(subject);
        if (!state) continue;
        const recorded = parseContent(state.content);
        const expected = canonicalJson(recorded);
        const removed = recorded.status === 'removed';
        const now = rows.get(subject);
        if (removed ? now === undefined : now === expected) continue;
        findings.add({
          kind: now === undefined ? 'entry_without_fact' : 'fact_mismatch',
          ...(this.#employee === null ? {} : { employee_id: this.#employee }),
          entry: state.seq,
          expected: removed ? `no ${kind} ${subject}: its last entry removed it` : expected,
          found: now ?? `no such ${kind} row`,
        });
      }
    }
    this.#last = new Map();
  }
}

type CompanyEntry = Awaited<ReturnType<typeof companyEntriesAfter>>[number];

/**
 * The company chains: links, each access to the registry and each seal against its row, and the last state of
 * each holiday and access grant against theirs.
 */
async function verifyCompanyChains(
  tx: Executor,
  companyId: string | null,
  findings: Findings,
): Promise<number> {
  let entries = 0;
  let chain: { company: string; hash: Buffer; seq: number } | null = null;
  let after: { company_id: string; seq: number } | null = null;
  const states = new LastStates();
  for (;;) {
    const batch = await companyEntriesAfter(tx, companyId, after, BATCH);
    if (batch.length === 0) break;
    for (const entry of batch) {
      entries += 1;
      if (chain === null || chain.company !== entry.company_id) {
        await states.flush(tx, findings);
        chain = { company: entry.company_id, hash: GENESIS, seq: 0 };
      }
      const seq = Number(entry.seq);
      const problem = (kind: string, expected: string, found: string) =>
        findings.add({ kind, entry: seq, expected: `company ${entry.company_id}: ${expected}`, found });
      if (seq !== chain.seq + 1) problem('chain_sequence', `entry ${chain.seq + 1}`, `entry ${seq}`);
      if (!entry.previous_hash.equals(chain.hash)) {
        problem('chain_link', chain.hash.toString('hex'), entry.previous_hash.toString('hex'));
      }
      const expectedHash = chainHash(entry.previous_hash, entry.content);
      if (!entry.hash.equals(expectedHash)) {
        problem('chain_hash', expectedHash.toString('hex'), entry.hash.toString('hex'));
      }
      chain = { ...chain, hash: entry.hash, seq };
      states.note(entry.company_id, null, entry);
    }
    await checkCompanyFacts(tx, batch, findings);
    const last = batch[batch.length - 1] as CompanyEntry;
    after = { company_id: last.company_id, seq: Number(last.seq) };
  }
  await states.flush(tx, findings);
  return entries;
}

/** Each access entry against its row, and each seal entry against its closed month's stored seal. */
async function checkCompanyFacts(
  tx: Executor,
  batch: readonly CompanyEntry[],
  findings: Findings,
): Promise<void> {
  const seals = new Map<string, Buffer | null>();
  for (const entry of batch) {
    if (entry.kind !== 'month_sealed') continue;
    if (!seals.has(entry.company_id)) {
      for (const row of await closedMonthsWithSeals(tx, entry.company_id)) {
        seals.set(`${entry.company_id}|${row.month}`, row.seal);
      }
      seals.set(entry.company_id, null);
    }
    const content = parseContent(entry.content);
    const stored = seals.get(`${entry.company_id}|${String(content.month)}`);
    const found = stored === undefined ? 'no such closed month' : (stored?.toString('hex') ?? 'no seal');
    if (found !== content.seal) {
      findings.add({
        kind: stored === undefined ? 'entry_without_fact' : 'fact_mismatch',
        entry: Number(entry.seq),
        expected: `the seal of ${String(content.month)}: ${String(content.seal)}`,
        found,
      });
    }
  }
  const documents = new Map<string, CompanyEntry[]>();
  for (const entry of batch.filter((item) => item.kind === 'month_document'))
    documents.set(entry.company_id, [...(documents.get(entry.company_id) ?? []), entry]);
  for (const [company, entries] of documents) await checkDocuments(tx, company, entries, findings);
  const accesses = batch.filter((entry) => entry.kind === 'registry_access' && entry.subject_id !== null);
  const byCompany = new Map<string, CompanyEntry[]>();
  for (const entry of accesses)
    byCompany.set(entry.company_id, [...(byCompany.get(entry.company_id) ?? []), entry]);
  for (const [company, entries] of byCompany) {
    const rows = await (STATE_FACTS.registry_access as NonNullable<(typeof STATE_FACTS)[string]>)(
      tx,
      company,
      entries.map((entry) => entry.subject_id as string),
    );
    for (const entry of entries) {
      const expected = canonicalJson(parseContent(entry.content));
      const now = rows.get(entry.subject_id as string);
      if (now === expected) continue;
      findings.add({
        kind: now === undefined ? 'entry_without_fact' : 'fact_mismatch',
        entry: Number(entry.seq),
        expected,
        found: now ?? 'no such registry_access row',
      });
    }
  }
}

/**
 * Each closed month's seal as the chains give it now, against the stored one and against the seals a worker or
 * an inspector kept (`--seal MONTH=SEAL`): a chain rewritten consistently still changes its closing entry's hash.
 */
async function verifySeals(
  tx: Executor,
  companyId: string | null,
  kept: ReadonlyMap<string, string>,
  findings: Findings,
): Promise<void> {
  const months = await closedMonthsWithSeals(tx, companyId);
  for (const row of months) {
    const now = (await sealOf(tx, row.company_id, row.month)).toString('hex');
    const stored = row.seal?.toString('hex') ?? null;
    if (stored !== null && stored !== now) {
      findings.add({
        kind: 'seal_mismatch',
        expected: `${row.month}: ${stored} (stored at the close)`,
        found: now,
      });
    }
  }
  for (const [month, seal] of kept) {
    const row = months.find((item) => item.month === month);
    const now = row ? (await sealOf(tx, row.company_id, month)).toString('hex') : 'no such closed month';
    if (now !== seal.toLowerCase()) {
      findings.add({ kind: 'seal_mismatch', expected: `${month}: ${seal} (the seal kept)`, found: now });
    }
  }
}

/** The entry's place in its chain: its seq follows, it links to the previous hash, its own hash recomputes. */
function checkLink(chain: Chain, entry: Entry, findings: Findings): Chain {
  const seq = Number(entry.seq);
  const problem = (kind: string, expected: string, found: string) =>
    findings.add({ kind, employee_id: entry.employee_id, entry: seq, expected, found });
  if (seq !== chain.seq + 1) problem('chain_sequence', `entry ${chain.seq + 1}`, `entry ${seq}`);
  if (!entry.previous_hash.equals(chain.hash)) {
    problem('chain_link', chain.hash.toString('hex'), entry.previous_hash.toString('hex'));
  }
  const expectedHash = chainHash(entry.previous_hash, entry.content);
  if (!entry.hash.equals(expectedHash))
    problem('chain_hash', expectedHash.toString('hex'), entry.hash.toString('hex'));
  // Go on from what the entry says, so that one broken entry is named once, not every entry after it.
  return { ...chain, hash: entry.hash, seq };
}

/**
 * A closing seals the days through its month's end; a check-in that enters the chain after it, dated on a sealed
 * day, came in behind the closing's back unless a correction added it.
 */
async function checkSealedDays(tx: Executor, chain: Chain, entry: Entry, findings: Findings): Promise<Chain> {
  const content = parseContent(entry.content);
  if (entry.kind === 'month_close' && typeof content.month === 'string') {
    const last = monthRange(content.month).to;
    return {
      ...chain,
      sealedThrough: chain.sealedThrough && chain.sealedThrough > last ? chain.sealedThrough : last,
    };
  }
  if (entry.kind !== 'check_in' || chain.sealedThrough === null || content.source === 'correction')
    return chain;
  if (typeof content.timestamp !== 'string') return chain;
  const zone = chain.zone ?? (await employeeZone(tx, chain.company, chain.employee));
  const date = localDateOf(Temporal.Instant.from(content.timestamp), zone);
  if (date <= chain.sealedThrough) {
    findings.add({
      kind: 'recorded_into_closed_month',
      employee_id: entry.employee_id,
      entry: Number(entry.seq),
      expected: `no check-in on or before ${chain.sealedThrough} after its closing, but through a correction`,
      found: `a check-in of ${date} recorded after the closing`,
    });
  }
  return { ...chain, zone };
}

/**
 * A worker's approval signed with a passkey (issue 35): the assertion must verify against the public key an
 * earlier entry of the same chain registered, and the approval it signs must be this entry's (this worker, this
 * correction as requested, this month and version). Otherwise `approval_signature`.
 */
async function checkSignature(chain: Chain, entry: Entry, findings: Findings): Promise<void> {
  const content = parseContent(entry.content);
  if (entry.kind === 'passkey_registered') {
    chain.passkeys.set(String(content.credential_id), String(content.public_key));
    return;
  }
  if (entry.kind === 'correction_requested') {
    chain.requests.set(String(content.correction_id), requestedChange(content));
    return;
  }
  // An answer to a record someone else made keeps it with its credential (the row holds both).
  const credential = content.credential as { signature?: ApprovalSignature } | undefined;
  const signature = (content.signature ?? credential?.signature) as ApprovalSignature | undefined;
  if (signature === undefined) return;
  const problem = (found: string) =>
    findings.add({
      kind: 'approval_signature',
      employee_id: entry.employee_id,
      entry: Number(entry.seq),
      expected: 'the signature, by a passkey this worker registered, of this very approval',
      found,
    });
  if (typeof signature !== 'object' || signature === null || typeof signature.approval !== 'object') {
    problem('a signature that is not one');
    return;
  }
  const key = chain.passkeys.get(String(signature.assertion?.id));
  if (key === undefined) {
    problem('a signature by a passkey this worker’s chain never registered');
    return;
  }
  const why = await checkStoredSignature(signature, key);
  if (why !== null) {
    problem(`a signature that does not verify (${why})`);
    return;
  }
  const approval = signature.approval;
  const signed = (() => {
    if (approval.company_id !== chain.company || approval.employee_id !== chain.employee) return false;
    if (entry.kind === 'correction_accepted') {
      const requested = chain.requests.get(String(content.correction_id));
      const idMatches =
        approval.action === 'correction_requested' ||
        (approval.action === 'correction_accepted' && approval.correction_id === content.correction_id);
      return idMatches && requested === requestedChange(approval);
    }
    if (entry.kind === 'check_in_accepted' || entry.kind === 'check_in_rejected') {
      return (
        approval.action === entry.kind &&
        approval.check_in_id === content.check_in_id &&
        (approval.reason ?? null) === (content.reason ?? null)
      );
    }
    if (entry.kind === 'month_acknowledged') {
      const version = typeof content.version === 'number' ? content.version : 1;
      return (
        approval.action === 'month_acknowledged' &&
        approval.month === content.month &&
        approval.version === version
      );
    }
    return false;
  })();
  if (!signed) problem(`a signature of another approval: ${canonicalJson(approval)}`);
}

const requestedChange = (content: Record<string, unknown>) =>
  canonicalJson({ reason: content.reason, void: content.void, add: content.add });

async function employeeZone(tx: Executor, companyId: string, employeeId: string): Promise<string> {
  return (await employeeZoneOf(tx, companyId, employeeId)) ?? 'UTC';
}

function parseContent(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Each entry of a batch that records a row compared with the row the database holds now. */
async function checkFacts(tx: Executor, batch: readonly Entry[], findings: Findings): Promise<void> {
  const groups = new Map<string, Entry[]>();
  for (const entry of batch) {
    const key = `${entry.company_id}|${entry.kind}`;
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  for (const [key, entries] of groups) {
    const [companyId, kind] = key.split('|') as [string, string];
    if (kind === 'month_document') {
      await checkDocuments(tx, companyId, entries, findings);
      continue;
    }
    const found = await factsNow(tx, companyId, kind, entries);
    if (!found) continue;
    for (const entry of entries) {
      const expected = canonicalJson(parseContent(entry.content));
      const now = found(entry) ?? `no such ${kind} row`;
      if (now !== expected) {
        findings.add({
          kind: now.startsWith('no such') ? 'entry_without_fact' : 'fact_mismatch',
          employee_id: entry.employee_id,
          entry: Number(entry.seq),
          expected,
          found: now,
        });
      }
    }
  }
}

/**
 * Each sealed document's entry against the stored file: its bytes must still hash to what the entry recorded
 * (`document_mismatch` otherwise), and the row must still be there (`entry_without_fact`).
 */
async function checkDocuments(
  tx: Executor,
  companyId: string,
  entries: ReadonlyArray<{
    seq: number | string;
    subject_id: string | null;
    content: string;
    employee_id?: string;
  }>,
  findings: Findings,
): Promise<void> {
  const ids = entries.map((entry) => entry.subject_id).filter((id): id is string => id !== null);
  const rows = new Map((await documentRows(tx, companyId, ids)).map((row) => [row.id, row]));
  for (const entry of entries) {
    const expected = canonicalJson(parseContent(entry.content));
    const row = entry.subject_id === null ? undefined : rows.get(entry.subject_id);
    const where = entry.employee_id === undefined ? {} : { employee_id: entry.employee_id };
    if (!row) {
      findings.add({
        kind: 'entry_without_fact',
        ...where,
        entry: Number(entry.seq),
        expected,
        found: 'no such document',
      });
      continue;
    }
    const now = canonicalJson({
      kind: 'month_document',
      ...documentFactContent({ ...row, sha256: row.actual }),
    });
    if (now !== expected || !row.sha256.equals(row.actual)) {
      findings.add({ kind: 'document_mismatch', ...where, entry: Number(entry.seq), expected, found: now });
    }
  }
}

/** How the rows behind a kind of entry read now, as the canonical text of the entry they should give. */
async function factsNow(
  tx: Executor,
  companyId: string,
  kind: string,
  entries: readonly Entry[],
): Promise<((entry: Entry) => string | undefined) | null> {
  const subjects = entries.map((entry) => entry.subject_id).filter((id): id is string => id !== null);
  const facts = subjectFacts(kind);
  if (facts) {
    const rows = await facts(tx, companyId, subjects);
    return (entry) => (entry.subject_id === null ? undefined : rows.get(entry.subject_id));
  }
  if (kind === 'correction_approved' || kind === 'correction_accepted') {
    const rows = new Map((await approvalFacts(tx, companyId, subjects)).map((row) => [row.id, row]));
    return (entry) => {
      const row = entry.subject_id === null ? undefined : rows.get(entry.subject_id);
      const content = parseContent(entry.content);
      if (!row) return undefined;
      const at = kind === 'correction_approved' ? row.company_approval_at : row.employee_approval_at;
      if (at === null) return `no ${kind} on correction ${row.id}`;
      const by =
        kind === 'correction_approved'
          ? { type: row.company_approval_by_type, id: row.company_approval_by_id }
          : content.by;
      // The signature is the entry's own (checkSignature verifies it); the row holds none.
      return canonicalJson({
        kind,
        correction_id: row.id,
        by,
        at: at.toISOString(),
        signature: kind === 'correction_accepted' ? content.signature : undefined,
      });
    };
  }
  if (kind === 'month_close') {
    const months = entries.map((entry) => String(parseContent(entry.content).month ?? ''));
    const closed = await closedMonthRows(tx, companyId, months);
    return (entry) => {
      const content = parseContent(entry.content);
      return closed.has(String(content.month)) ? canonicalJson(content) : undefined;
    };
  }
  if (kind === 'month_acknowledged') {
    const keys = entries.map((entry) => ({
      employee: entry.employee_id,
      month: String(parseContent(entry.content).month ?? ''),
    }));
    const given = await acknowledgementRows(tx, companyId, keys);
    return (entry) => {
      const content = parseContent(entry.content);
      const version = typeof content.version === 'number' ? content.version : 1;
      return given.has(`${entry.employee_id}|${String(content.month)}|${version}`)
        ? canonicalJson(content)
        : undefined;
    };
  }
  if (kind === 'month_version') {
    const versions = await monthVersionRows(tx, companyId, [
      ...new Set(entries.map((entry) => entry.employee_id)),
    ]);
    return (entry) => {
      const content = parseContent(entry.content);
      return versions.has(`${entry.employee_id}|${String(content.month)}|${String(content.version)}`)
        ? canonicalJson(content)
        : undefined;
    };
  }
  return null;
}

const ROW_LABELS: Record<string, string> = {
  check_in: 'check-in',
  check_in_void: 'check-in',
  correction_approved: "the company's approval of correction",
  correction_accepted: "the worker's acceptance of correction",
  check_in_accepted: "the worker's acceptance of check-in",
  check_in_rejected: "the worker's rejection of check-in",
  absence: 'absence',
  holiday: 'holiday',
  access_grant: 'access grant',
  registry_access: 'access to the registry',
  employee: 'employee',
  company: 'company',
  location: 'work centre',
  month_version: 'version of a closed month made by',
  month_document: 'sealed document',
};

/** Rows that no entry records. */
async function verifyRowsHaveEntries(
  tx: Executor,
  companyId: string | null,
  findings: Findings,
): Promise<void> {
  for (const row of await factsWithoutEntry(tx, companyId, PROBLEM_LIMIT)) {
    findings.add({
      kind: 'fact_without_entry',
      ...(row.employee_id === null ? {} : { employee_id: row.employee_id }),
      entry: 0,
      expected: `a registry entry of kind ${row.kind}`,
      found: `${ROW_LABELS[row.kind] ?? row.kind} ${row.subject} without one`,
    });
  }
  for (const row of await acknowledgementsWithoutEntry(tx, companyId, PROBLEM_LIMIT)) {
    findings.add({
      kind: 'fact_without_entry',
      employee_id: row.employee_id,
      entry: 0,
      expected: 'a registry entry of kind month_acknowledged',
      found: `an acknowledgement of ${row.month} without one`,
    });
  }
}

/** Every employee's stored day figures against what their facts give now, by the consolidation's own code. */
async function verifyFigures(
  tx: Executor,
  companyId: string | null,
  now: Date,
  findings: Findings,
): Promise<void> {
  let after: { company_id: string; id: string } | null = null;
  for (;;) {
    const employees = await employeesWithWorkdays(tx, companyId, after, 200);
    if (employees.length === 0) return;
    for (const employee of employees) {
      if (employee.first === null || employee.last === null) continue;
      const range = { from: employee.first, to: employee.last };
      const differing = await storedFiguresDiffering(
        tx,
        employee.company_id,
        employee.timezone,
        employee.id,
        range,
        now,
      );
      for (const day of differing) {
        findings.add({
          kind: 'figures_mismatch',
          employee_id: employee.id,
          entry: 0,
          expected: day.computed,
          found: day.stored,
        });
      }
    }
    const last = employees[employees.length - 1] as (typeof employees)[number];
    after = { company_id: last.company_id, id: last.id };
  }
}
