import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ClosedShift,
  type ComplianceFinding,
  type ComplianceRule,
  complementaryLimitFindings,
  complianceFindings,
  LAW,
  LIMITS,
  outsideScheduleFindings,
  overtimeCapFindings,
} from '../../../src/time/compliance.ts';

/**
 * The legal-limit rules (src/time/compliance.ts) against a slow reference that reads the same shifts minute by
 * minute, in zones with a clock change inside the generated weeks.
 */
const ZONES = ['Europe/Madrid', 'Atlantic/Canary', 'UTC'];
// Weeks around the October 2026 and March 2027 clock changes, and a summer week.
const ORIGINS = ['2026-10-12', '2027-03-15', '2026-07-06'];
const RANGE_OFFSET = { from: 7, to: 27 };

type Generated = { origin: string; zone: string; shifts: ClosedShift[] };

/** Sequential shifts of whole minutes, each with up to two breaks strictly inside. */
const generated = fc
  .tuple(
    fc.constantFrom(...ORIGINS),
    fc.constantFrom(...ZONES),
    fc.array(
      fc.record({
        gap: fc.oneof(fc.integer({ min: 1, max: 900 }), fc.integer({ min: 600, max: 3000 })),
        length: fc.integer({ min: 20, max: 840 }),
        breaks: fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 40 })), {
          maxLength: 2,
        }),
      }),
      { minLength: 1, maxLength: 45 },
    ),
  )
  .map(([origin, zone, list]): Generated => {
    let cursor = Temporal.PlainDate.from(origin).toZonedDateTime({ timeZone: zone }).toInstant();
    const shifts: ClosedShift[] = [];
    for (const item of list) {
      const start = cursor.add({ minutes: item.gap });
      const end = start.add({ minutes: item.length });
      const breaks: ClosedShift['breaks'] = [];
      let breakCursor = 1;
      for (const [at, length] of item.breaks) {
        const breakStart = Math.max(breakCursor, at % item.length);
        const breakEnd = breakStart + length;
        if (breakEnd >= item.length) continue;
        breaks.push({ start: start.add({ minutes: breakStart }), end: start.add({ minutes: breakEnd }) });
        breakCursor = breakEnd + 1;
      }
      shifts.push({ start, end, breaks });
      cursor = end;
    }
    return { origin, zone, shifts };
  });

