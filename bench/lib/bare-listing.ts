import Fastify from 'fastify';
import { createDb } from '../../src/db/database.ts';
import { SyncHorizon } from '../../src/db/sync-stamp.ts';
import { syncFakeClock } from '../../src/modules/clock/clock.service.ts';
import { listEmployees } from '../../src/modules/employees/employees.service.ts';
import { CursorCodec } from '../../src/platform/pagination.ts';
import { FakeClock, systemClock } from '../../src/time/clock.ts';

/**
 * The platform bench's control: `GET /v1/employees?limit=` on a bare Fastify route that runs the same listing
 * (the same service function, so the same SQL and the same row mapping) on a pool of the service's size, for one
 * fixed company, with no key, no limits, no logging, no schema. `node bench/lib/bare-listing.ts <db url> <company>`
 * prints `{ port }`.
 */
const [url, companyId] = process.argv.slice(2) as [string, string];
const db = createDb(url, { max: 20 });
// The service runs on its fake clock and stamps the employees with it, so the listing's horizon reads the same
// clock: its offset as stored when the control starts, after the employees were written.
const clock = new FakeClock(systemClock);
await syncFakeClock(db, clock);
const deps = { db, cursors: new CursorCodec(Buffer.alloc(32)), syncHorizon: new SyncHorizon(db, clock) };
const app = Fastify({ logger: false });
app.get('/v1/employees', async (request) => {
  const limit = Number((request.query as { limit?: string }).limit ?? 25);
  return await listEmployees(deps, { companyId }, { limit });
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' ? address?.port : 0 })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => db.destroy());
});
