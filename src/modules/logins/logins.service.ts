import type { Db } from '../../db/database.ts';
import { ApiError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { type Clock, toDate } from '../../time/clock.ts';
import {
  deleteAttempt,
  deleteFailures,
  deleteFailuresBefore,
  insertFailures,
  lockSubjects,
  recentFailures,
} from './logins.repo.ts';

/**
 * Login throttling, for every password login (the dashboard's and the workers' portal's): after MAX_FAILURES
 * attempts for one email or from one address within the window that did not succeed (failed, or still being
 * checked), further attempts are refused with 429 rate_limited and Retry-After, without checking the password,
 * until the oldest leaves the window.
 */
export const MAX_FAILURES = 10;
export const WINDOW_MINUTES = 15;

export type LoginAttempt = { email: string; ip: string };

const subjectsOf = (attempt: LoginAttempt) => [
  `email:${attempt.email.trim().toLowerCase()}`,
  `ip:${attempt.ip}`,
];

/** The 429 of a locked-out email or address, with the seconds until the oldest counted attempt leaves the window. */
function lockedOut(locked: ReadonlyArray<{ oldest: Date }>, now: Temporal.Instant): ApiError {
  // Free again when the oldest counted failure leaves the window (a conservative bound for a subject with more).
  const freeAt = Math.max(...locked.map((row) => row.oldest.getTime() + WINDOW_MINUTES * 60_000));
  const retryAfter = Math.max(1, Math.ceil((freeAt - now.epochMilliseconds) / 1000));
  return new ApiError(
    'rate_limited',
    `Too many failed logins for this email or from this address. Try again in ${retryAfter} seconds.`,
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

/**
 * Reserves an attempt before its password is checked (issue 35): under an advisory lock of the email and of the
 * address, it counts the attempts of the window (failures, and attempts still being checked) and either refuses
 * (429) or records this one as a failure until it succeeds. However many arrive at once, at most MAX_FAILURES
 * passwords are ever checked per email and per address in the window. Returns the attempt's id.
 */
export async function reserveLoginAttempt(db: Db, clock: Clock, attempt: LoginAttempt): Promise<string> {
  const now = clock.now();
  const subjects = subjectsOf(attempt);
  return await db.transaction().execute(async (tx) => {
    await lockSubjects(tx, subjects);
    const windowStart = toDate(now.subtract({ minutes: WINDOW_MINUTES }));
    const locked = (await recentFailures(tx, subjects, windowStart)).filter(
      (row) => row.failures >= MAX_FAILURES,
    );
    if (locked.length > 0) throw lockedOut(locked, now);
    const id = newId();
    await insertFailures(tx, subjects, toDate(now), id);
    return id;
  });
}

/**
 * A password login under the throttle: the attempt reserved before the password is checked (429 while the email
 * or the address is locked out), its reservation kept as a failure when `check` finds no match (401), and on
 * success the email's failures and this attempt's rows deleted.
 */
export async function throttledLogin<T>(
  db: Db,
  clock: Clock,
  attempt: LoginAttempt,
  check: () => Promise<T | null>,
): Promise<T> {
  const attemptId = await reserveLoginAttempt(db, clock, attempt);
  const found = await check();
  if (found === null) throw new ApiError('unauthenticated', 'The email or the password is wrong.');
  const [email] = subjectsOf(attempt);
  await deleteFailures(db, email as string);
  await deleteAttempt(db, attemptId);
  return found;
}

/** Maintenance: failures older than the window count for nothing. */
export async function sweepLoginFailures(db: Db, now: Temporal.Instant): Promise<void> {
  await deleteFailuresBefore(db, toDate(now.subtract({ minutes: WINDOW_MINUTES })));
}