/** The same rules, read minute by minute from a bitmap of the work. */
function reference({ origin, zone, shifts }: Generated): ComplianceFinding[] {
  const t0 = Temporal.PlainDate.from(origin)
    .subtract({ days: 2 })
    .toZonedDateTime({ timeZone: zone })
    .toInstant();
  const size = 45 * 24 * 60;
  const index = (instant: Temporal.Instant) => Math.round(instant.since(t0).total('minutes'));
  const at = (minute: number) => t0.add({ minutes: minute });
  const owner = new Int32Array(size).fill(-1);
  for (const [number, shift] of shifts.entries()) {
    for (let minute = index(shift.start); minute < index(shift.end); minute++) owner[minute] = number;
    for (const pause of shift.breaks)
      for (let minute = index(pause.start); minute < index(pause.end); minute++) owner[minute] = -1;
  }
  const dateOf = (instant: Temporal.Instant) => instant.toZonedDateTimeISO(zone).toPlainDate().toString();
  const from = Temporal.PlainDate.from(origin).add({ days: RANGE_OFFSET.from }).toString();
  const to = Temporal.PlainDate.from(origin).add({ days: RANGE_OFFSET.to }).toString();
  const inRange = (date: string) => date >= from && date <= to;
  const findings: ComplianceFinding[] = [];
  const add = (date: string, rule: ComplianceRule, minutes: number, limit: number) =>
    findings.push({ date, rule, minutes: Math.round(minutes), limit, law: LAW[rule] });

  // Workdays: the shifts of each local date of an `in`.
  const dates = [...new Set(shifts.map((shift) => dateOf(shift.start)))].sort();
  const shiftsOf = (date: string) =>
    [...shifts.keys()].filter((number) => dateOf((shifts[number] as ClosedShift).start) === date);
  const worked = new Map<string, number>();
  const night = new Map<string, number>();
  for (const date of dates) {
    const mine = new Set(shiftsOf(date));
    let work = 0;
    let nightWork = 0;
    for (let minute = 0; minute < size; minute++) {
      if (!mine.has(owner[minute] as number)) continue;
      work += 1;
      const hour = at(minute).toZonedDateTimeISO(zone).hour;
      if (hour >= 22 || hour < 6) nightWork += 1;
    }
    worked.set(date, work);
    night.set(date, nightWork);
  }

  for (const [position, date] of dates.entries()) {
    if (!inRange(date)) continue;
    const work = worked.get(date) as number;
    if (work > LIMITS.dailyMinutes) add(date, 'daily_hours', work, LIMITS.dailyMinutes);
    const mine = shiftsOf(date);
    const firstStart = Math.min(...mine.map((number) => index((shifts[number] as ClosedShift).start)));
    const lastEnd = Math.max(...mine.map((number) => index((shifts[number] as ClosedShift).end)));
    const previous = dates[position - 1];
    if (previous !== undefined) {
      const previousEnd = Math.max(
        ...shiftsOf(previous).map((number) => index((shifts[number] as ClosedShift).end)),
      );
      const rest = firstStart - previousEnd;
      if (rest < LIMITS.restBetweenWorkdays)
        add(date, 'rest_between_workdays', rest, LIMITS.restBetweenWorkdays);
    }
    const own = new Set(mine);
    let longest = 0;
    let stretchStart = -1;
    let lastWork = -1;
    for (let minute = firstStart; minute < lastEnd; minute++) {
      if (!own.has(owner[minute] as number)) continue;
      if (stretchStart < 0 || minute - lastWork >= LIMITS.minimumBreak) stretchStart = minute;
      lastWork = minute + 1;
      longest = Math.max(longest, lastWork - stretchStart);
    }
    if (longest > LIMITS.continuousWork)
      add(date, 'continuous_work_without_break', longest, LIMITS.continuousWork);
  }

  // Weekly rest: the free runs of the bitmap, the first and last unbounded.
  const runs: Array<{ start: number; end: number }> = [];
  let runStart: number | null = Number.NEGATIVE_INFINITY;
  for (let minute = 0; minute < size; minute++) {
    const working = owner[minute] !== -1;
    if (working && runStart !== null) {
      runs.push({ start: runStart, end: minute });
      runStart = null;
    } else if (!working && runStart === null) runStart = minute;
  }
  runs.push({ start: runStart ?? size, end: Number.POSITIVE_INFINITY });
  for (
    let day = Temporal.PlainDate.from(from);
    Temporal.PlainDate.compare(day, Temporal.PlainDate.from(to)) <= 0;
    day = day.add({ days: 1 })
  ) {
    if (day.dayOfWeek !== 7) continue;
    const monday = day.subtract({ days: 6 });
    const weekStart = index(monday.toZonedDateTime({ timeZone: zone }).toInstant());
    const weekEnd = index(day.add({ days: 1 }).toZonedDateTime({ timeZone: zone }).toInstant());
    let longest = 0;
    for (const run of runs) {
      if (run.start >= weekEnd || run.end <= weekStart) continue;
      longest = Math.max(longest, run.end - Math.max(run.start, weekStart));
    }
    if (longest < LIMITS.weeklyRest) add(day.toString(), 'weekly_rest', longest, LIMITS.weeklyRest);
  }

  // Night work over fifteen days.
  for (const date of dates) {
    if (!inRange(date)) continue;
    const window = dates.filter(
      (other) =>
        other <= date &&
        other > Temporal.PlainDate.from(date).subtract({ days: LIMITS.nightReferenceDays }).toString(),
    );
    const nightDays = window.filter(
      (other) => (night.get(other) as number) >= LIMITS.nightWorkerNightMinutes,
    ).length;
    if (nightDays * 2 <= window.length) continue;
    const average = window.reduce((sum, other) => sum + (worked.get(other) as number), 0) / window.length;
    if (average > LIMITS.nightAverage) add(date, 'night_work_average', average, LIMITS.nightAverage);
  }
  return findings.sort((a, b) => a.date.localeCompare(b.date) || a.rule.localeCompare(b.rule));
}

function fast(input: Generated): ComplianceFinding[] {
  const origin = Temporal.PlainDate.from(input.origin);
  return complianceFindings(input.shifts, input.zone, {
    from: origin.add({ days: RANGE_OFFSET.from }).toString(),
    to: origin.add({ days: RANGE_OFFSET.to }).toString(),
  });
}

