import type { Db } from '../../db/database.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Clock, toDate } from '../../time/clock.ts';
import { deleteFailures, deleteFailuresBefore, insertFailures, recentFailures } from './logins.repo.ts';

/**
 * Login throttling, for every password login (the dashboard's now, the workers' portal next): after
 * MAX_FAILURES failed attempts for one email or from one address within the window, further attempts are
 * refused with 429 rate_limited and Retry-After, without checking the password, until the oldest failure leaves
 * the window.
 */
export const MAX_FAILURES = 10;
export const WINDOW_MINUTES = 15;

export type LoginAttempt = { email: string; ip: string };

const subjectsOf = (attempt: LoginAttempt) => [
  `email:${attempt.email.trim().toLowerCase()}`,
  `ip:${attempt.ip}`,
];

/** Throws 429 when the email or the address is locked out; call before checking the password. */
export async function assertLoginAllowed(db: Db, clock: Clock, attempt: LoginAttempt): Promise<void> {
  const now = clock.now();
  const windowStart = now.subtract({ minutes: WINDOW_MINUTES });
  const locked = (await recentFailures(db, subjectsOf(attempt), toDate(windowStart))).filter(
    (row) => row.failures >= MAX_FAILURES,
  );
  if (locked.length === 0) return;
  // Free again when the oldest counted failure leaves the window (a conservative bound for a subject with more).
  const freeAt = Math.max(...locked.map((row) => row.oldest.getTime() + WINDOW_MINUTES * 60_000));
  const retryAfter = Math.max(1, Math.ceil((freeAt - now.epochMilliseconds) / 1000));
  throw new ApiError(
    'rate_limited',
    `Too many failed logins for this email or from this address. Try again in ${retryAfter} seconds.`,
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

/** Records the outcome of a checked attempt: a failure counts for the email and the address. */
export async function recordLoginOutcome(
  db: Db,
  clock: Clock,
  attempt: LoginAttempt,
  succeeded: boolean,
): Promise<void> {
  const [email] = subjectsOf(attempt);
  if (succeeded) await deleteFailures(db, email as string);
  else await insertFailures(db, subjectsOf(attempt), toDate(clock.now()));
}

/**
 * A password login under the throttle: refused (429) before the password is checked while the email or the
 * address is locked out, the outcome recorded, and 401 when `check` finds no match (null).
 */
export async function throttledLogin<T>(
  db: Db,
  clock: Clock,
  attempt: LoginAttempt,
  check: () => Promise<T | null>,
): Promise<T> {
  await assertLoginAllowed(db, clock, attempt);
  const found = await check();
  await recordLoginOutcome(db, clock, attempt, found !== null);
  if (found === null) throw new ApiError('unauthenticated', 'The email or the password is wrong.');
  return found;
}

/** Maintenance: failures older than the window count for nothing. */
export async function sweepLoginFailures(db: Db, now: Temporal.Instant): Promise<void> {
  await deleteFailuresBefore(db, toDate(now.subtract({ minutes: WINDOW_MINUTES })));
}
