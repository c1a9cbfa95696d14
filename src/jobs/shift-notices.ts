import { tellShiftChanges } from '../modules/shifts/shifts.service.ts';
import type { AppDeps } from '../platform/deps.ts';
import type { Job } from './runner.ts';

/** Tells workers whose published shifts changed (issue 38; a notification since issue 39), a few at a time. */
export function shiftNoticesJob(deps: Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'publicUrl'>): Job {
  return {
    name: 'shift-notices',
    idleMilliseconds: 5_000,
    tick: async () => await tellShiftChanges(deps),
  };
}
