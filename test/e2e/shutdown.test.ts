import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { freePort, startServiceNode } from '../helpers/service.ts';

/**
 * SIGTERM drains within a deadline: /readyz answers 503 at once, in-flight requests get the deadline, then the
 * connections still open are closed. Before the deadline existed, one slow download kept a node alive for
 * minutes.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

/** A raw HTTP/1.1 connection: requests are written by hand, and reading can be paused (a slow client). */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  return {
    socket,
    received: () => received,
    send: (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`),
    closed: new Promise<void>((resolve) => socket.on('close', () => resolve())),
  };
}

describe('SIGTERM', () => {
  it('answers /readyz 503 while draining and closes a stalled request at the drain deadline', async () => {
    const port = await freePort();
    const node = await startServiceNode(database.url, 'api', {
      port,
      env: { JORNADA_DRAIN_TIMEOUT_MS: '3000', JORNADA_DRAIN_READINESS_MS: '1000', JORNADA_FAKE_CLOCK: '0' },
    });
    const exited = new Promise<number | null>((resolve) => node.child.on('exit', (code) => resolve(code)));

    // A slow client: its request is in flight (the body announced, a few bytes of it sent, the rest never).
    const slow = connect(port);
    await new Promise((resolve) => slow.socket.once('connect', resolve));
    slow.socket.write(
      'POST /v1/employees HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"fir',
    );

    // A load balancer's keep-alive connection, already open.
    const probe = connect(port);
    probe.send('/readyz');
    await expect.poll(() => probe.received()).toContain('"status":"ready"');

    const began = performance.now();
    node.child.kill('SIGTERM');
    await expect.poll(() => node.output()).toContain('SIGTERM received: draining');
    probe.send('/readyz');
    await expect.poll(() => probe.received()).toMatch(/HTTP\/1\.1 503[\s\S]*"status":"draining"/);

    expect(await exited).toBe(0);
    const milliseconds = performance.now() - began;
    expect(milliseconds).toBeGreaterThan(2_500);
    expect(milliseconds).toBeLessThan(3_000 + 4_000);
    expect(node.output()).toContain('drain deadline passed: closing connections');
    await slow.closed;
    probe.socket.destroy();
  }, 60_000);
});
