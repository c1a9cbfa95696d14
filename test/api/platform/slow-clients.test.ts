import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { createTestContext, type TestContext } from '../../helpers/context.ts';

/** Slow clients cannot hold connections: the request's headers and body must arrive within their timeouts. */
let ctx: TestContext;
let app: FastifyInstance;
let port = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  app = await buildApp(ctx.deps, {
    http: { requestTimeoutMs: 2_000, headersTimeoutMs: 1_000, keepAliveTimeoutMs: 1_000 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await app?.close();
  await ctx?.close();
});

/** Opens a connection that writes `chunks` one at a time, `everyMs` apart; resolves when the server closes it. */
function trickle(chunks: string[], everyMs: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.on('error', () => {});
  let next = 0;
  const timer = setInterval(() => {
    if (next < chunks.length && socket.writable) socket.write(chunks[next++] as string);
  }, everyMs);
  const began = performance.now();
  return new Promise<{ milliseconds: number; received: string }>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ milliseconds: performance.now() - began, received });
    }),
  );
}

describe('slow clients', () => {
  it('closes 20 connections that send the login body one byte at a time, with 408 problem+json', async () => {
    const body = JSON.stringify({ email: 'slow@example.com', password: 'a password that never ends' });
    const head = `POST /dashboard/api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => trickle([head, ...body.split('')], 300)),
    );
    for (const result of results) {
      expect(result.milliseconds).toBeLessThan(2_000 + 1_500);
      expect(result.received).toMatch(/^HTTP\/1\.1 408/);
      expect(result.received).toContain('application/problem+json');
    }
  }, 15_000);

  it('closes a connection that sends its headers one line at a time', async () => {
    const lines = [
      'GET /healthz HTTP/1.1\r\n',
      ...Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: 1\r\n`),
    ];
    const result = await trickle(lines, 200);
    // The headers timeout, plus up to one check interval (1 s), plus slack.
    expect(result.milliseconds).toBeLessThan(1_000 + 1_000 + 1_000);
  }, 10_000);

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const result = await trickle(['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'], 10);
    expect(result.received).toMatch(/^HTTP\/1\.1 200/);
    // The keep-alive timeout, plus Node's 1 s keep-alive buffer, plus slack.
    expect(result.milliseconds).toBeLessThan(1_000 + 1_000 + 1_000);
  }, 10_000);
});
