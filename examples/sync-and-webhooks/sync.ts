/**
 * Keeps a local copy of a company's employees and check-ins, fetching only what changed since the last run.
 *
 *   JORNADA_URL=https://jornada.example.com JORNADA_API_KEY=jrn_test_… node sync.ts [store.json]
 *
 * The copy stands for "your system" (a payroll database, an ERP): records are upserted by id, and for each
 * listing the largest `updated_at` seen is kept as the point to ask again from (`updated_since`). A record may
 * come twice across runs, never zero times; upserting by id makes that harmless.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { type components, Jornada } from '@jornada/sdk';

type Employee = components['schemas']['Employee'];
type CheckIn = components['schemas']['CheckIn'];

export type Store = {
  employees: { since: string | null; records: Record<string, Employee> };
  checkIns: { since: string | null; records: Record<string, CheckIn> };
};

const EMPTY: Store = { employees: { since: null, records: {} }, checkIns: { since: null, records: {} } };

async function load(file: string): Promise<Store> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Store;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(EMPTY);
    throw error;
  }
}

/**
 * Upserts every record changed after `table.since`, and moves `since` to the largest `updated_at` seen. Returns
 * how many records were new or different: the records of the last second before `since` come again (instants
 * are given to the second), and are recognised as unchanged.
 */
async function pull<T extends { id: string; updated_at: string }>(
  table: { since: string | null; records: Record<string, T> },
  listing: AsyncIterable<T>,
): Promise<number> {
  let changed = 0;
  for await (const record of listing) {
    if (JSON.stringify(table.records[record.id]) !== JSON.stringify(record)) changed++;
    table.records[record.id] = record;
    if (table.since === null || record.updated_at > table.since) table.since = record.updated_at;
  }
  return changed;
}

export async function sync(jornada: Jornada, file: string) {
  const store = await load(file);
  const since = (table: { since: string | null }) =>
    table.since === null ? {} : { updated_since: table.since };
  const employees = await pull(
    store.employees,
    jornada.listEmployees({ limit: 100, ...since(store.employees) }),
  );
  const checkIns = await pull(store.checkIns, jornada.listCheckIns({ limit: 100, ...since(store.checkIns) }));
  // Written whole, then renamed: a crash mid-write leaves the previous copy, never half of one.
  await writeFile(`${file}.tmp`, JSON.stringify(store, null, 2));
  await rename(`${file}.tmp`, file);
  return {
    employees: { changed: employees, total: Object.keys(store.employees.records).length },
    checkIns: { changed: checkIns, total: Object.keys(store.checkIns.records).length },
  };
}

export function clientFromEnvironment(): Jornada {
  const { JORNADA_URL: baseUrl, JORNADA_API_KEY: apiKey } = process.env;
  if (!baseUrl || !apiKey) {
    process.stderr.write('Set JORNADA_URL and JORNADA_API_KEY.\n');
    process.exit(2);
  }
  return new Jornada({ baseUrl, apiKey });
}

if (import.meta.main) {
  const result = await sync(clientFromEnvironment(), process.argv[2] ?? 'store.json');
  process.stdout.write(
    `employees: ${result.employees.changed} changed, ${result.employees.total} kept; ` +
      `check-ins: ${result.checkIns.changed} changed, ${result.checkIns.total} kept\n`,
  );
}
