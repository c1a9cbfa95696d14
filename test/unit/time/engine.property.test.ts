import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  activityByDate,
  type ClockEvent,
  type Interval,
  interpretShifts,
  shiftSeconds,
} from '../../../src/time/engine.ts';

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

  it('counts on-call work as a slow minute-by-minute walk does, never more than the work', () => {
    // Non-overlapping on-call windows, in whole minutes from the origin, as published shifts are.
    const onCallWindows = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 7200 }), fc.integer({ min: 1, max: 1440 })), { maxLength: 6 })
      .map((list) => {
        const windows: Array<[number, number]> = [];
        let cursor = 0;
        for (const [gap, length] of list) {
          windows.push([cursor + gap, cursor + gap + length]);
          cursor += gap + length;
        }
        return windows;
      });
    const wholeMinutes = fc
      .tuple(
        fc.constantFrom(...ORIGINS),
        fc.array(
          fc.record({
            type: fc.constantFrom('in', 'out', 'break_start', 'break_end' as const),
            minute: fc.integer({ min: 0, max: 7200 }),
          }),
          { maxLength: 30 },
        ),
      )
      .map(([origin, list]) => ({
        origin,
        events: list.map(
          (event): ClockEvent => ({ type: event.type, at: origin.add({ minutes: event.minute }) }),
        ),
      }));
    fc.assert(
      fc.property(
        wholeMinutes,
        onCallWindows,
        fc.constantFrom(...ZONES),
        ({ origin, events }, windows, zone) => {
          const onCall: Interval[] = windows.map(([from, to]) => ({
            start: origin.add({ minutes: from }),
            end: origin.add({ minutes: to }),
          }));
          const minuteOf = (instant: Temporal.Instant) => origin.until(instant).total('minutes');
          const inWindow = (minute: number) => windows.some(([from, to]) => minute >= from && minute < to);
          // The reference: walk each closed shift minute by minute, outside its breaks.
          let reference = 0;
          for (const shift of interpretShifts(events, NOW).shifts) {
            if (shift.status !== 'closed' || !shift.end) continue;
            for (let minute = minuteOf(shift.start); minute < minuteOf(shift.end); minute += 1) {
              const onBreak = shift.breaks.some(
                (pause) => minute >= minuteOf(pause.start) && minute < minuteOf(pause.end),
              );
              if (!onBreak && inWindow(minute)) reference += 1;
            }
          }
          const days = [...activityByDate(events, zone, NOW, onCall).values()];
          expect(days.reduce((sum, day) => sum + day.onCallSeconds, 0)).toBeCloseTo(reference * 60, 6);
          for (const day of days) {
            expect(day.onCallSeconds).toBeGreaterThanOrEqual(0);
            expect(day.onCallSeconds).toBeLessThanOrEqual(day.workedSeconds + 1e-6);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
