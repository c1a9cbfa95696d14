import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import {
  E2E_ADMIN_TOKEN,
  freePort,
  httpClient,
  type ServiceNode,
  startServiceNode,
  stopServiceNode,
} from '../../helpers/service.ts';

/**
 * The SDK as a client installs it (issue 41): `npm pack` builds it (prepare), the tarball holds ES modules and
 * CommonJS with their declarations, and a project of its own installs it, type-checks an example (named types, a
 * report request typed per report type, errors narrowed by code) and runs it, as ESM and as CommonJS, against a
 * running service.
 */
const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'node_modules/.bin');
// npm and tsc as the project runs them, on this Node.js.
const env = { ...process.env, PATH: `${path.dirname(process.execPath)}:${BIN}:${process.env.PATH}` };

let database: TestDatabase;
let node: ServiceNode;
let base = '';
let work = '';

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'jornada-sdk-'));
  database = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  node = await startServiceNode(database.url, 'api', { port, env: { JORNADA_PUBLIC_URL: base } });
}, 120_000);

afterAll(async () => {
  if (node) await stopServiceNode(node);
  await database?.drop();
  if (work) await rm(work, { recursive: true, force: true });
});

const EXAMPLE_ESM = `import { Jornada, JornadaError, SDK_VERSION, type Employee, type ReportRequest } from '@jornada/sdk';

const agents: string[] = [];
const jornada = new Jornada({
  apiKey: process.env.JORNADA_API_KEY ?? '',
  baseUrl: process.env.JORNADA_URL ?? '',
  fetch: (input, init) => {
    agents.push(new Headers(init?.headers).get('user-agent') ?? '');
    return fetch(input, init);
  },
});
const hired = await jornada.createEmployee({
  first_name: 'Ana',
  last_name: 'Paquete',
  email: 'ana.paquete@example.com',
});
const employee: Employee = hired;
void employee;
const request: ReportRequest = {
  type: 'payroll_variables',
  format: 'csv',
  params: { month: '2026-10', locale: 'es' },
};
// @ts-expect-error a misspelt param is a compile error, not a 422 at run time
const typo: ReportRequest = { type: 'payroll_variables', format: 'csv', params: { mnth: '2026-10' } };
void typo;
const report = await jornada.createReport(request);
let code = '';
try {
  await jornada.createEmployee({ first_name: 'B', last_name: 'B', email: 'not an email' });
} catch (error) {
  if (error instanceof JornadaError && error.is('validation_failed')) code = Object.keys(error.errors).join(',');
}
console.log(
  JSON.stringify({
    id: hired.id,
    requestId: hired.lastResponse.requestId,
    remaining: hired.lastResponse.rateLimit?.remaining,
    quota: hired.lastResponse.quotaRemaining,
    enumerable: Object.keys(hired).includes('lastResponse'),
    report: report.status,
    code,
    agent: agents[0],
    version: SDK_VERSION,
  }),
);
`;

const EXAMPLE_CJS = `const { Jornada } = require('@jornada/sdk');

const jornada = new Jornada({ apiKey: process.env.JORNADA_API_KEY, baseUrl: process.env.JORNADA_URL });
jornada.getOrganization().then((organization) => {
  console.log(JSON.stringify({ name: organization.name, requestId: organization.lastResponse.requestId }));
});
`;

/** The CommonJS declarations are there for a require() too. */
const CHECK_CJS = `import sdk = require('@jornada/sdk');
export const first: sdk.Page<sdk.Employee> | undefined = undefined;
`;

async function companyKey() {
  const call = httpClient(base);
  const created = await call(
    'POST',
    '/admin/v1/companies',
    { name: 'Paquete SL', seats: 10 },
    E2E_ADMIN_TOKEN,
  );
  expect(created.status, created.text).toBe(201);
  const key = await call(
    'POST',
    `/admin/v1/companies/${created.body.id}/api-keys`,
    { mode: 'live', scopes: ['org:empleados:read', 'org:empleados:write', 'org:informes:read'] },
    E2E_ADMIN_TOKEN,
  );
  expect(key.status, key.text).toBe(201);
  return key.body.secret as string;
}

