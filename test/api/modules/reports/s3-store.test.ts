import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../src/db/embedded.ts';
import { type ReportStoreConfig, reportStore } from '../../../../src/modules/reports/store.ts';
import { createTestContext, generateReports, type TestContext } from '../../../helpers/context.ts';
import { hire } from '../../../helpers/resources.ts';

/**
 * Report files on S3-compatible object storage (issue 37: several nodes without a shared disk), against a local
 * S3-compatible server (s3rver) that the test starts: the store's four operations, then a report generated and
 * downloaded by the service with no file on its disk.
 */
let server: S3rver;
let directory: string;
let config: Extract<ReportStoreConfig, { kind: 's3' }>;
let ctx: TestContext;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'jornada-s3-'));
  const port = await freePort();
  server = new S3rver({
    port,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: 'jornada-reports', configs: [] }],
  });
  await server.run();
  config = {
    kind: 's3',
    bucket: 'jornada-reports',
    region: 'eu-south-2',
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    // s3rver's fixed development credentials.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    prefix: 'deployment-a/',
  };
  ctx = await createTestContext({ reportsStore: config });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('the S3 report store', () => {
  it('stores a stream whole, streams it back, deletes it, and answers null for a missing key', async () => {
    const store = reportStore(config);
    // Larger than one multipart part (5 MiB), sent as a stream of unknown length.
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const size = await store.put(
      'company/report-1.csv',
      Readable.from(
        (function* () {
          for (let index = 0; index < 6; index++) yield chunk;
          yield Buffer.from('end\n');
        })(),
      ),
    );
    expect(size).toBe(6 * 1024 * 1024 + 4);
    const stored = await store.get('company/report-1.csv');
    expect(stored).not.toBeNull();
    const body = await text(stored as Readable);
    expect(body.length).toBe(size);
    expect(body.endsWith('aend\n')).toBe(true);

    expect(await store.get('company/missing.csv')).toBeNull();
    await store.delete('company/report-1.csv');
    expect(await store.get('company/report-1.csv')).toBeNull();
    await store.delete('company/report-1.csv'); // a missing file is not an error
  });

  it('keeps a failed upload invisible', async () => {
    const store = reportStore(config);
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024, 'b'));
        this.destroy(new Error('the generation died'));
      },
    });
    await expect(store.put('company/broken.csv', failing)).rejects.toThrow();
    expect(await store.get('company/broken.csv')).toBeNull();
  });

  it('sweeps files older than the retention under its prefix, and nothing else', async () => {
    const store = reportStore(config);
    const other = reportStore({ ...config, prefix: 'deployment-b/' });
    await store.put('company/old.csv', Readable.from(['old']));
    await other.put('company/theirs.csv', Readable.from(['theirs']));
    const future = new Date(Date.now() + 60_000);
    expect(await store.sweep({ partialBefore: future, fileBefore: future })).toBeGreaterThanOrEqual(1);
    expect(await store.get('company/old.csv')).toBeNull();
    // Another deployment's prefix in the same bucket is not touched.
    expect(await other.get('company/theirs.csv')).not.toBeNull();
    // Nothing is old yet: nothing goes.
    await store.put('company/new.csv', Readable.from(['new']));
    expect(await store.sweep({ partialBefore: new Date(0), fileBefore: new Date(0) })).toBe(0);
    expect(await store.get('company/new.csv')).not.toBeNull();
  });

  it('serves a report the service generated into the bucket, streamed from it', async () => {
    const company = await ctx.createCompany({ timezone: 'Europe/Madrid' });
    await hire(company.live, { first_name: 'Nube', last_name: 'Objeto' });
    const created = await company.live.post('/v1/reports', {
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-10-01', to: '2026-10-31' },
    });
    expect(created.statusCode, created.body).toBe(202);
    await generateReports(ctx);
    const report = (await company.live.get(`/v1/reports/${created.json().id}`)).json();
    expect(report.status).toBe('completed');
    const address = new URL(report.download_url as string);
    const file = await ctx.app.inject({ method: 'GET', url: `${address.pathname}${address.search}` });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).toContain('employee_id');
    // The file is in the bucket under the deployment's prefix (s3rver keeps a bucket's objects as files).
    const objects = (await readdir(directory, { recursive: true })).filter((name) =>
      name.includes(path.join('jornada-reports', 'deployment-a', company.id)),
    );
    expect(objects.length).toBeGreaterThan(0);
  });
});
