import { describe, expect, it } from 'vitest';
import {
  activityByDate,
  type ClockEvent,
  type ClockEventType,
  type DayCalendar,
  expectedMinutes,
  interpretShifts,
  workday,
} from '../../../src/time/engine.ts';

/** Events written in local wall time of a zone: ['in', '2026-03-10T09:00'] … */
function events(zone: string, list: Array<[ClockEventType, string]>): ClockEvent[] {
  return list.map(([type, local]) => ({
    type,
    at: Temporal.PlainDateTime.from(local)
      .toZonedDateTime(zone, { disambiguation: 'compatible' })
      .toInstant(),
  }));
}

const LATER = Temporal.Instant.from('2027-01-01T00:00:00Z');
const MADRID = 'Europe/Madrid';
const WORKDAY: DayCalendar = {
  scheduledMinutes: 480,
  holiday: false,
  employed: true,
  tracked: true,
  absence: 'none',
};

function minutes(zone: string, list: Array<[ClockEventType, string]>, now = LATER) {
  const days = activityByDate(events(zone, list), zone, now);
  return Object.fromEntries(
    [...days.entries()].map(([date, activity]) => {
      const day = workday(date, activity, WORKDAY, true);
      return [
        date,
        {
          status: day.status,
          worked: day.workedMinutes,
          break: day.breakMinutes,
          night: day.nightMinutes,
          anomalies: day.anomalies,
        },
      ];
    }),
  );
}

describe('shifts and breaks', () => {
  it('takes breaks out of worked time', () => {
    expect(
      minutes(MADRID, [
        ['in', '2026-03-10T09:00'],
        ['break_start', '2026-03-10T13:00'],
        ['break_end', '2026-03-10T13:30'],
        ['out', '2026-03-10T17:30'],
      ]),
    ).toEqual({ '2026-03-10': { status: 'closed', worked: 480, break: 30, night: 0, anomalies: 0 } });
  });

  it('adds split shifts of one day', () => {
    expect(
      minutes(MADRID, [
        ['in', '2026-03-10T09:00'],
        ['out', '2026-03-10T13:00'],
        ['in', '2026-03-10T16:00'],
        ['out', '2026-03-10T20:15'],
      ])['2026-03-10'],
    ).toMatchObject({ status: 'closed', worked: 495, break: 0 });
  });

  it('ends a break still open at the out', () => {
    expect(
      minutes(MADRID, [
        ['in', '2026-03-10T09:00'],
        ['break_start', '2026-03-10T16:00'],
        ['out', '2026-03-10T17:00'],
      ])['2026-03-10'],
    ).toMatchObject({ worked: 420, break: 60 });
  });

  it('floors minutes once per day, from seconds', () => {
    const list = events(MADRID, [
      ['in', '2026-03-10T09:00:00'],
      ['out', '2026-03-10T09:00:40'],
      ['in', '2026-03-10T10:00:00'],
      ['out', '2026-03-10T10:00:40'],
    ]);
    const day = workday('2026-03-10', activityByDate(list, MADRID, LATER).get('2026-03-10'), WORKDAY, true);
    expect(day.workedMinutes).toBe(1);
  });

  it('reads events in timestamp order, whatever order they arrive in', () => {
    const list = events(MADRID, [
      ['out', '2026-03-10T17:00'],
      ['break_end', '2026-03-10T14:00'],
      ['in', '2026-03-10T08:00'],
      ['break_start', '2026-03-10T13:00'],
    ]);
    const day = activityByDate(list, MADRID, LATER).get('2026-03-10');
    expect(day).toMatchObject({ workedSeconds: 8 * 3600, breakSeconds: 3600 });
  });

  it('reads an out and an in at the same second as the end of one shift and the start of the next', () => {
    const result = interpretShifts(
      events(MADRID, [
        ['in', '2026-03-10T08:00'],
        ['in', '2026-03-10T12:00'],
        ['out', '2026-03-10T12:00'],
        ['out', '2026-03-10T16:00'],
      ]),
      LATER,
    );
    expect(result.shifts.map((shift) => shift.status)).toEqual(['closed', 'closed']);
    expect(result.anomalies).toEqual([]);
  });
});

