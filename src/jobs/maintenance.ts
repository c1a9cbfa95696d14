import type { Db } from '../db/database.ts';
import { type Clock, toDate } from '../time/clock.ts';
import type { Job } from './runner.ts';

/** Sweeps finished rate-limit windows and expired idempotency records. */
export function maintenanceJob(deps: { db: Db; clock: Clock }): Job {
  return {
    name: 'maintenance',
    idleMilliseconds: 60_000,
    tick: async () => {
      const now = deps.clock.now();
      await deps.db
        .deleteFrom('rate_limit_windows')
        .where('window_start', '<', toDate(now.subtract({ minutes: 10 })))
        .execute();
      await deps.db.deleteFrom('idempotency_keys').where('expires_at', '<', toDate(now)).execute();
      return 0;
    },
  };
}
