import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { chainHash, GENESIS } from '../registry/registry.service.ts';
import {
  bundleCompanyEntries,
  bundleDocuments,
  bundleEmployeeEntries,
  bundleMonth,
} from './verification.repo.ts';

/**
 * A closed month's registry bundle (docs/registry.md, "A copy anyone can verify"): everything needed to check, with
 * no database and no trust in Jornada, that the month's chains still give the month's seal. One JSON document a
 * line: the manifest first, then every entry of each chain of the month's workers from its first entry through
 * the month's closing (or its sealed documents' entries), then the company's chain through the month's seal (or
 * its CSV's entries), then each sealed document of the month with its bytes (base64) and the SHA-256 its entry
 * recorded. `jornada registry export` writes it,
 * `jornada registry verify-bundle` checks it (verifyBundle, pure).
 */
export const BUNDLE_FORMAT = 'jornada-registry-bundle-1';

type BundleEntry = {
  chain: string;
  seq: number;
  kind: string;
  subject_id: string | null;
  content: string;
  recorded_at: string;
  previous_hash: string;
  hash: string;
};

/** A sealed document in a bundle: its bytes, base64, and the SHA-256 its chain entry recorded. */
type BundleDocument = {
  id: string;
  employee_id: string | null;
  version: number;
  format: string;
  locale: string;
  sha256: string;
  content: string;
};

export type BundleManifest = {
  format: typeof BUNDLE_FORMAT;
  company: { id: string; name: string; legal_name: string | null; tax_id: string | null };
  month: string;
  closed_at: string;
  seal: string;
  employees: string[];
};

/** The month's bundle as lines of JSON, or null when the month is not closed. */
export async function exportBundle(db: Db, companyId: string, month: string): Promise<string[] | null> {
  return await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const closed = await bundleMonth(tx, companyId, month);
      if (!closed || closed.seal === null) return null;
      const lines: string[] = [];
      const employees: string[] = [];
      const entries: string[] = [];
      for (const row of await bundleEmployeeEntries(tx, companyId, month)) {
        if (!employees.includes(row.employee_id)) employees.push(row.employee_id);
        entries.push(JSON.stringify(entryOf(`employee:${row.employee_id}`, row)));
      }
      for (const row of await bundleCompanyEntries(tx, companyId, month)) {
        entries.push(JSON.stringify(entryOf('company', row)));
      }
      const manifest: BundleManifest = {
        format: BUNDLE_FORMAT,
        company: { id: companyId, name: closed.name, legal_name: closed.legal_name, tax_id: closed.tax_id },
        month,
        closed_at: closed.closed_at.toISOString(),
        seal: closed.seal.toString('hex'),
        employees,
      };
      lines.push(JSON.stringify({ manifest }), ...entries);
      for (const row of await bundleDocuments(tx, companyId, month)) {
        const document: BundleDocument = {
          id: row.id,
          employee_id: row.employee_id,
          version: row.version,
          format: row.format,
          locale: row.locale,
          sha256: row.sha256.toString('hex'),
          content: row.content.toString('base64'),
        };
        lines.push(JSON.stringify({ document }));
      }
      return lines;
    });
}

function entryOf(
  chain: string,
  row: {
    seq: number | string;
    kind: string;
    subject_id: string | null;
    content: string;
    recorded_at: Date;
    previous_hash: Buffer;
    hash: Buffer;
  },
): BundleEntry {
  return {
    chain,
    seq: Number(row.seq),
    kind: row.kind,
    subject_id: row.subject_id,
    content: row.content,
    recorded_at: row.recorded_at.toISOString(),
    previous_hash: row.previous_hash.toString('hex'),
    hash: row.hash.toString('hex'),
  };
}

export type BundleVerification = {
  ok: boolean;
  month: string | null;
  seal: string | null;
  entries: number;
  problems: Array<{ kind: string; line: number; expected: string; found: string }>;
};