describe('the SDK package', () => {
  it('packs built, installs in a project of its own, type-checks and runs as ESM and CommonJS', async () => {
    // Packed from a copy of sdk/ without its dist/ (as a fresh checkout has it), so that prepare must build it,
    // and so that the other tests' built SDK is not rebuilt under them. The copy finds its dependencies where
    // the checkout installed them.
    const source = path.join(work, 'sdk');
    await cp(path.join(ROOT, 'sdk'), source, {
      recursive: true,
      filter: (from) => !from.includes(`${path.sep}dist`) && !from.includes(`${path.sep}node_modules`),
    });
    await symlink(path.join(ROOT, 'node_modules'), path.join(source, 'node_modules'));
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work], {
      cwd: source,
      env,
      maxBuffer: 16 * 1024 * 1024,
    });
    const [manifest] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    const files = (manifest?.files ?? []).map((file) => file.path);
    for (const file of [
      'package.json',
      'README.md',
      'dist/esm/index.js',
      'dist/esm/index.d.ts',
      'dist/esm/types.d.ts',
      'dist/esm/package.json',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
      'dist/cjs/package.json',
    ])
      expect(files, file).toContain(file);
    expect(files.some((file) => file.startsWith('node_modules/') || file.includes('.test.'))).toBe(false);

    const project = path.join(work, 'client');
    await mkdir(project);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'client', private: true, type: 'module' }),
    );
    await run(
      'npm',
      // With Node's own types, as a Node.js project has them (standardwebhooks' declarations name Buffer).
      [
        'install',
        path.join(work, manifest?.filename ?? ''),
        `@types/node@${JSON.parse(await readFile(path.join(ROOT, 'node_modules/@types/node/package.json'), 'utf8')).version}`,
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
      ],
      { cwd: project, env },
    );
    const installed = JSON.parse(
      await readFile(path.join(project, 'node_modules/@jornada/sdk/package.json'), 'utf8'),
    );
    await writeFile(path.join(project, 'example.ts'), EXAMPLE_ESM);
    await writeFile(path.join(project, 'example.cjs'), EXAMPLE_CJS);
    await writeFile(path.join(project, 'check.cts'), CHECK_CJS);
    await writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          lib: ['es2022', 'dom', 'dom.iterable'],
          types: ['node'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['example.ts', 'check.cts'],
      }),
    );
    // Type-checked as a client's code is: the package's declarations, strictly, the typo caught.
    const checked = await run(path.join(BIN, 'tsc'), ['-p', 'tsconfig.json'], { cwd: project, env }).catch(
      (error: { stdout: string }) => ({ stdout: error.stdout, failed: true }),
    );
    expect(checked, checked.stdout).not.toHaveProperty('failed');

    const apiKey = await companyKey();
    const runEnv = { ...env, JORNADA_API_KEY: apiKey, JORNADA_URL: base };
    const esm = JSON.parse(
      (await run(process.execPath, ['example.ts'], { cwd: project, env: runEnv })).stdout,
    );
    expect(esm).toEqual({
      id: expect.any(String),
      requestId: expect.stringMatching(/.+/),
      remaining: expect.any(Number),
      quota: expect.any(Number),
      enumerable: false,
      report: 'processing',
      code: 'email',
      agent: `jornada-sdk/${installed.version} node/${process.versions.node}`,
      version: installed.version,
    });
    const cjs = JSON.parse(
      (await run(process.execPath, ['example.cjs'], { cwd: project, env: runEnv })).stdout,
    );
    expect(cjs).toEqual({ name: 'Paquete SL', requestId: expect.stringMatching(/.+/) });
  }, 240_000);
});
