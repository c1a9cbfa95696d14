import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { freePort } from '../../../src/db/embedded.ts';
import { openDatabase } from '../../../src/main.ts';
import { createEmptyDatabase } from '../../helpers/database.ts';

/**
 * A node that starts before its external database (a compose stack, a failover) waits for it, with backoff, for
 * JORNADA_DB_START_TIMEOUT_MS, then gives up with the error (issue 37: it exited at once). An error waiting cannot
 * fix fails at once.
 */
let database: Awaited<ReturnType<typeof createEmptyDatabase>>;
beforeAll(async () => {
  database = await createEmptyDatabase();
});
afterAll(() => database.drop());

function capturingLog() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

const urlOn = (port: number, database_?: string) => {
  const url = new URL(database.url);
  url.host = `127.0.0.1:${port}`;
  if (database_) url.pathname = `/${database_}`;
  return url.toString();
};

describe('a node starting before its database', () => {
  it('retries until the database answers, then migrates and starts', async () => {
    const target = new URL(database.url);
    const port = await freePort();
    // Nothing listens on the port for 1.5 s (connections are refused); then a proxy to the database does.
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port), target.hostname);
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end);
      upstream.on('error', end);
    });
    const listening = new Promise<void>((resolve) =>
      setTimeout(() => proxy.listen(port, '127.0.0.1', () => resolve()), 1_500),
    );
    const { log, lines } = capturingLog();
    const config = loadConfig({ DATABASE_URL: urlOn(port), JORNADA_DB_START_TIMEOUT_MS: '20000' });
    const began = performance.now();
    const opened = await openDatabase(config, log);
    try {
      expect(performance.now() - began).toBeGreaterThanOrEqual(1_400);
      expect(opened.applied.length).toBeGreaterThan(40);
      const retries = lines.filter((line) => line.msg === 'the database does not answer yet; retrying');
      expect(retries.length).toBeGreaterThanOrEqual(1);
      expect(retries[0]).toMatchObject({ attempt: 1, errorClass: 'ECONNREFUSED' });
    } finally {
      await opened.close();
      await listening;
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 30_000);

  it('gives up after JORNADA_DB_START_TIMEOUT_MS, and at once on an error waiting cannot fix', async () => {
    const closed = await freePort();
    const { log } = capturingLog();
    const waiting = loadConfig({ DATABASE_URL: urlOn(closed), JORNADA_DB_START_TIMEOUT_MS: '1500' });
    let began = performance.now();
    await expect(openDatabase(waiting, log)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const waited = performance.now() - began;
    expect(waited).toBeGreaterThanOrEqual(1_400);
    expect(waited).toBeLessThan(4_000);

    const missing = loadConfig({
      DATABASE_URL: urlOn(Number(new URL(database.url).port), 'no_such_database'),
      JORNADA_DB_START_TIMEOUT_MS: '20000',
    });
    began = performance.now();
    await expect(openDatabase(missing, log)).rejects.toMatchObject({ code: '3D000' });
    expect(performance.now() - began).toBeLessThan(2_000);
  }, 30_000);
});