/**
 * Checks a bundle with nothing but its text: every chain links from the genesis and every hash recomputes; each
 * worker of the manifest has the month's closing entry; the seal recomputed from those closings equals the
 * manifest's, and the company chain's seal entry says the same. Pure: no database, no clock.
 */
export function verifyBundle(lines: readonly string[]): BundleVerification {
  const problems: BundleVerification['problems'] = [];
  const problem = (kind: string, line: number, expected: string, found: string) =>
    problems.push({ kind, line, expected, found });
  let manifest: BundleManifest | null = null;
  try {
    manifest = (JSON.parse(lines[0] ?? '{}') as { manifest?: BundleManifest }).manifest ?? null;
  } catch {
    manifest = null;
  }
  if (!manifest || manifest.format !== BUNDLE_FORMAT) {
    return {
      ok: false,
      month: null,
      seal: null,
      entries: 0,
      problems: [{ kind: 'not_a_bundle', line: 1, expected: BUNDLE_FORMAT, found: String(manifest?.format) }],
    };
  }
  const heads = new Map<string, { hash: string; seq: number }>();
  const closings = new Map<string, string>();
  let sealed: string | null = null;
  let entries = 0;
  const documents: Array<{ line: number; document: BundleDocument }> = [];
  // The SHA-256 each sealed document's entry recorded, by document id.
  const recorded = new Map<string, string>();
  for (const [index, text] of lines.slice(1).entries()) {
    const line = index + 2;
    if (text.trim() === '') continue;
    let entry: BundleEntry;
    try {
      const parsed = JSON.parse(text) as BundleEntry | { document: BundleDocument };
      if ('document' in parsed) {
        documents.push({ line, document: parsed.document });
        continue;
      }
      entry = parsed;
    } catch {
      problem('unreadable_line', line, 'a JSON entry', text.slice(0, 80));
      continue;
    }
    entries += 1;
    const head = heads.get(entry.chain) ?? { hash: GENESIS.toString('hex'), seq: 0 };
    if (entry.seq !== head.seq + 1)
      problem('chain_sequence', line, `entry ${head.seq + 1}`, `entry ${entry.seq}`);
    if (entry.previous_hash !== head.hash) problem('chain_link', line, head.hash, entry.previous_hash);
    const hash = chainHash(Buffer.from(entry.previous_hash, 'hex'), entry.content).toString('hex');
    if (hash !== entry.hash) problem('chain_hash', line, hash, entry.hash);
    heads.set(entry.chain, { hash: entry.hash, seq: entry.seq });
    const content = parse(entry.content);
    if (entry.kind === 'month_close' && content.month === manifest.month)
      closings.set(entry.chain, entry.hash);
    if (entry.kind === 'month_sealed' && content.month === manifest.month) sealed = String(content.seal);
    if (entry.kind === 'month_document' && content.month === manifest.month)
      recorded.set(String(content.document_id), String(content.sha256));
  }
  // Each document's bytes hash to what its chain entry recorded: a file swapped in the copy is named.
  for (const { line, document } of documents) {
    const actual = createHash('sha256').update(Buffer.from(document.content, 'base64')).digest('hex');
    const expected = recorded.get(document.id);
    if (expected === undefined)
      problem('document_without_entry', line, `an entry for ${document.id}`, 'none');
    else if (actual !== expected) problem('document_mismatch', line, expected, actual);
  }
  const seal = createHash('sha256')
    .update(
      [...manifest.employees]
        .sort()
        .map((employee) => {
          const closing = closings.get(`employee:${employee}`);
          if (!closing) problem('closing_missing', 0, `the ${manifest.month} closing of ${employee}`, 'none');
          return `${employee}:${closing ?? ''}\n`;
        })
        .join(''),
      'utf8',
    )
    .digest('hex');
  if (seal !== manifest.seal) problem('seal_mismatch', 0, manifest.seal, seal);
  if (sealed !== manifest.seal) problem('seal_entry', 0, manifest.seal, sealed ?? 'no month_sealed entry');
  return { ok: problems.length === 0, month: manifest.month, seal: manifest.seal, entries, problems };
}

function parse(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