describe('night work (22:00 to 06:00 local)', () => {
  it('gives a shift across midnight to the day it started, with its night minutes less breaks', () => {
    expect(
      minutes(MADRID, [
        ['in', '2026-03-10T21:00'],
        ['break_start', '2026-03-11T01:00'],
        ['break_end', '2026-03-11T01:30'],
        ['out', '2026-03-11T05:30'],
      ]),
    ).toEqual({ '2026-03-10': { status: 'closed', worked: 480, break: 30, night: 420, anomalies: 0 } });
  });

  it('counts the early-morning window of the same date', () => {
    expect(
      minutes(MADRID, [
        ['in', '2026-03-10T04:00'],
        ['out', '2026-03-10T12:00'],
      ])['2026-03-10'],
    ).toMatchObject({
      worked: 480,
      night: 120,
    });
  });

  it('is right on the 23-hour day (Madrid, 29 March 2026: 02:00 jumps to 03:00)', () => {
    expect(
      minutes(MADRID, [
        ['in', '2026-03-28T22:00'],
        ['out', '2026-03-29T06:00'],
      ])['2026-03-28'],
    ).toMatchObject({ worked: 420, night: 420 });
  });

  it('is right on the 25-hour day (Madrid, 25 October 2026: 03:00 falls back to 02:00)', () => {
    expect(
      minutes(MADRID, [
        ['in', '2026-10-24T22:00'],
        ['out', '2026-10-25T06:00'],
      ])['2026-10-24'],
    ).toMatchObject({ worked: 540, night: 540 });
  });

  it('uses the employee’s zone far from UTC (Pacific/Auckland, America/Los_Angeles)', () => {
    // 09:00–17:00 on 15 June in Auckland is 21:00 on the 14th to 05:00 on the 15th in UTC.
    const auckland = events('Pacific/Auckland', [
      ['in', '2026-06-15T09:00'],
      ['out', '2026-06-15T17:00'],
    ]);
    expect(auckland[0]?.at.toString()).toBe('2026-06-14T21:00:00Z');
    expect(
      minutes('Pacific/Auckland', [
        ['in', '2026-06-15T09:00'],
        ['out', '2026-06-15T17:00'],
      ]),
    ).toEqual({
      '2026-06-15': { status: 'closed', worked: 480, break: 0, night: 0, anomalies: 0 },
    });
    // Los Angeles, DST ends on 1 November 2026 at 02:00: 20:00 to 06:00 lasts 11 hours, 9 of them at night.
    expect(
      minutes('America/Los_Angeles', [
        ['in', '2026-10-31T20:00'],
        ['out', '2026-11-01T06:00'],
      ])['2026-10-31'],
    ).toMatchObject({ worked: 660, night: 540 });
  });
});

