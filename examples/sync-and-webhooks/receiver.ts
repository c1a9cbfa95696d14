/**
 * Receives Jornada's webhooks, checks each signature, and syncs when employees or check-ins change.
 *
 *   JORNADA_URL=… JORNADA_API_KEY=… JORNADA_WEBHOOK_SECRET=whsec_… PORT=4000 node receiver.ts [store.json]
 *
 * On a laptop, with a test key: `jornada listen --forward-to http://localhost:4000/hooks` prints the secret to
 * give as JORNADA_WEBHOOK_SECRET and forwards the sandbox's events here.
 *
 * A delivery is answered at once (2xx within the service's timeout, or it is retried) and the work happens after;
 * deliveries may come twice or out of order, so an event only says "something changed": the sync reads the
 * current state rather than trusting the event's order.
 */
import http from 'node:http';
import { WebhookVerificationError, webhooks } from '@jornada/sdk';
import { clientFromEnvironment, sync } from './sync.ts';

const secret = process.env.JORNADA_WEBHOOK_SECRET;
if (!secret) {
  process.stderr.write('Set JORNADA_WEBHOOK_SECRET (the endpoint’s signing secret).\n');
  process.exit(2);
}
const jornada = clientFromEnvironment();
const store = process.argv[2] ?? 'store.json';

// One sync at a time; events arriving meanwhile ask for one more run after it, not one each.
let running: Promise<void> | null = null;
let again = false;
function requestSync(): void {
  if (running) {
    again = true;
    return;
  }
  running = (async () => {
    do {
      again = false;
      const result = await sync(jornada, store);
      process.stdout.write(
        `synced: employees ${result.employees.changed} changed, check-ins ${result.checkIns.changed} changed\n`,
      );
    } while (again);
  })()
    .catch((error: unknown) => {
      process.stderr.write(`sync failed: ${String(error)}\n`);
    })
    .finally(() => {
      running = null;
    });
}

const server = http.createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/hooks') {
    response.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      // The raw body, exactly as received: the signature covers these bytes.
      const event = webhooks.verify(Buffer.concat(chunks), request.headers, secret);
      process.stdout.write(`verified ${event.type} ${event.id}\n`);
      response.writeHead(204).end();
      if (event.type.startsWith('employee.') || event.type === 'checkin.created') requestSync();
    } catch (error) {
      const forged = error instanceof WebhookVerificationError;
      process.stdout.write(`refused a delivery: ${String(error)}\n`);
      // 400: not from Jornada, never retried. 500: our fault, and Jornada sends it again later.
      response.writeHead(forged ? 400 : 500).end();
    }
  });
});

server.listen(Number(process.env.PORT ?? 4000), () => {
  process.stdout.write(
    `listening on http://localhost:${(server.address() as { port: number }).port}/hooks\n`,
  );
});
