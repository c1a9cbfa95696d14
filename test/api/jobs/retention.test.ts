import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { maintenanceJob, sweepDeliveriesAndEvents } from '../../../src/jobs/maintenance.ts';
import { fileStore } from '../../../src/modules/reports/store.ts';
import { generateReports, useCompanyContext } from '../../helpers/context.ts';
import { hire } from '../../helpers/resources.ts';

/** What grows is swept: finished deliveries and old events after 30 days, abandoned report files. */
const env = useCompanyContext();

const DAY = 86_400;

async function deliveriesOf(companyId: string) {
  return await env.ctx.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'status'])
    .where('company_id', '=', companyId)
    .execute();
}

describe('events and webhook deliveries', () => {
  it('are kept 30 days after their final state, then deleted; a pending delivery and its event never are', async () => {
    const endpoint = await env.company.live.post('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/jornada',
      events: ['employee.created'],
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    await hire(env.company.live);
    await hire(env.company.live);
    const [finished, pending] = await deliveriesOf(env.company.id);
    if (!finished || !pending) throw new Error('expected two deliveries');
    expect(await deliveriesOf(env.company.id)).toHaveLength(2);
    // One delivery finished now (its final state); the other stays pending.
    await env.ctx.db
      .updateTable('webhook_deliveries')
      .set({
        status: 'succeeded',
        next_attempt_at: null,
        updated_at: new Date(env.ctx.clock.now().epochMilliseconds),
      })
      .where('company_id', '=', env.company.id)
      .where('id', '=', finished.id)
      .execute();
    // An event with no delivery at all (no endpoint was subscribed to it).
    const [someone] = await env.ctx.db
      .selectFrom('employees')
      .select('id')
      .where('company_id', '=', env.company.id)
      .execute();
    const unsubscribed = await env.company.live.post('/v1/check-ins', {
      employee_id: someone?.id,
      type: 'in',
      timestamp: env.ctx.clock.now().subtract({ hours: 1 }).toString({ smallestUnit: 'second' }),
    });
    expect(unsubscribed.statusCode, unsubscribed.body).toBe(201);
    const eventsBefore = await env.ctx.db
      .selectFrom('events')
      .select('id')
      .where('company_id', '=', env.company.id)
      .execute();

    // 29 days on: nothing is old enough.
    expect(await sweepDeliveriesAndEvents(env.ctx.db, env.ctx.clock.now().add({ seconds: 29 * DAY }))).toBe(
      0,
    );
    // 31 days on: the finished delivery and every event without a delivery left go; the pending one stays.
    const swept = await sweepDeliveriesAndEvents(env.ctx.db, env.ctx.clock.now().add({ seconds: 31 * DAY }));
    expect(swept).toBeGreaterThan(1);
    expect(await deliveriesOf(env.company.id)).toEqual([pending]);
    const eventsAfter = await env.ctx.db
      .selectFrom('events')
      .select('id')
      .where('company_id', '=', env.company.id)
      .execute();
    expect(eventsAfter).toEqual([{ id: pending.event_id }]);
    expect(eventsBefore.length).toBeGreaterThan(2);
  });
});

describe('report files', () => {
  it('sweeps a partial file left by a killed attempt, and keeps the file of a completed report', async () => {
    // A generation killed mid-write leaves its partial file behind (the name the store writes to).
    const root = await mkdtemp(path.join(os.tmpdir(), 'jornada-sweep-'));
    try {
      const store = fileStore(root);
      await store.put(
        `${env.company.id}/kept-1.xlsx`,
        (async function* () {
          yield Buffer.from('kept');
        })() as never,
      );
      await writeFile(path.join(root, env.company.id, 'killed-2.xlsx.partial'), 'half a file');
      const maintenance = maintenanceJob({ db: env.ctx.db, clock: env.ctx.clock, reportStore: store });
      await maintenance.tick();
      expect((await readdir(path.join(root, env.company.id))).sort()).toEqual([
        'kept-1.xlsx',
        'killed-2.xlsx.partial',
      ]);
      env.ctx.clock.advance(2 * 3600);
      await maintenance.tick();
      expect(await readdir(path.join(root, env.company.id))).toEqual(['kept-1.xlsx']);
      // Past every report's retention (7 days) and a day's margin, a file nothing can use goes too.
      await utimes(path.join(root, env.company.id, 'kept-1.xlsx'), new Date(), new Date());
      env.ctx.clock.advance(9 * DAY);
      await maintenance.tick();
      expect(await readdir(path.join(root, env.company.id))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('does not burn a download address whose file this node cannot read, and logs it as an error', async () => {
    const employee = await hire(env.company.live, { hire_date: '2026-01-01' });
    await env.company.live.post('/v1/check-ins', {
      employee_id: employee.id,
      type: 'in',
      timestamp: '2026-03-02T09:00:00Z',
    });
    const created = await env.company.live.post('/v1/reports', {
      type: 'check_ins_export',
      format: 'csv',
      params: { from: '2026-03-01', to: '2026-03-31' },
    });
    await generateReports(env.ctx);
    const report = (await env.company.live.get(`/v1/reports/${created.json().id}`)).json();
    expect(report.status).toBe('completed');
    const address = new URL(report.download_url);
    const url = `${address.pathname}${address.search}`;

    // A node whose report directory is not the one the worker wrote to.
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const emptyDir = await mkdtemp(path.join(os.tmpdir(), 'jornada-other-node-'));
    const otherNode = await buildApp(
      { ...env.ctx.deps, reportStore: fileStore(emptyDir) },
      { logger: { level: 'info', stream } },
    );
    try {
      const missing = await otherNode.inject({ url });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().code).toBe('not_found');
      const errors = lines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);
      expect(errors.map((entry) => entry.msg)).toEqual([
        expect.stringContaining('report file missing from this node'),
      ]);
      // The address was not consumed: the node that has the file serves it, once.
      const served = await env.ctx.app.inject({ url });
      expect(served.statusCode).toBe(200);
      expect((await env.ctx.app.inject({ url })).statusCode).toBe(403);
    } finally {
      await otherNode.close();
      await rm(emptyDir, { recursive: true, force: true });
    }
  });
});
