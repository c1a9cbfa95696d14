import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDateTimeText } from '../../../src/time/local-text.ts';

/** The exports' local time (issue 19) writes exactly what Intl writes for the same instant and zone. */
const ZONES = [
  'Europe/Madrid',
  'Atlantic/Canary',
  'America/New_York',
  'America/Sao_Paulo',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'UTC',
];

function reference(at: Date, zone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(at);
}

describe('localDateTimeText', () => {
  it('agrees with Intl for any instant from 1970 to 2100 in zones with and without summer time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom(...ZONES),
        (epochMs, zone) => {
          const at = new Date(epochMs);
          expect(localDateTimeText(at, zone)).toBe(reference(at, zone));
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('agrees around the transitions of summer time in Madrid, to the millisecond', () => {
    for (const transition of [Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1)]) {
      for (const delta of [-3_600_001, -1_000, -1, 0, 1, 999, 1_000, 3_600_000]) {
        const at = new Date(transition + delta);
        expect(localDateTimeText(at, 'Europe/Madrid')).toBe(reference(at, 'Europe/Madrid'));
      }
    }
    expect(localDateTimeText(new Date(Date.UTC(2026, 9, 25, 0, 30)), 'Europe/Madrid')).toBe(
      '2026-10-25 02:30:00',
    );
    expect(localDateTimeText(new Date(Date.UTC(2026, 9, 25, 1, 30)), 'Europe/Madrid')).toBe(
      '2026-10-25 02:30:00',
    );
  });

  it('is right before a transition after it was first asked for the transition instant itself', () => {
    // Each zone is asked here first (nothing above uses them), so its first span is the one made at the instant
    // of a transition: it must start there, not cover the months before with the new offset.
    const autumn = Date.UTC(2026, 9, 25, 1);
    expect(localDateTimeText(new Date(autumn), 'Europe/Lisbon')).toBe('2026-10-25 01:00:00');
    expect(localDateTimeText(new Date(autumn - 1_800_000), 'Europe/Lisbon')).toBe('2026-10-25 01:30:00');
    expect(localDateTimeText(new Date(Date.UTC(2026, 5, 1, 12)), 'Europe/Lisbon')).toBe(
      '2026-06-01 13:00:00',
    );
    const spring = Date.UTC(2026, 2, 29, 1);
    expect(localDateTimeText(new Date(spring), 'Europe/London')).toBe('2026-03-29 02:00:00');
    expect(localDateTimeText(new Date(spring - 1), 'Europe/London')).toBe('2026-03-29 00:59:59');
    expect(localDateTimeText(new Date(Date.UTC(2026, 0, 15, 12)), 'Europe/London')).toBe(
      '2026-01-15 12:00:00',
    );
    for (const at of [autumn, autumn - 1_800_000, spring, spring - 1]) {
      for (const zone of ['Europe/Lisbon', 'Europe/London']) {
        expect(localDateTimeText(new Date(at), zone)).toBe(reference(new Date(at), zone));
      }
    }
  });
});
