import { Webhook } from 'standardwebhooks';
import { Pool } from 'undici';

/**
 * The webhooks bench's control (issue 19), run in a process of its own: `node webhook-control.ts PORT COUNT
 * CONCURRENCY`, the body on stdin. A bare undici POST loop with keep-alive to the receiver on PORT, CONCURRENCY
 * requests in flight, each signed with standardwebhooks as the worker signs, after a warm-up of 10,000; prints
 * `{"rate": requests a second}`.
 */
const [port, count, concurrency] = process.argv.slice(2).map(Number) as [number, number, number];
let body = '';
for await (const chunk of process.stdin) body += chunk;

const pool = new Pool(`http://127.0.0.1:${port}`, { connections: concurrency });
const webhook = new Webhook(`whsec_${Buffer.from('a control secret of 32 bytes....').toString('base64')}`);
/** Sends `total` signed POSTs, `concurrency` at a time; returns the seconds it took. */
async function send(total: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  const loop = async () => {
    while (next < total) {
      const id = `evt_control_${next++}`;
      const now = new Date();
      const response = await pool.request({
        method: 'POST',
        path: '/control',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': webhook.sign(id, now, body),
        },
        body,
      });
      await response.body.dump();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return (performance.now() - started) / 1000;
}

// Warmed up first, as the worker is by the time it is measured (its code has run before, its connections are
// open): the control is measured at its best.
await send(Math.min(count, 10_000));
const seconds = await send(count);
await pool.close();
process.stdout.write(`${JSON.stringify({ rate: count / seconds })}\n`);
