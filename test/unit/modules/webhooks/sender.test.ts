import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  attemptDelivery,
  type SignedRequest,
  signatureHeaders,
} from '../../../../src/modules/webhooks/sender.ts';
import type { TargetPolicy } from '../../../../src/modules/webhooks/target.ts';

/**
 * The sender on its own (issue 19): signatures made with node:crypto are the library's, connections are kept
 * alive and each new one is checked, and an attempt on a connection the receiver dropped is sent once more.
 */

const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

function signed(url: string, eventId = 'evt_00000000000000000000000000000010'): SignedRequest {
  return { url, eventId, timestamp: new Date(), body: '{"ping":true}', secret };
}

/** A plain HTTP server that counts the connections it accepted; `answer` decides per request. */
async function countingServer(answer: (socketRequests: number, response: http.ServerResponse) => void) {
  let connections = 0;
  let requests = 0;
  const perSocket = new WeakMap<object, number>();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      const count = (perSocket.get(request.socket) ?? 0) + 1;
      perSocket.set(request.socket, count);
      answer(count, response);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    requests: () => requests,
  };
}

describe('signatures', () => {
  it('are exactly what standardwebhooks signs, and its verify accepts them', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 24, maxLength: 64 }),
        fc.string({ minLength: 1, maxLength: 40 }).map((text) => `evt_${text.replace(/[^\w]/g, 'x')}`),
        fc.integer({ min: 1_600_000_000, max: 2_000_000_000 }),
        fc.json({ maxDepth: 3 }),
        (key, eventId, seconds, body) => {
          // verify parses the body as JSON, as a receiver would.
          const keySecret = `whsec_${Buffer.from(key).toString('base64')}`;
          const timestamp = new Date(seconds * 1000 + 999);
          const headers = signatureHeaders({ eventId, timestamp, body, secret: keySecret });
          const library = new Webhook(keySecret);
          expect(headers['webhook-signature']).toBe(library.sign(eventId, timestamp, body));
          expect(headers['webhook-timestamp']).toBe(String(seconds));
          // verify also checks the timestamp against its own clock (5 minutes either way): signed now.
          const now = signatureHeaders({ eventId, timestamp: new Date(), body, secret: keySecret });
          expect(() => library.verify(body, { ...now })).not.toThrow();
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('connections', () => {
  it('keeps connections alive: 200 attempts, 8 at a time, open at most 16 connections', async () => {
    const server = await countingServer((_, response) => response.writeHead(204).end());
    const policy: TargetPolicy = { allowPrivate: true, resolve: async () => [] };
    const url = `http://127.0.0.1:${server.port}/hook`;
    for (let round = 0; round < 25; round++) {
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, () => attemptDelivery(signed(url), policy)),
      );
      expect(outcomes.every((outcome) => outcome.succeeded)).toBe(true);
    }
    expect(server.requests()).toBe(200);
    // Up to twice the attempts in flight: undici opens another connection when an attempt starts before the
    // previous one's connection has reported itself free; without keep-alive it would be 200.
    expect(server.connections()).toBeGreaterThan(0);
    expect(server.connections()).toBeLessThanOrEqual(16);
  });

  it('sends an attempt once more on a new connection when the receiver dropped the kept-alive one unanswered', async () => {
    // Every connection's second request is dropped without an answer (as a receiver closing an idle socket).
    let dropped = 0;
    const server = await countingServer((socketRequests, response) => {
      if (socketRequests === 2) {
        dropped++;
        response.socket?.destroy();
      } else response.writeHead(200).end('fine');
    });
    const policy: TargetPolicy = { allowPrivate: true, resolve: async () => [] };
    const url = `http://127.0.0.1:${server.port}/hook`;
    for (let attempt = 0; attempt < 6; attempt++) {
      expect(await attemptDelivery(signed(url), policy)).toMatchObject({
        succeeded: true,
        responseStatus: 200,
        responseBody: 'fine',
      });
    }
    expect(dropped).toBeGreaterThan(0);
    expect(server.requests()).toBe(6 + dropped);
  });

  it('keeps the status and the part of the body that came when the receiver cuts its answer short', async () => {
    // 200 announced with 1,000 bytes; 7 come, then the connection is reset.
    const server = await countingServer((_, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('partial', () => setImmediate(() => response.socket?.destroy()));
    });
    const policy: TargetPolicy = { allowPrivate: true, resolve: async () => [] };
    const outcome = await attemptDelivery(signed(`http://127.0.0.1:${server.port}/cut`), policy);
    expect(outcome).toMatchObject({
      succeeded: true,
      responseStatus: 200,
      responseBody: 'partial',
      error: null,
    });
  });

  it('ends an attempt whose answer stalls after its status at the 10 s limit, and closes its connection', async () => {
    // undici's own timers are off (WITHOUT_UNDICI_TIMERS): the attempt's deadline alone ends it.
    let closed = false;
    const server = await countingServer((_, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('slow');
      response.socket?.on('close', () => {
        closed = true;
      });
    });
    const policy: TargetPolicy = { allowPrivate: true, resolve: async () => [] };
    const started = performance.now();
    const outcome = await attemptDelivery(signed(`http://127.0.0.1:${server.port}/stall`), policy);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(9_900);
    expect(elapsed).toBeLessThan(12_000);
    // Its status came in time, so it decides; the body is what came.
    expect(outcome).toMatchObject({ succeeded: true, responseStatus: 200, responseBody: 'slow' });
    await expect.poll(() => closed).toBe(true);
  }, 20_000);

  it('checks the port of each endpoint URL against the policy, also when other URLs were sent before', async () => {
    const server = await countingServer((_, response) => response.writeHead(204).end());
    const policy: TargetPolicy = { allowPrivate: false, resolve: async () => [], allowedPorts: [443] };
    const local: TargetPolicy = { allowPrivate: true, resolve: async () => [] };
    expect((await attemptDelivery(signed(`http://127.0.0.1:${server.port}/a`), local)).succeeded).toBe(true);
    // The same URL under a policy that does not allow its port: refused, whatever another policy decided.
    expect(await attemptDelivery(signed(`http://127.0.0.1:${server.port}/a`), policy)).toEqual({
      succeeded: false,
      responseStatus: null,
      error: 'refused: url must use port 443',
    });
    expect(server.requests()).toBe(1);
  });

  it('resolves and checks the host for each new connection, not for each attempt on a kept-alive one', async () => {
    let close = false;
    const server = await countingServer((_, response) => {
      if (close) response.setHeader('connection', 'close');
      response.writeHead(204).end();
    });
    let lookups = 0;
    const policy: TargetPolicy = {
      allowPrivate: true,
      resolve: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    };
    const url = `http://kept.example.test:${server.port}/hook`;
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await attemptDelivery(signed(url), policy)).succeeded).toBe(true);
    }
    expect(lookups).toBe(server.connections());
    expect(lookups).toBeLessThanOrEqual(2);
    // A receiver that closes every connection: each attempt opens a new one, resolved and checked again.
    close = true;
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await attemptDelivery(signed(url), policy)).succeeded).toBe(true);
    }
    expect(lookups).toBeGreaterThanOrEqual(5);
    expect(lookups).toBe(server.connections());
  });
});
