import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDueDocuments } from '../../../src/modules/month-documents/month-documents.service.ts';
import { createTestContext, type TestCompany, type TestContext } from '../../helpers/context.ts';
import { hire } from '../../helpers/resources.ts';

/**
 * A closed month's bundle (issue 34): exported by the command line from the service's database, then checked
 * with that database gone, as an inspector or a works council checks a copy on their own machine.
 */
let ctx: TestContext;
let company: TestCompany;
const dir = mkdtempSync(path.join(os.tmpdir(), 'jornada-bundle-'));
const file = path.join(dir, 'registro-2026-10.jsonl.gz');
let seal = '';

const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['src/cli.js', 'registry', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });

beforeAll(async () => {
  ctx = await createTestContext();
  company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
  for (const name of ['Ana', 'Luis']) {
    const worker = await hire(company.live, { first_name: name, hire_date: '2026-01-01' });
    for (const [type, time] of [
      ['in', '2026-10-05T07:00:00Z'],
      ['out', '2026-10-05T15:00:00Z'],
    ]) {
      const response = await company.live.post('/v1/check-ins', {
        employee_id: worker.id,
        type,
        timestamp: time,
      });
      expect(response.statusCode, response.body).toBe(201);
    }
  }
  expect((await company.live.post('/v1/registry/months/2026-10/close')).statusCode).toBe(200);
  seal = (await company.live.get('/v1/registry/months')).json().data[0].seal;
  // The worker role makes the month's sealed documents (each worker's PDF and XLSX, the company's CSV).
  while ((await makeDueDocuments(ctx.deps)) > 0);
});
afterAll(() => ctx.close());

describe('a closed month’s seal', () => {
  it('is shown to the Inspección with the month, to keep', async () => {
    const grant = await company.live.post('/v1/registry/access-grants', {
      kind: 'inspection',
      label: 'ITSS Madrid',
      from: '2026-10-01',
      to: '2026-10-31',
      expires_at: ctx.clock
        .now()
        .add({ hours: 24 * 7 })
        .toString({ smallestUnit: 'second' }),
    });
    expect(grant.statusCode, grant.body).toBe(201);
    const token = new URL(grant.json().url).pathname.split('/').pop() as string;
    const summary = await ctx.app.inject({ method: 'GET', url: `/registry-access/${token}/api/summary` });
    expect(summary.json()).toMatchObject({ months: ['2026-10'], seals: { '2026-10': seal } });
  });
});

describe('a closed month’s bundle', () => {
  it('is exported from the service’s database and verified with the database gone', async () => {
    const exported = cli(['export', '--company', company.id, '--month', '2026-10', '--output', file], {
      DATABASE_URL: ctx.database.url,
    });
    expect(exported.status, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ file, month: '2026-10' });
    const notClosed = cli(['export', '--company', company.id, '--month', '2026-09'], {
      DATABASE_URL: ctx.database.url,
    });
    expect(notClosed.status).toBe(1);

    await ctx.database.drop();
    const { DATABASE_URL: _url, ...env } = process.env;
    const verified = spawnSync(process.execPath, ['src/cli.js', 'registry', 'verify-bundle', file], {
      env: { ...env, JORNADA_DATA_DIR: dir, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    expect(verified.status, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, month: '2026-10', seal, problems: [] });
    // It carries the month's sealed documents: two workers' PDF and XLSX in two languages, and the company's CSV.
    const documents = gunzipSync(readFileSync(file))
      .toString('utf8')
      .split('\n')
      .filter((line) => line.startsWith('{"document"'))
      .map((line) => JSON.parse(line).document as { format: string; content: string });
    expect(documents).toHaveLength(2 * 2 * 2 + 1);
    const pdf = documents.find((document) => document.format === 'pdf');
    expect(
      Buffer.from(pdf?.content ?? '', 'base64')
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('names a sealed document swapped in the copy', () => {
    const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
    const index = lines.findIndex((line) => line.includes('"format":"csv"'));
    const parsed = JSON.parse(lines[index] as string) as { document: { content: string } };
    const csv = Buffer.from(parsed.document.content, 'base64').toString('utf8').replace('480', '420');
    parsed.document.content = Buffer.from(csv).toString('base64');
    lines[index] = JSON.stringify(parsed);
    const tampered = path.join(dir, 'swapped.jsonl.gz');
    writeFileSync(tampered, gzipSync(`${lines.join('\n')}\n`));
    const verified = cli(['verify-bundle', tampered]);
    expect(verified.status).toBe(1);
    expect(JSON.parse(verified.stdout).problems).toEqual([
      expect.objectContaining({ kind: 'document_mismatch', line: index + 1 }),
    ]);
  });

  it('names a rewritten entry and a seal that no longer follows', () => {
    const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
    const index = lines.findIndex((line) => line.includes('"kind":"check_in"'));
    // A check-in an hour earlier, and its hash recomputed so that its own line still looks whole.
    lines[index] = (lines[index] as string).replace('T07:00:00Z', 'T06:00:00Z');
    const tampered = path.join(dir, 'tampered.jsonl.gz');
    writeFileSync(tampered, gzipSync(`${lines.join('\n')}\n`));
    const verified = cli(['verify-bundle', tampered]);
    expect(verified.status).toBe(1);
    const result = JSON.parse(verified.stdout) as { problems: Array<{ kind: string; line: number }> };
    expect(result.problems).toContainEqual(expect.objectContaining({ kind: 'chain_hash', line: index + 1 }));
    const junk = path.join(dir, 'junk.txt');
    writeFileSync(junk, 'not a bundle\n');
    expect(cli(['verify-bundle', junk]).status).toBe(1);
  });
});
