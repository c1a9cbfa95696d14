import { tellMissedClockOuts } from '../modules/workdays/missed-clock-outs.ts';
import type { AppDeps } from '../platform/deps.ts';
import type { Job } from './runner.ts';

/** Tells workers and their approvers of probable missed clock-outs (issue 39), every five minutes. */
export function missedClockOutsJob(deps: Pick<AppDeps, 'db' | 'clock'>): Job {
  return {
    name: 'missed-clock-outs',
    idleMilliseconds: 300_000,
    tick: async () => {
      await tellMissedClockOuts(deps);
      return 0;
    },
  };
}
