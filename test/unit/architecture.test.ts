import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildOffline } from '../../scripts/offline-app.ts';
import { type DeclaredOperation, declaredOperations, route } from '../../src/platform/operation.ts';

/**
 * Guards of the code's shape (docs/architecture.md, "Layers" and "Module anatomy"), read from the sources with no
 * database: imports never run up the layers, module folders form no cycle, and SQL lives in repositories.
 */
const SRC = path.resolve(import.meta.dirname, '../../src');

type SourceFile = { file: string; text: string };

function sources(root = SRC): SourceFile[] {
  return readdirSync(root, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && (root !== SRC || !file.endsWith('.test.ts')))
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
  if (top === 'surfaces') return 'surfaces';
  return 'root'; // app.ts, main.ts, cli.js, commands.ts, config.ts, deps.ts, docs/, bootstrap/
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

/**
 * Who may write the registry's tables (issue 34, "One owner for every write of an employee's days"): each table
 * is written by its own repository only, and those writers are called through the owner of day writes
 * (modules/workdays/write-days.ts) or the registry's chain functions. A new writer elsewhere is a second path.
 */
const REGISTRY_WRITERS: Record<string, string[]> = {
  workdays: ['modules/workdays/workdays.repo.ts'],
  workday_months: ['modules/workdays/workdays.repo.ts'],
  check_ins: ['modules/check-ins/check-ins.repo.ts', 'modules/corrections/corrections.repo.ts'],
  registry_entries: ['modules/registry/registry.repo.ts'],
  registry_company_entries: ['modules/registry/registry.repo.ts'],
  registry_months: ['modules/registry/registry.repo.ts'],
  registry_acknowledgements: ['modules/registry/registry.repo.ts'],
  registry_month_versions: ['modules/registry/registry.repo.ts'],
  // A closed month's stored documents: made by their module only; queued by the registry through src/db.
  registry_documents: ['modules/month-documents/month-documents.repo.ts'],
  registry_document_work: ['modules/month-documents/month-documents.repo.ts', 'db/queues.ts'],
  // An absence's status moves in its repository; its day counts only in the owner's (absence-days.ts).
  absences: ['modules/absences/absences.repo.ts', 'modules/workdays/workdays.repo.ts'],
};

function registryWrites(files: SourceFile[]): string[] {
  const found: string[] = [];
  for (const source of files) {
    if (source.file.startsWith('db/migrations/')) continue;
    for (const [table, writers] of Object.entries(REGISTRY_WRITERS)) {
      const builder = new RegExp(`\\.(insertInto|updateTable|deleteFrom)\\('${table}'\\)`);
      const raw = new RegExp(`\\b(insert into|update|delete from) ${table}\\b`, 'i');
      if ((builder.test(source.text) || raw.test(source.text)) && !writers.includes(source.file)) {
        found.push(`${source.file} writes ${table}`);
      }
    }
  }
  return found;
}

/** A module's imports of another module's repository: modules/a/x.ts → modules/b/b.repo.ts. */
function crossModuleRepositoryImports(files: SourceFile[]): string[] {
  return files.flatMap((source) =>
    importsOf(source)
      .filter((target) => target.endsWith('.repo.ts'))
      .filter((target) => moduleOf(target) !== null && moduleOf(source.file) !== null)
      .filter((target) => moduleOf(target) !== moduleOf(source.file))
      .map((target) => `${source.file} → ${target}`),
  );
}

/**
 * Today's imports of another module's repository (issue 34). The list may only shrink: a new one fails, and one
 * that no longer exists must leave the list. A module reads another's tables through its service or a named read
 * model instead.
 */
const REPOSITORY_IMPORTS_ALLOWED = new Set([
  'modules/absences/absences.service.ts → modules/absence-types/absence-types.repo.ts',
  'modules/absences/absences.service.ts → modules/employees/employees.repo.ts',
  'modules/absences/absences.service.ts → modules/workdays/workdays.repo.ts',
  'modules/api-keys/api-keys.service.ts → modules/companies/companies.repo.ts',
  'modules/check-ins/check-ins.repo.ts → modules/registry/registry.repo.ts',
  'modules/check-ins/check-ins.service.ts → modules/companies/companies.repo.ts',
  'modules/companies/companies.service.ts → modules/absence-types/absence-types.repo.ts',
  'modules/companies/sandbox.ts → modules/absence-types/absence-types.repo.ts',
  'modules/employees/employees.service.ts → modules/companies/companies.repo.ts',
  'modules/employees/employees.service.ts → modules/registry/registry.repo.ts',
  'modules/employees/employees.service.ts → modules/workdays/workdays.repo.ts',
  'modules/lifecycle/addon.ts → modules/api-keys/api-keys.repo.ts',
  'modules/lifecycle/addon.ts → modules/companies/companies.repo.ts',
  'modules/lifecycle/addon.ts → modules/reports/reports.repo.ts',
  'modules/lifecycle/lifecycle.service.ts → modules/companies/companies.repo.ts',
  'modules/lifecycle/lifecycle.service.ts → modules/employees/employees.repo.ts',
  'modules/registry-access/access.service.ts → modules/companies/companies.repo.ts',
  'modules/registry-access/access.service.ts → modules/employees/employees.repo.ts',
  'modules/registry-access/acknowledgements.service.ts → modules/registry/registry.repo.ts',
  'modules/reports/report-rows.ts → modules/absences/absences.repo.ts',
  'modules/reports/report-rows.ts → modules/check-ins/check-ins.repo.ts',
  'modules/reports/report-rows.ts → modules/employees/employees.repo.ts',
  'modules/reports/report-rows.ts → modules/workdays/workdays.repo.ts',
  'modules/reports/worker-documents.ts → modules/admins/admins.repo.ts',
  'modules/reports/worker-documents.ts → modules/api-keys/api-keys.repo.ts',
  'modules/reports/worker-documents.ts → modules/corrections/corrections.repo.ts',
  'modules/reports/worker-documents.ts → modules/employees/employees.repo.ts',
  'modules/reports/worker-documents.ts → modules/locations/locations.repo.ts',
  'modules/reports/worker-documents.ts → modules/registry/registry.repo.ts',
  'modules/sandbox/sandbox.service.ts → modules/webhooks/deliveries.repo.ts',
  'modules/today/today.service.ts → modules/workdays/workdays.repo.ts',
  'modules/vacation-balances/vacation-balances.service.ts → modules/absences/absences.repo.ts',
  'modules/vacation-balances/vacation-balances.service.ts → modules/companies/companies.repo.ts',
  'modules/vacation-balances/vacation-balances.service.ts → modules/employees/employees.repo.ts',
  'modules/vacation-balances/vacation-balances.service.ts → modules/workdays/workdays.repo.ts',
]);

/**
 * A surface (src/surfaces/: /admin/v1, the dashboard, the portal, the access links, the /v1 list) is an
 * authentication hook and the route modules it mounts (issue 36): of a module it imports the routes alone, never
 * a service or a repository.
 */
function surfaceImportsBeyondRoutes(files: SourceFile[]): string[] {
  return files
    .filter((source) => layerOf(source.file) === 'surfaces')
    .flatMap((source) =>
      importsOf(source)
        .filter((target) => target.startsWith('modules/') && !target.endsWith('.routes.ts'))
        .map((target) => `${source.file} → ${target}`),
    );
}

/** Operations declared outside a module folder (the route table names the file that called route()). */
function operationsOutsideModules(operations: Iterable<DeclaredOperation>): string[] {
  return [...operations]
    .filter((operation) => !/^modules\/[^/]+\/[^/]+\.routes\.ts$/.test(operation.file))
    .map(
      (operation) => `${operation.method} ${operation.url} (${operation.operationId}) in ${operation.file}`,
    );
}

const TEST_ROOT = path.resolve(import.meta.dirname, '..');

/** Test files still over 600 lines (issue 36): to split by behaviour; the list only shrinks. */
const LONG_TEST_FILES = new Set<string>([]);

/**
 * Test files that write the schema with SQL (issue 36: fixtures come from builders in test/helpers, so a
 * migration does not ripple through the tests). What stays is a tamper test (an operator's or a superuser's SQL
 * against an append-only guard or the verification) or a stored state no API can reach (an expired window, a
 * database of an older release). The list only shrinks.
 */
const TEST_SQL_WRITERS: Record<string, string> = {
  'api/db/migrations.test.ts': 'a migration a newer release recorded (the schema guard)',
  'api/db/sync-horizon.test.ts': 'stamps updated_at out of order, as a slow writer would',
  'api/jobs/fairness.test.ts': 'fills the delivery queue with thousands of rows at once',
  'api/jobs/retention.test.ts': 'ages deliveries past their retention',
  'api/modules/absences/absences.test.ts': 'a stored type as migration 0025 found it',
  'api/modules/corrections/corrections-registry.test.ts': 'tamper: rewrites a correction behind the chain',
  'api/modules/month-documents/registry-documents.test.ts':
    'tamper: the append-only guard of sealed documents',
  'api/modules/passkeys/passkeys.test.ts': 'tamper: an operator moves a passkey to another worker',
  'api/modules/registry/months.test.ts': 'tamper: the append-only guard of closings',
  'api/modules/registry/versions.test.ts': 'tamper: deletes an acknowledged version',
  'api/modules/reports/reports-delivery.test.ts': 'ages a report past its retention',
  'api/modules/webhooks/upgrade.test.ts': 'a database as the previous release left it',
  'api/modules/webhooks/claim.test.ts': 'ages deliveries, and a queue of many events',
  'api/modules/webhooks/world.ts': "each test's endpoints go with the test",
  'api/platform/batched-authentication.test.ts': 'windows and quotas at their limits',
  'api/platform/auth.test.ts': "a company's service state no API sets (the operator's)",
  'api/platform/idempotency.test.ts': 'an idempotency record past its expiry',
  'api/platform/rate-limit.test.ts': 'quotas at their limits',
  'e2e/migrate-command.test.ts': 'a migration a newer release recorded (the schema guard)',
  'e2e/registry/registry.test.ts': 'tamper: the append-only guards of the chain and the check-ins',
  'e2e/registry/tampering.test.ts': 'tamper: every kind of tampering verification names',
  'helpers/tamper.ts': 'the operator who re-links a chain (tamper tests)',
};

const SQL_WRITE =
  /\.(insertInto|updateTable|deleteFrom)\(|\b(insert into|update [a-z_]+\s+set|delete from)\s/i;

function testSqlWriters(files: SourceFile[]): string[] {
  return files
    .filter((source) => source.file !== 'unit/architecture.test.ts' && SQL_WRITE.test(source.text))
    .map((source) => source.file)
    .sort();
}

/** The files that call recordWorkerPunches (the one writer whose recorded_at comes from its caller). */
function backdatedRecorders(files: readonly SourceFile[]): string[] {
  return files
    .filter((source) => /import \{[^}]*\brecordWorkerPunches\b[^}]*\} from/.test(source.text))
    .map((source) => source.file)
    .sort();
}

