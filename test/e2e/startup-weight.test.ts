import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A process that imports the service loads the heavy report and mail libraries only when it writes a document or
 * sends mail (issue 19): importing src/main.ts leaves ExcelJS, pdfkit and nodemailer out of the module cache; and
 * the webhook sender's HTTP client (undici) until the first delivery (issue 42: start time and memory at rest).
 */
describe('the service at start', () => {
  it('has not loaded ExcelJS, pdfkit, nodemailer or undici', async () => {
    const script = `
      await import(${JSON.stringify(path.join(ROOT, 'src/main.ts'))});
      const { createRequire } = await import('node:module');
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      const heavy = ['exceljs', 'pdfkit', 'nodemailer', 'undici'].filter((name) =>
        loaded.some((file) => file.includes('/node_modules/' + name + '/')));
      const { excelJs } = await import(${JSON.stringify(path.join(ROOT, 'src/modules/reports/lazy-modules.ts'))});
      excelJs();
      const after = Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/exceljs/'));
      process.stdout.write(JSON.stringify({ heavy, after }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
    expect(JSON.parse(stdout)).toEqual({ heavy: [], after: true });
  });
});
