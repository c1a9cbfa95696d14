/**
 * The only source of "now" in Jornada. Domain code receives a Clock; nothing else reads the wall clock.
 */
export type Clock = {
  now(): Temporal.Instant;
};

export const systemClock: Clock = {
  now: () => Temporal.Now.instant(),
};

/**
 * A clock that runs at real speed from an adjustable offset. Used by tests and by deployments started with
 * JORNADA_FAKE_CLOCK=1, where `POST /admin/v1/clock/advance` moves it forward. The offset is also stored in the
 * database (see clock.repo.ts) so that API and worker processes sharing one PostgreSQL agree on the time.
 */
export class FakeClock implements Clock {
  #offsetMilliseconds = 0;
  readonly #base: Clock;

  constructor(base: Clock = systemClock) {
    this.#base = base;
  }

  now(): Temporal.Instant {
    return this.#base.now().add({ milliseconds: this.#offsetMilliseconds });
  }

  get offsetMilliseconds(): number {
    return this.#offsetMilliseconds;
  }

  setOffset(milliseconds: number): void {
    this.#offsetMilliseconds = milliseconds;
  }

  advance(seconds: number): void {
    this.#offsetMilliseconds += Math.round(seconds * 1000);
  }
}

/** A clock frozen at one instant unless moved: for pure unit tests. */
export class FrozenClock implements Clock {
  #now: Temporal.Instant;
  constructor(now: Temporal.Instant | string) {
    this.#now = typeof now === 'string' ? Temporal.Instant.from(now) : now;
  }
  now(): Temporal.Instant {
    return this.#now;
  }
  advance(seconds: number): void {
    this.#now = this.#now.add({ milliseconds: Math.round(seconds * 1000) });
  }
}

export function toDate(instant: Temporal.Instant): Date {
  return new Date(instant.epochMilliseconds);
}

/** A stored timestamp (a Date, as pg reads timestamptz) as an instant. */
export function toInstant(date: Date): Temporal.Instant {
  return Temporal.Instant.fromEpochMilliseconds(date.getTime());
}

/** The public instant shape: YYYY-MM-DDThh:mm:ssZ. */
export function formatInstant(value: Date | Temporal.Instant): string {
  const milliseconds = value instanceof Date ? value.getTime() : value.epochMilliseconds;
  return `${new Date(Math.floor(milliseconds / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