describe('the shape of the code', () => {
  const files = sources();

  it('never imports up the layers (time < db < platform < modules < jobs < surfaces < root)', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('declares every operation in a module’s routes file, for every surface', async () => {
    const { close } = await buildOffline();
    await close();
    expect(declaredOperations.size).toBeGreaterThan(200);
    expect(operationsOutsideModules(declaredOperations.values())).toEqual([]);
  });

  it('mounts route modules in the surfaces, and imports no service or repository there', () => {
    expect(surfaceImportsBeyondRoutes(files)).toEqual([]);
  });

  it('has no cycle between module folders', () => {
    expect(moduleCycles(files)).toEqual([]);
  });

  it('recomputes stored day figures only through the owner of day writes', () => {
    // consolidate() writes workdays and workday_months; every writer reaches it through write-days.ts, which
    // takes the locks in order and refuses a change to a sealed date (issue 34).
    const callers = files
      .filter((source) =>
        /import \{[^}]*\bconsolidate\b[^}]*\} from '[^']*consolidation\.ts'/.test(source.text),
      )
      .map((source) => source.file);
    expect(callers).toEqual(['modules/workdays/write-days.ts']);
  });

  it("records a check-in at a moment of the caller's choosing only when seeding the demo", () => {
    // recordWorkerPunches takes each punch's recorded_at from its caller (the demo's month, replayed): reached
    // from a request, it would let a company date its own records as timely (docs/registry.md).
    expect(backdatedRecorders(files)).toEqual(['bootstrap/demo-month.ts']);
  });

  it('writes SQL only in repositories and src/db, but for the listed exceptions', () => {
    expect(sqlOutsideRepositories(files)).toEqual([]);
    // Each exception still needs its place on the list.
    for (const file of Object.keys(SQL_EXCEPTIONS)) {
      expect(QUERY_BUILDER.test(files.find((source) => source.file === file)?.text ?? ''), file).toBe(true);
    }
  });

  it("writes the registry's tables only in their own repositories (the owner of day writes calls them)", () => {
    expect(registryWrites(files)).toEqual([]);
  });

  it("imports another module's repository only where it did before issue 34, and the list only shrinks", () => {
    const found = new Set(crossModuleRepositoryImports(files));
    expect([...found].filter((item) => !REPOSITORY_IMPORTS_ALLOWED.has(item))).toEqual([]);
    expect([...REPOSITORY_IMPORTS_ALLOWED].filter((item) => !found.has(item))).toEqual([]);
  });

  it('writes the schema with SQL in tests only where listed (tamper tests, unreachable states); the list only shrinks', () => {
    const writers = testSqlWriters(sources(TEST_ROOT));
    expect(writers.filter((file) => !(file in TEST_SQL_WRITERS))).toEqual([]);
    expect(Object.keys(TEST_SQL_WRITERS).filter((file) => !writers.includes(file))).toEqual([]);
  });

  it('keeps every test file under 600 lines (but the listed ones, which only shrink)', () => {
    const long = sources(TEST_ROOT)
      .filter((source) => source.file.endsWith('.test.ts'))
      .filter((source) => source.text.split('\n').length > 600)
      .map((source) => source.file)
      .sort();
    expect(long.filter((file) => !LONG_TEST_FILES.has(file))).toEqual([]);
    expect([...LONG_TEST_FILES].filter((file) => !long.includes(file))).toEqual([]);
  });

  describe('each guard fails on a planted violation', () => {
    it('a back-dated recording reached from a route', () => {
      const planted = {
        file: 'modules/imports/imports.service.ts',
        text: "import { recordWorkerPunches } from '../check-ins/check-ins.service.ts';",
      };
      expect(backdatedRecorders([planted])).toEqual(['modules/imports/imports.service.ts']);
    });

    it('a test writing the schema with SQL', () => {
      const planted = {
        file: 'api/modules/units/units.test.ts',
        text: 'await sql`insert into units (id) values (1)`',
      };
      expect(testSqlWriters([planted])).toEqual(['api/modules/units/units.test.ts']);
    });

    it('an operation declared outside a module', () => {
      const planted: DeclaredOperation = {
        operationId: 'plantedSettings',
        method: 'GET',
        url: '/dashboard/api/planted',
        surface: 'dashboard',
        file: 'surfaces/dashboard.ts',
      };
      const inModule = { ...planted, operationId: 'fine', file: 'modules/units/units.routes.ts' };
      expect(operationsOutsideModules([planted, inModule])).toEqual([
        'GET /dashboard/api/planted (plantedSettings) in surfaces/dashboard.ts',
      ]);
      // And a route() called from a file outside src/modules is named so, from the call stack.
      const app = Fastify();
      route(
        app,
        {
          method: 'GET',
          url: '/planted-here',
          operationId: 'plantedInATest',
          summary: 'planted',
          tag: 'Test',
          scope: 'public',
          responses: { 200: { description: 'ok', schema: null } },
        },
        async (_request, reply) => reply.send(),
      );
      const declared = declaredOperations.get('GET /planted-here');
      declaredOperations.delete('GET /planted-here');
      expect(operationsOutsideModules(declared ? [declared] : [])).toHaveLength(1);
    });

    it('a surface importing a service', () => {
      const planted = {
        file: 'surfaces/planted.ts',
        text: "import { x } from '../modules/employees/employees.service.ts';\nimport { y } from '../modules/employees/employees.routes.ts';",
      };
      expect(surfaceImportsBeyondRoutes([...files, planted])).toEqual([
        'surfaces/planted.ts → modules/employees/employees.service.ts',
      ]);
    });

    it('a write of check-ins outside their repository', () => {
      const planted = {
        file: 'modules/portal/planted.repo.ts',
        text: "await db.insertInto('check_ins').values(row).execute();",
      };
      expect(registryWrites([...files, planted])).toEqual([
        'modules/portal/planted.repo.ts writes check_ins',
      ]);
      const raw = {
        file: 'modules/today/planted.repo.ts',
        text: 'await sql`update workdays set worked_minutes = 0`',
      };
      expect(registryWrites([...files, raw])).toEqual(['modules/today/planted.repo.ts writes workdays']);
    });

    it("an import of another module's repository", () => {
      const planted = {
        file: 'modules/units/planted.service.ts',
        text: "import { x } from '../employees/employees.repo.ts';",
      };
      expect(crossModuleRepositoryImports([...files, planted])).toContain(
        'modules/units/planted.service.ts → modules/employees/employees.repo.ts',
      );
    });

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
