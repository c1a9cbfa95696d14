import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinedRanges } from '../../../../src/modules/workdays/write-days.ts';

/**
 * A write of many punches recomputes each stretch of days once (issue 42): an employee's overlapping or adjacent
 * touched ranges are joined, and only those; days no punch reached stay out of the write.
 */
describe('the ranges a write of days recomputes', () => {
  it('joins an employee’s overlapping and adjacent ranges, and keeps a gap apart', () => {
    const touched = [
      { employeeId: 'a', from: '2026-11-03', to: '2026-11-05' },
      { employeeId: 'b', from: '2026-11-01', to: '2026-11-02' },
      { employeeId: 'a', from: '2026-11-02', to: '2026-11-04' },
      { employeeId: 'a', from: '2026-11-06', to: '2026-11-07' },
      { employeeId: 'a', from: '2026-11-10', to: '2026-11-11' },
      { employeeId: 'b', from: '2026-11-02', to: '2026-11-03' },
    ];
    expect(joinedRanges(touched)).toEqual([
      { employeeId: 'a', from: '2026-11-02', to: '2026-11-07' },
      { employeeId: 'a', from: '2026-11-10', to: '2026-11-11' },
      { employeeId: 'b', from: '2026-11-01', to: '2026-11-03' },
    ]);
  });

  it('lets a range through the horizon swallow every later one, and crosses months and years', () => {
    const touched = [
      { employeeId: 'a', from: '2026-12-31', to: 'horizon' as const },
      { employeeId: 'a', from: '2027-01-05', to: '2027-01-06' },
      { employeeId: 'a', from: '2026-12-30', to: '2026-12-30' },
      { employeeId: 'a', from: '2026-11-30', to: '2026-11-30' },
      { employeeId: 'a', from: '2026-12-01', to: '2026-12-02' },
    ];
    expect(joinedRanges(touched)).toEqual([
      { employeeId: 'a', from: '2026-11-30', to: '2026-12-02' },
      { employeeId: 'a', from: '2026-12-30', to: 'horizon' },
    ]);
  });

  it('covers every day of every range given, and no other day', () => {
    const days = (from: string, to: string) => {
      const out: string[] = [];
      for (let day = Temporal.PlainDate.from(from); day.toString() <= to; day = day.add({ days: 1 }))
        out.push(day.toString());
      return out;
    };
    const base = Temporal.PlainDate.from('2026-12-20');
    const range = fc.record({
      start: fc.integer({ min: 0, max: 30 }),
      length: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(range, { minLength: 1, maxLength: 12 }), (ranges) => {
        const touched = ranges.map(({ start, length }) => ({
          employeeId: 'a',
          from: base.add({ days: start }).toString(),
          to: base.add({ days: start + length }).toString(),
        }));
        const wanted = new Set(touched.flatMap((one) => days(one.from, one.to)));
        const covered = joinedRanges(touched).flatMap((one) => days(one.from, one.to as string));
        expect(new Set(covered)).toEqual(wanted);
        expect(covered).toHaveLength(wanted.size);
      }),
    );
  });
});
