import { CompiledQuery, type LogEvent } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/**
 * EXPLAIN for the exact statements the service runs: a Kysely `log` hook records each compiled query, and
 * `explainQuery` runs EXPLAIN (ANALYZE, BUFFERS) on it with the same parameters.
 */
export type CapturedQuery = { sql: string; parameters: readonly unknown[] };

export function queryRecorder(): { log: (event: LogEvent) => void; take(): CapturedQuery[] } {
  let captured: CapturedQuery[] = [];
  return {
    log(event) {
      if (event.level === 'query')
        captured.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
    take() {
      const taken = captured;
      captured = [];
      return taken;
    },
  };
}

type PlanNode = {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
};

export type PlanSummary = {
  /** Node types, depth first, with the relation or index they read. */
  nodes: string[];
  seqScans: string[];
  sorts: string[];
  indexes: string[];
  /** Rows read from the table or index: returned plus removed by filters. */
  rowsVisited: number;
  sharedBlocks: number;
  executionMs: number;
};

function walk(node: PlanNode, summary: PlanSummary): void {
  const type = node['Node Type'];
  const target = node['Index Name'] ?? node['Relation Name'];
  summary.nodes.push(target ? `${type} (${target})` : type);
  if (type === 'Seq Scan') summary.seqScans.push(node['Relation Name'] ?? '?');
  if (type === 'Sort' || type === 'Incremental Sort') summary.sorts.push(type);
  if (node['Index Name']) summary.indexes.push(node['Index Name']);
  if (type.includes('Scan')) {
    const loops = node['Actual Loops'] ?? 1;
    summary.rowsVisited +=
      ((node['Actual Rows'] ?? 0) +
        (node['Rows Removed by Filter'] ?? 0) +
        (node['Rows Removed by Index Recheck'] ?? 0)) *
      loops;
  }
  for (const child of node.Plans ?? []) walk(child, summary);
}

export async function explainQuery(db: Db, query: CapturedQuery): Promise<PlanSummary> {
  const result = await db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>(
    CompiledQuery.raw(`explain (analyze, buffers, format json) ${query.sql}`, [...query.parameters]),
  );
  const [root] = result.rows[0]?.['QUERY PLAN'] ?? [];
  if (!root) throw new Error('EXPLAIN returned no plan');
  const summary: PlanSummary = {
    nodes: [],
    seqScans: [],
    sorts: [],
    indexes: [],
    rowsVisited: 0,
    sharedBlocks: (root.Plan['Shared Hit Blocks'] ?? 0) + (root.Plan['Shared Read Blocks'] ?? 0),
    executionMs: root['Execution Time'],
  };
  walk(root.Plan, summary);
  return summary;
}

/** What makes a page cost more than its own rows: a sequential scan, or a sort of everything that matched. */
export function planProblems(summary: PlanSummary, pageSize: number): string[] {
  const problems: string[] = [];
  for (const table of summary.seqScans) problems.push(`sequential scan of ${table}`);
  for (const sort of summary.sorts) problems.push(`${sort} node`);
  if (summary.indexes.length === 0) problems.push('no index used');
  // A page reads its rows plus one (has_more); anything far beyond means the index does not match the order.
  if (summary.rowsVisited > pageSize * 4 + 10)
    problems.push(`visited ${summary.rowsVisited} rows for a page of ${pageSize}`);
  // Index entries skipped inside the index (a condition that does not bound the scan) show only as buffers: a
  // page touches about one heap block per row, plus the index path.
  if (summary.sharedBlocks > pageSize * 4 + 20)
    problems.push(`touched ${summary.sharedBlocks} buffers for a page of ${pageSize}`);
  return problems;
}
