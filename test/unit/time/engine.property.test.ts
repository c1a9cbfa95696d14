import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activityByDate, type ClockEvent, interpretShifts, shiftSeconds } from '../../../src/time/engine.ts';

const ZONES = ['Europe/Madrid', 'Pacific/Auckland', 'America/Los_Angeles', 'UTC'];
// Around both 2026 Madrid DST transitions, so random shifts cross them.
const ORIGINS = ['2026-03-27T00:00:00Z', '2026-10-23T00:00:00Z', '2026-06-01T00:00:00Z'].map((value) =>
  Temporal.Instant.from(value),
);
const NOW = Temporal.Instant.from('2027-01-01T00:00:00Z');

const eventList = fc
  .tuple(
    fc.constantFrom(...ORIGINS),
    fc.array(
      fc.record({
        type: fc.constantFrom('in', 'out', 'break_start', 'break_end' as const),
        // Up to five days, in whole minutes or seconds.
        offset: fc.oneof(
          fc.integer({ min: 0, max: 7200 }).map((m) => m * 60),
          fc.integer({ min: 0, max: 432_000 }),
        ),
      }),
      { maxLength: 40 },
    ),
  )
  .map(([origin, list]) =>
    list.map((event): ClockEvent => ({ type: event.type, at: origin.add({ seconds: event.offset }) })),
  );

describe('time engine properties', () => {
  it('worked + break equals the sum of the closed shift spans, and night never exceeds worked', () => {
    fc.assert(
      fc.property(eventList, fc.constantFrom(...ZONES), (events, zone) => {
        const { shifts } = interpretShifts(events, NOW);
        let spans = 0;
        for (const shift of shifts) if (shift.status === 'closed') spans += shiftSeconds(shift, zone).span;
        const days = [...activityByDate(events, zone, NOW).values()];
        const worked = days.reduce((sum, day) => sum + day.workedSeconds, 0);
        const breaks = days.reduce((sum, day) => sum + day.breakSeconds, 0);
        expect(worked + breaks).toBeCloseTo(spans, 6);
        for (const day of days) {
          expect(day.nightSeconds).toBeLessThanOrEqual(day.workedSeconds + 1e-6);
          expect(day.nightSeconds).toBeGreaterThanOrEqual(0);
          expect(day.workedSeconds).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order in which check-ins were inserted', () => {
    fc.assert(
      fc.property(
        eventList.chain((events) =>
          fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length })),
        ),
        fc.constantFrom(...ZONES),
        ([events, shuffled], zone) => {
          expect(activityByDate(shuffled, zone, NOW)).toEqual(activityByDate(events, zone, NOW));
        },
      ),
      { numRuns: 300 },
    );
  });
});