describe('legal-limit rules', () => {
  it('find exactly what a minute-by-minute reading finds, across clock changes', () => {
    fc.assert(
      fc.property(generated, (input) => {
        expect(fast(input)).toEqual(reference(input));
      }),
      { numRuns: 60 },
    );
  });

  it('are each exercised by the generated cases', () => {
    const seen = new Set<string>();
    for (const input of fc.sample(generated, { numRuns: 300, seed: 38 })) {
      for (const finding of reference(input)) seen.add(finding.rule);
    }
    expect([...seen].sort()).toEqual([
      'continuous_work_without_break',
      'daily_hours',
      'night_work_average',
      'rest_between_workdays',
      'weekly_rest',
    ]);
  });

  it('find each rule on a hand-made case', () => {
    const zone = 'Europe/Madrid';
    const at = (text: string) => Temporal.ZonedDateTime.from(`${text}[${zone}]`).toInstant();
    const shift = (start: string, end: string, breaks: Array<[string, string]> = []): ClosedShift => ({
      start: at(start),
      end: at(end),
      breaks: breaks.map(([from, to]) => ({ start: at(from), end: at(to) })),
    });
    const findings = complianceFindings(
      [
        // Monday: 10 hours with a 10-minute pause only: over 9 hours, and 10 h 10 min of continuous work.
        shift('2026-11-02T08:00', '2026-11-02T18:10', [['2026-11-02T12:00', '2026-11-02T12:10']]),
        // Tuesday: starts 11 h 50 min after Monday's end, and has a proper break.
        shift('2026-11-03T06:00', '2026-11-03T14:00', [['2026-11-03T10:00', '2026-11-03T10:30']]),
        // Work every day to the next Monday: the longest rest that starts in the week is Sunday 14:00 to Monday.
        ...['04', '05', '06', '07', '08', '09'].map((day) =>
          shift(`2026-11-${day}T08:00`, `2026-11-${day}T14:00`),
        ),
      ],
      zone,
      { from: '2026-11-02', to: '2026-11-08' },
    );
    expect(findings.map((finding) => [finding.date, finding.rule, finding.minutes])).toEqual([
      ['2026-11-02', 'continuous_work_without_break', 610],
      ['2026-11-02', 'daily_hours', 600],
      ['2026-11-03', 'rest_between_workdays', 710],
      ['2026-11-08', 'weekly_rest', 1080],
    ]);
    expect(findings.find((finding) => finding.rule === 'weekly_rest')?.law).toBe('ET art. 37.1');
    // A week without work has its rest, and so has one whose only rest began the Saturday before and runs on.
    const quiet = complianceFindings(
      [shift('2026-10-24T08:00', '2026-10-24T14:00'), shift('2026-11-09T08:00', '2026-11-09T14:00')],
      zone,
      { from: '2026-10-26', to: '2026-11-08' },
    );
    expect(quiet).toEqual([]);
    // A weekend rest covers its own week, and the next only from Monday 00:00: 8 hours there, not 42; that week's
    // longest rest is then a night's 12 hours.
    const weekend = complianceFindings(
      [
        ...['02', '03', '04', '05', '06', '07'].map((day) =>
          shift(`2026-11-${day}T08:00`, `2026-11-${day}T14:00`),
        ),
        ...['09', '10', '11', '12', '13', '14', '15', '16'].map((day) =>
          shift(`2026-11-${day}T08:00`, `2026-11-${day}T20:00`, [
            [`2026-11-${day}T12:00`, `2026-11-${day}T12:30`],
          ]),
        ),
      ],
      zone,
      { from: '2026-11-09', to: '2026-11-15' },
    );
    expect(weekend.filter((finding) => finding.rule === 'weekly_rest')).toEqual([
      expect.objectContaining({ date: '2026-11-15', minutes: 720 }),
    ]);
  });

  it('finds the night average of a night worker, across midnight', () => {
    const zone = 'Europe/Madrid';
    const shifts: ClosedShift[] = [];
    for (let day = 1; day <= 15; day++) {
      const start = Temporal.ZonedDateTime.from(`2026-11-${String(day).padStart(2, '0')}T22:00[${zone}]`);
      // 22:00 to 07:00 with a 30-minute break: 8 h 30 min a night, 7 h 30 of it at night.
      shifts.push({
        start: start.toInstant(),
        end: start.add({ hours: 9 }).toInstant(),
        breaks: [
          {
            start: start.add({ hours: 3 }).toInstant(),
            end: start.add({ hours: 3, minutes: 30 }).toInstant(),
          },
        ],
      });
    }
    const findings = complianceFindings(shifts, zone, { from: '2026-11-15', to: '2026-11-15' });
    expect(findings.filter((finding) => finding.rule === 'night_work_average')).toEqual([
      { date: '2026-11-15', rule: 'night_work_average', minutes: 510, limit: 480, law: 'ET art. 36.1' },
    ]);
  });

  it('measures remote work outside the planned shifts as a minute-by-minute reading does', () => {
    fc.assert(
      fc.property(
        generated,
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 40 }),
            fc.integer({ min: 0, max: 1439 }),
            fc.integer({ min: 1, max: 720 }),
          ),
          {
            maxLength: 30,
          },
        ),
        ({ origin, zone, shifts }, plans) => {
          const first = Temporal.PlainDate.from(origin);
          const planned = plans.map(([day, minute, length]) => {
            const date = first.add({ days: day }).toString();
            const startsAt = Temporal.PlainDate.from(date)
              .toZonedDateTime({ timeZone: zone })
              .toInstant()
              .add({ minutes: minute });
            return { date, startsAt, endsAt: startsAt.add({ minutes: length }) };
          });
          const range = {
            from: first.add({ days: RANGE_OFFSET.from }).toString(),
            to: first.add({ days: RANGE_OFFSET.to }).toString(),
          };
          // The reference: every minute of work, dated by its shift's start, inside a plan of that date or not.
          const outside = new Map<string, number>();
          for (const shift of shifts) {
            const date = shift.start.toZonedDateTimeISO(zone).toPlainDate().toString();
            const plansOfDate = planned.filter((plan) => plan.date === date);
            if (plansOfDate.length === 0) continue;
            for (
              let at = shift.start;
              Temporal.Instant.compare(at, shift.end) < 0;
              at = at.add({ minutes: 1 })
            ) {
              const resting = shift.breaks.some(
                (pause) =>
                  Temporal.Instant.compare(at, pause.start) >= 0 &&
                  Temporal.Instant.compare(at, pause.end) < 0,
              );
              const inPlan = plansOfDate.some(
                (plan) =>
                  Temporal.Instant.compare(at, plan.startsAt) >= 0 &&
                  Temporal.Instant.compare(at, plan.endsAt) < 0,
              );
              if (!resting && !inPlan) outside.set(date, (outside.get(date) ?? 0) + 1);
            }
          }
          const expected = [...outside]
            .filter(
              ([date, minutes]) => date >= range.from && date <= range.to && minutes > LIMITS.outsideSchedule,
            )
            .map(([date, minutes]) => ({
              date,
              rule: 'outside_schedule',
              minutes,
              limit: LIMITS.outsideSchedule,
              law: LAW.outside_schedule,
            }))
            .sort((a, b) => a.date.localeCompare(b.date));
          expect(outsideScheduleFindings(shifts, planned, zone, range)).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('finds the complementary limit where a day-by-day running total over each month first passes it', () => {
    const day = fc.record({
      date: fc
        .integer({ min: 0, max: 89 })
        .map((offset) => Temporal.PlainDate.from('2027-01-01').add({ days: offset }).toString()),
      complementary: fc.integer({ min: 0, max: 300 }),
      contracted: fc.integer({ min: 0, max: 480 }),
      limitPercentage: fc.option(fc.integer({ min: 0, max: 90 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(day, { selector: (item) => item.date, maxLength: 60 }), (days) => {
        // The reference: for each month, add every day's share of the limit in hundredths of a minute, then walk
        // the calendar date by date.
        const expected: ComplianceFinding[] = [];
        for (const month of ['2027-01', '2027-02', '2027-03']) {
          const inMonth = days.filter((item) => item.date.startsWith(month));
          let hundredths = 0;
          for (const item of inMonth) hundredths += item.contracted * (item.limitPercentage ?? 30);
          const limit = Math.floor(hundredths / 100);
          let total = 0;
          const first = Temporal.PlainDate.from(`${month}-01`);
          for (let date = first; date.month === first.month; date = date.add({ days: 1 })) {
            total += inMonth.find((item) => item.date === date.toString())?.complementary ?? 0;
            if (total > limit) {
              expected.push({
                date: date.toString(),
                rule: 'complementary_limit',
                minutes: total,
                limit,
                law: LAW.complementary_limit,
              });
              break;
            }
          }
        }
        expect(complementaryLimitFindings(days, 30)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('finds the yearly overtime warning and cap where a day-by-day running total reaches 70 and passes 80 hours', () => {
    const day = fc.record({
      date: fc
        .integer({ min: 0, max: 729 })
        .map((offset) => Temporal.PlainDate.from('2027-01-01').add({ days: offset }).toString()),
      counted: fc.integer({ min: 1, max: 600 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(day, { selector: (item) => item.date, maxLength: 80 }), (days) => {
        const expected: ComplianceFinding[] = [];
        for (const year of [2027, 2028]) {
          let total = 0;
          let warned = false;
          for (
            let date = Temporal.PlainDate.from(`${year}-01-01`);
            date.year === year;
            date = date.add({ days: 1 })
          ) {
            total += days.find((item) => item.date === date.toString())?.counted ?? 0;
            const at = { date: date.toString(), minutes: total, law: LAW.overtime_yearly_cap };
            if (!warned && total >= 4200) {
              warned = true;
              expected.push({ ...at, rule: 'overtime_yearly_warning', limit: 4200 });
            }
            if (total > 4800) {
              expected.push({ ...at, rule: 'overtime_yearly_cap', limit: 4800 });
              break;
            }
          }
        }
        expect(overtimeCapFindings(days)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
