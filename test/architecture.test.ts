import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Guards of the code's shape (docs/architecture.md, "Layers" and "Module anatomy"), read from the sources with no
 * database: imports never run up the layers, module folders form no cycle, and SQL lives in repositories.
 */
const SRC = path.resolve(import.meta.dirname, '../src');

type SourceFile = { file: string; text: string };

function sources(root = SRC): SourceFile[] {
  return readdirSync(root, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => ({
      file: file.split(path.sep).join('/'),
      text: readFileSync(path.join(root, file), 'utf8'),
    }));
}

/** Every relative import of a file (type-only ones too), as paths relative to src/. */
function importsOf(source: SourceFile): string[] {
  return [...source.text.matchAll(/from '(\.[^']+)'/g)].map((match) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(source.file), match[1] as string)),
  );
}

/** The layer of a file, lowest first. A layer may import its own and the ones below. */
const LAYERS = ['time', 'db', 'platform', 'modules', 'jobs', 'surfaces', 'root'] as const;
type Layer = (typeof LAYERS)[number];

function layerOf(file: string): Layer {
  const top = file.split('/')[0] ?? '';
  if (top === 'time' || top === 'db' || top === 'platform' || top === 'modules' || top === 'jobs') return top;
  if (top === 'admin' || top === 'dashboard' || top === 'portal' || top === 'registry-access')
    return 'surfaces';
  return 'root'; // app.ts, main.ts, cli.ts, config.ts, deps.ts, routes.ts, bootstrap/
}

function upwardImports(files: SourceFile[]): string[] {
  return files.flatMap((source) =>
    importsOf(source)
      .filter((target) => LAYERS.indexOf(layerOf(target)) > LAYERS.indexOf(layerOf(source.file)))
      .map((target) => `${source.file} → ${target}`),
  );
}

const moduleOf = (file: string) => (file.startsWith('modules/') ? (file.split('/')[1] ?? null) : null);

/** The cycles between module folders (each as the folders of one strongly connected group). */
function moduleCycles(files: SourceFile[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const source of files) {
    const from = moduleOf(source.file);
    if (!from) continue;
    for (const target of importsOf(source)) {
      const to = moduleOf(target);
      if (to && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      for (;;) {
        const member = stack.pop() as string;
        group.push(member);
        if (member === node) break;
      }
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

const QUERY_BUILDER =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|selectNoFrom|replaceInto|mergeInto)\(|\bsql(<[^>]*>)?`/;

/** Where SQL may be written besides repositories and src/db, and why. */
const SQL_EXCEPTIONS: Record<string, string> = {
  'platform/pagination.ts': 'builds the keyset conditions of a repository query it is handed',
  'platform/service-state.ts': 'the "has active service" rule as one SQL fragment for the claims',
};

function sqlOutsideRepositories(files: SourceFile[]): string[] {
  return files
    .filter((source) => !source.file.endsWith('.repo.ts') && !source.file.startsWith('db/'))
    .filter((source) => !(source.file in SQL_EXCEPTIONS))
    .filter((source) => QUERY_BUILDER.test(source.text))
    .map((source) => source.file);
}

describe('the shape of the code', () => {
  const files = sources();

  it('never imports up the layers (time < db < platform < modules < jobs < admin/dashboard/portal < root)', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('has no cycle between module folders', () => {
    expect(moduleCycles(files)).toEqual([]);
  });

  it('writes SQL only in repositories and src/db, but for the listed exceptions', () => {
    expect(sqlOutsideRepositories(files)).toEqual([]);
    // Each exception still needs its place on the list.
    for (const file of Object.keys(SQL_EXCEPTIONS)) {
      expect(QUERY_BUILDER.test(files.find((source) => source.file === file)?.text ?? ''), file).toBe(true);
    }
  });

  describe('each guard fails on a planted violation', () => {
    it('an import from the platform into a module', () => {
      const planted = {
        file: 'platform/planted.ts',
        text: "import { x } from '../modules/employees/employees.service.ts';",
      };
      expect(upwardImports([...files, planted])).toEqual([
        'platform/planted.ts → modules/employees/employees.service.ts',
      ]);
    });

    it('a module folder importing one that imports it', () => {
      const planted = {
        file: 'modules/companies/planted.ts',
        text: "import { x } from '../employees/employees.service.ts';",
      };
      expect(moduleCycles([...files, planted]).flat()).toContain('companies');
    });

    it('a query in a service', () => {
      const planted = {
        file: 'modules/units/planted.service.ts',
        text: "await db.selectFrom('units').selectAll();",
      };
      expect(sqlOutsideRepositories([...files, planted])).toEqual(['modules/units/planted.service.ts']);
    });
  });
});