describe('incomplete shifts and anomalies', () => {
  it('leaves a shift incomplete when a new in comes while it is open', () => {
    const days = minutes(MADRID, [
      ['in', '2026-03-10T08:00'],
      ['in', '2026-03-11T08:00'],
      ['out', '2026-03-11T16:00'],
    ]);
    expect(days['2026-03-10']).toMatchObject({ status: 'incomplete' });
    expect(days['2026-03-11']).toMatchObject({ status: 'closed', worked: 480 });
  });

  it('keeps a shift open for 24 hours, then makes it incomplete', () => {
    const list: Array<[ClockEventType, string]> = [['in', '2026-03-10T08:00']];
    const at = (local: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(MADRID).toInstant();
    expect(minutes(MADRID, list, at('2026-03-11T07:59'))['2026-03-10']).toMatchObject({ status: 'pending' });
    expect(minutes(MADRID, list, at('2026-03-11T08:00'))['2026-03-10']).toMatchObject({
      status: 'incomplete',
    });
  });

  it('does not let an out 24 hours or more after the in close the shift', () => {
    const result = interpretShifts(
      events(MADRID, [
        ['in', '2026-03-10T08:00'],
        ['out', '2026-03-11T09:00'],
      ]),
      LATER,
    );
    expect(result.shifts.map((shift) => shift.status)).toEqual(['incomplete']);
    expect(result.anomalies.map((anomaly) => anomaly.kind)).toEqual(['out_after_24_hours']);
  });

  it('ignores and counts each anomaly on the date of its event', () => {
    const days = minutes(MADRID, [
      ['out', '2026-03-10T07:00'],
      ['break_start', '2026-03-10T07:30'],
      ['break_end', '2026-03-10T07:45'],
      ['in', '2026-03-10T08:00'],
      ['break_end', '2026-03-10T10:00'],
      ['break_start', '2026-03-10T12:00'],
      ['break_start', '2026-03-10T12:10'],
      ['break_end', '2026-03-10T12:30'],
      ['out', '2026-03-10T16:30'],
      ['out', '2026-03-11T09:00'],
    ]);
    expect(days['2026-03-10']).toEqual({ status: 'closed', worked: 480, break: 30, night: 0, anomalies: 5 });
    expect(days['2026-03-11']).toMatchObject({ anomalies: 1, worked: 0 });
    const kinds = interpretShifts(
      events(MADRID, [
        ['out', '2026-03-10T07:00'],
        ['break_start', '2026-03-10T07:30'],
        ['in', '2026-03-10T08:00'],
        ['break_end', '2026-03-10T10:00'],
        ['break_start', '2026-03-10T12:00'],
        ['break_start', '2026-03-10T12:10'],
        ['out', '2026-03-10T16:30'],
      ]),
      LATER,
    ).anomalies.map((anomaly) => anomaly.kind);
    expect(kinds).toEqual([
      'out_without_shift',
      'break_outside_shift',
      'break_end_without_break',
      'break_start_during_break',
    ]);
  });
});

describe('expected minutes and the day status', () => {
  it('follows the schedule, holidays, employment and approved absences', () => {
    const base: DayCalendar = {
      scheduledMinutes: 435,
      holiday: false,
      employed: true,
      tracked: true,
      absence: 'none',
    };
    expect(expectedMinutes(base)).toEqual({ expected: 435, absences: 0 });
    expect(expectedMinutes({ ...base, holiday: true })).toEqual({ expected: 0, absences: 0 });
    expect(expectedMinutes({ ...base, employed: false })).toEqual({ expected: 0, absences: 0 });
    // Before the tracking start nothing is expected, and an absence removes nothing.
    expect(expectedMinutes({ ...base, tracked: false })).toEqual({ expected: 0, absences: 0 });
    expect(expectedMinutes({ ...base, tracked: false, absence: 'full' })).toEqual({
      expected: 0,
      absences: 0,
    });
    expect(expectedMinutes({ ...base, absence: 'full' })).toEqual({ expected: 0, absences: 435 });
    expect(expectedMinutes({ ...base, absence: 'half' })).toEqual({ expected: 217, absences: 218 });
    expect(expectedMinutes({ ...base, holiday: true, absence: 'full' })).toEqual({
      expected: 0,
      absences: 0,
    });
  });

  it('gives overtime and balance, a negative balance for an unexcused gap, and pending for today', () => {
    const long = activityByDate(
      events(MADRID, [
        ['in', '2026-03-10T08:00'],
        ['out', '2026-03-10T18:00'],
      ]),
      MADRID,
      LATER,
    ).get('2026-03-10');
    expect(workday('2026-03-10', long, WORKDAY, true)).toMatchObject({
      status: 'closed',
      workedMinutes: 600,
      expectedMinutes: 480,
      overtimeMinutes: 120,
      balanceMinutes: 120,
    });
    expect(workday('2026-03-11', undefined, WORKDAY, true)).toMatchObject({
      status: 'closed',
      workedMinutes: 0,
      overtimeMinutes: 0,
      balanceMinutes: -480,
    });
    expect(workday('2026-03-10', long, WORKDAY, false).status).toBe('pending');
  });
});
