import { describe, expect, it } from 'vitest';
import { shiftEvents } from '../../../web/dashboard/src/shifts.ts';
import type { CheckIn } from '../../../web/dashboard/src/types.ts';

/** The time records screen groups a day by shift (issue 17): a night shift whole, with its next-day end. */
const checkIn = (
  id: string,
  type: CheckIn['type'],
  timestamp: string,
  status: CheckIn['status'] = 'active',
) => ({ id, type, timestamp, status }) as CheckIn;

const EVENTS = [
  checkIn('a', 'in', '2026-10-07T20:00:00Z'), // 22:00 in Madrid on the 7th
  checkIn('b', 'out', '2026-10-08T04:30:00Z'), // 06:30 on the 8th: ends the 7th's shift
  checkIn('c', 'in', '2026-10-08T20:00:00Z'), // 22:00 on the 8th
  checkIn('v', 'out', '2026-10-08T21:00:00Z', 'voided'), // a voided out that changes nothing
  checkIn('d', 'out', '2026-10-09T04:30:00Z'), // 06:30 on the 9th: ends the 8th's shift
];

describe('shiftEvents', () => {
  it('shows the 8th’s night shift whole, its end marked +1, and the end of the 7th’s shift marked as such', () => {
    const day = shiftEvents(EVENTS, '2026-10-08', 'Europe/Madrid');
    expect(day.map((event) => [event.id, event.dayOffset])).toEqual([
      ['b', -1],
      ['c', 0],
      ['v', 0],
      ['d', 1],
    ]);
  });

  it('keeps a day shift on its own date', () => {
    const events = [checkIn('x', 'in', '2026-10-08T07:00:00Z'), checkIn('y', 'out', '2026-10-08T15:00:00Z')];
    expect(shiftEvents(events, '2026-10-08', 'Europe/Madrid').map((event) => event.dayOffset)).toEqual([
      0, 0,
    ]);
    expect(shiftEvents(events, '2026-10-09', 'Europe/Madrid')).toEqual([]);
  });
});
