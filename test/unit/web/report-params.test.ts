import { describe, expect, it } from 'vitest';
import { orderedParams } from '../../../web/dashboard/src/report-params.ts';

/** Issue 39: a report's parameters read in order, whatever order the stored JSON gives its keys. */
describe('a report’s parameters on the dashboard', () => {
  it('reads from before to, the month first, and keeps any other key after them', () => {
    // PostgreSQL's jsonb orders keys by length: `to` before `from`.
    expect(orderedParams({ to: '2026-11-30', from: '2026-11-01' })).toEqual([
      ['from', '2026-11-01'],
      ['to', '2026-11-30'],
    ]);
    expect(orderedParams({ locale: 'es', month: '2026-10', extra: 1 }).map(([key]) => key)).toEqual([
      'month',
      'locale',
      'extra',
    ]);
  });
});
