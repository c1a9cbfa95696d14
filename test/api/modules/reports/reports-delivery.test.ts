import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPORT_ATTEMPTS, REPORT_LEASE_SECONDS } from '../../../../src/jobs/report-generation.ts';
import { company, ctx, download, employees, generated, job, other, useReportsWorld } from './world.ts';

/** Reports: the signed download, and generation (leases, attempts). */
useReportsWorld();

describe('the signed download', () => {
  let reportId = '';
  beforeAll(async () => {
    reportId = (
      await generated({
        type: 'time_registry_monthly',
        format: 'csv',
        params: { month: '2026-10', employee_id: employees[0]?.id },
      })
    ).id;
  });
  const freshUrl = async () =>
    (await company.live.get(`/v1/reports/${reportId}`)).json().download_url as string;

  it('mints a fresh address on every GET, and each works once', async () => {
    const first = await freshUrl();
    const second = await freshUrl();
    expect(second).not.toBe(first);
    expect((await download(first)).statusCode).toBe(200);
    const again = await download(first);
    expect(again.statusCode).toBe(403);
    expect(again.headers['content-type']).toContain('application/problem+json');
    expect(again.json().code).toBe('unauthenticated');
    expect((await download(second)).statusCode).toBe(200);
  });

  it('gives one file and one refusal to two concurrent downloads of one address', async () => {
    const url = await freshUrl();
    const answers = await Promise.all([download(url), download(url)]);
    expect(answers.map((response) => response.statusCode).sort()).toEqual([200, 403]);
    // The code stays unauthenticated (v1); errors.reason names the case (issue 41).
    const refused = answers.find((response) => response.statusCode === 403);
    expect(refused?.json()).toMatchObject({ code: 'unauthenticated', errors: { reason: 'download_used' } });
  });

  it('refuses an address after 5 minutes (fake clock)', async () => {
    const url = await freshUrl();
    ctx.clock.advance(301);
    const response = await download(url);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      code: 'unauthenticated',
      errors: { reason: 'download_expired' },
    });
    for (const header of Object.keys(response.headers)) expect(header).not.toMatch(/^x-ratelimit/);
  });

  it('refuses a tampered signature or expiry, and answers 404 for an unknown report', async () => {
    const url = new URL(await freshUrl());
    const signature = url.searchParams.get('signature') as string;
    const tampered = new URL(url);
    tampered.searchParams.set('signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`);
    const forged = await download(tampered.toString());
    expect(forged.statusCode).toBe(403);
    expect(forged.json().errors).toEqual({ reason: 'download_invalid' });
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await download(later.toString())).statusCode).toBe(403);
    const bare = new URL(url);
    bare.search = '';
    expect((await download(bare.toString())).statusCode).toBe(403);
    const otherReport = new URL(url);
    otherReport.pathname = otherReport.pathname.replace(reportId, '01900000-0000-7000-8000-000000000000');
    const unknown = await download(otherReport.toString());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('not_found');
    expect((await download(url.toString())).statusCode).toBe(200); // the original still works once
  });

  it('answers 404 to another company’s key', async () => {
    const response = await other.live.get(`/v1/reports/${reportId}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('not_found');
  });

  it('deletes the file after 7 days: the report is expired and has no address', async () => {
    ctx.clock.advance(7 * 24 * 3600 + 60);
    await job().tick();
    const report = (await company.live.get(`/v1/reports/${reportId}`)).json();
    expect(report.status).toBe('expired');
    expect(report.download_url).toBeUndefined();
  });
});

describe('generation', () => {
  it('regenerates a report whose worker died, after its lease, and fails it after the last attempt', async () => {
    const created = await company.live.post('/v1/reports', {
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-10-01', to: '2026-10-02' },
    });
    const id = created.json().id;
    // As if a worker claimed it and died: attempt 1 started, the lease still running.
    await ctx.db
      .updateTable('reports')
      .set({
        attempts: 1,
        run_at: new Date(ctx.clock.now().add({ seconds: REPORT_LEASE_SECONDS }).epochMilliseconds),
      })
      .where('id', '=', id)
      .execute();
    expect(await job().tick()).toBe(0);
    expect((await company.live.get(`/v1/reports/${id}`)).json().status).toBe('processing');
    ctx.clock.advance(REPORT_LEASE_SECONDS + 1);
    await job().tick();
    expect((await company.live.get(`/v1/reports/${id}`)).json()).toMatchObject({
      status: 'completed',
      row_count: 8,
    });

    const doomed = (
      await company.live.post('/v1/reports', {
        type: 'time_registry_monthly',
        format: 'csv',
        params: { month: '2026-10' },
      })
    ).json().id;
    await ctx.db
      .updateTable('reports')
      .set({ attempts: MAX_REPORT_ATTEMPTS })
      .where('id', '=', doomed)
      .execute();
    await job().tick();
    expect((await company.live.get(`/v1/reports/${doomed}`)).json()).toMatchObject({
      status: 'failed',
      error: { code: 'generation_failed' },
    });
  });
});
