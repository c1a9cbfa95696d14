import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A client's view of the description: openapi-typescript generates types from openapi-v1.json, and a small
 * client program using them compiles under strict TypeScript, naming the resources by their component names.
 */
describe('a client generated from openapi-v1.json', () => {
  it('compiles, and names components["schemas"]["Employee"]', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'jornada-client-'));
    try {
      await run(path.join(ROOT, 'node_modules/.bin/openapi-typescript'), [
        path.join(ROOT, 'openapi-v1.json'),
        '-o',
        path.join(dir, 'jornada.ts'),
      ]);
      await writeFile(
        path.join(dir, 'client.ts'),
        `import type { components, paths } from './jornada.ts';

type Employee = components['schemas']['Employee'];
type Page = paths['/v1/employees']['get']['responses'][200]['content']['application/json'];
type Problem = components['schemas']['Problem'];

const employee: Employee = {
  id: '0192f3a4-6b1c-7d2e-8f30-4a5b6c7d8e9f', first_name: 'Lucía', last_name: 'Martínez', email: 'l@example.com',
  external_id: null, status: 'active', hire_date: '2026-03-01', termination_date: null, location_id: null,
  unit_id: null, timezone: null, vacation_days_per_year: 22, tracking_start_date: '2026-03-01',
  contract_type: 'full_time', weekly_minutes: 2400, part_time_percentage: null, complementary_limit_percentage: null,
  overtime_compensation: null,
  opening_banked_minutes: 0, national_id: null, social_security_number: null, work_schedule: { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 },
  created_at: '2026-03-01T08:00:00Z', updated_at: '2026-03-01T08:00:00Z',
};
const page: Page = { data: [employee], meta: { next_cursor: null, has_more: false } };
const problem: Problem = {
  type: 'https://example.com/docs/errors/not_found', title: 'Not found', status: 404, code: 'not_found',
  detail: 'Employee not found.', errors: {},
};
// @ts-expect-error a code outside the contract's closed list
const wrong: Problem['code'] = 'teapot';
export { page, problem, wrong };
`,
      );
      const { stdout } = await run(
        path.join(ROOT, 'node_modules/.bin/tsc'),
        [
          '--noEmit',
          '--strict',
          '--target',
          'esnext',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--allowImportingTsExtensions',
          '--skipLibCheck',
          path.join(dir, 'client.ts'),
        ],
        { cwd: dir },
      ).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`the generated client does not compile:\n${error.stdout}\n${error.stderr}`);
      });
      expect(stdout).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
