import { sendShiftNotices } from '../modules/shifts/shifts.service.ts';
import type { AppDeps } from '../platform/deps.ts';
import type { Job } from './runner.ts';

/** E-mails workers whose published shifts changed (issue 38), a few at a time. */
export function shiftNoticesJob(deps: Pick<AppDeps, 'db' | 'clock' | 'mailer' | 'publicUrl'>): Job {
  return {
    name: 'shift-notices',
    idleMilliseconds: 5_000,
    tick: async () => await sendShiftNotices(deps),
  };
}
