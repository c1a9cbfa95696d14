import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
};

/** What the receiver does with a request: answer a status, answer it after a delay, or hang (never answer). */
export type Reply = number | { status: number; afterMilliseconds: number } | 'hang';

export type Receiver = {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Decides each answer; the default answers 200. */
  respond: (request: ReceivedRequest, index: number) => Reply;
  /** Resolves when `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
};

/** A real HTTP server on 127.0.0.1 that records every request it gets, like a client's webhook receiver. */
export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>();
  const waiters: Array<() => void> = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    respond: () => 200,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.requests.length < count) {
        if (Date.now() > deadline) {
          throw new Error(`expected ${count} webhook requests, got ${receiver.requests.length}`);
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return receiver.requests;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const index = receiver.requests.push(received) - 1;
      for (const wake of waiters.splice(0)) wake();
      const reply = receiver.respond(received, index);
      if (reply === 'hang') {
        hanging.add(response);
        return;
      }
      const answer = (status: number) => {
        if (status >= 300 && status < 400) response.setHeader('location', '/elsewhere');
        response.writeHead(status, { 'content-type': 'text/plain' }).end(`status ${status}`);
      };
      if (typeof reply === 'number') answer(reply);
      else setTimeout(() => answer(reply.status), reply.afterMilliseconds);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}
