import { describe, expect, it } from 'vitest';
import { shippedHolidays } from '../../../../src/modules/holidays/shipped-calendar.ts';
import { REGIONS } from '../../../../src/time/regions.ts';
import { NATIONAL_2026 } from '../../../helpers/holidays.ts';

/**
 * The shipped calendar (data/holidays/es.json) against what the year's official texts say (issue 38): the
 * resolution of the Dirección General de Trabajo of 28 October 2025 (BOE), as the press reported it region by
 * region, and the regions' own decrees where the package it is generated from was wrong. A region missing a
 * weekday holiday expects its workers on a day they do not work, so these are checked by date, not by count.
 */
const dates = (region: string) => {
  const { national, regional } = shippedHolidays(2026, region);
  return new Set([...national, ...regional].map((holiday) => holiday.date));
};
const regionsWith = (date: string) => REGIONS.filter((region) => dates(region).has(date)).sort();

describe('the 2026 calendar against the official texts', () => {
  it('has the eight holidays every region keeps, in every region', () => {
    const national = NATIONAL_2026;
    expect(shippedHolidays(2026, null).national.map((holiday) => holiday.date)).toEqual(national);
    for (const region of REGIONS) for (const date of national) expect(dates(region).has(date)).toBe(true);
  });

  it('moves each choice of the BOE resolution to exactly the regions that made it', () => {
    const everywhereBut = (...left: string[]) => REGIONS.filter((region) => !left.includes(region)).sort();
    // Maundy Thursday everywhere but Catalonia and Valencia.
    expect(regionsWith('2026-04-02')).toEqual(everywhereBut('ES-CT', 'ES-VC'));
    // Easter Monday.
    expect(regionsWith('2026-04-06')).toEqual([
      'ES-CM',
      'ES-CT',
      'ES-IB',
      'ES-NC',
      'ES-PV',
      'ES-RI',
      'ES-VC',
    ]);
    // The Monday after All Saints (a Sunday).
    expect(regionsWith('2026-11-02')).toEqual([
      'ES-AN',
      'ES-AR',
      'ES-AS',
      'ES-CL',
      'ES-CM',
      'ES-CN',
      'ES-EX',
      'ES-MD',
      'ES-NC',
    ]);
    // Saint Joseph, Saint James, Saint John.
    expect(regionsWith('2026-03-19')).toEqual(['ES-GA', 'ES-MC', 'ES-NC', 'ES-PV', 'ES-VC']);
    expect(regionsWith('2026-07-25')).toEqual(['ES-GA', 'ES-PV']);
    expect(regionsWith('2026-06-24')).toEqual(['ES-CT', 'ES-GA', 'ES-VC']);
    // Corpus Christi.
    expect(regionsWith('2026-06-04')).toEqual(['ES-CM']);
  });

  it('lists every day of the regional decrees read in full', () => {
    const weekdaysAndSaturdays = (region: string) =>
      [...dates(region)].filter((date) => Temporal.PlainDate.from(date).dayOfWeek !== 7).sort();
    // Comunitat Valenciana (decree of the Consell for 2026): twelve days.
    expect(weekdaysAndSaturdays('ES-VC')).toEqual([
      '2026-01-01',
      '2026-01-06',
      '2026-03-19',
      '2026-04-03',
      '2026-04-06',
      '2026-05-01',
      '2026-06-24',
      '2026-08-15',
      '2026-10-09',
      '2026-10-12',
      '2026-12-08',
      '2026-12-25',
    ]);
    // Illes Balears (BOIB resolution for 2026): twelve days.
    expect(weekdaysAndSaturdays('ES-IB')).toEqual([
      '2026-01-01',
      '2026-01-06',
      '2026-03-02',
      '2026-04-02',
      '2026-04-03',
      '2026-04-06',
      '2026-05-01',
      '2026-08-15',
      '2026-10-12',
      '2026-12-08',
      '2026-12-25',
      '2026-12-26',
    ]);
    // Canarias (Decreto 61/2025): eleven days for every island, and one more per island, which a work centre adds
    // as a local holiday (docs/time-rules.md).
    expect(weekdaysAndSaturdays('ES-CN')).toEqual([
      '2026-01-01',
      '2026-01-06',
      '2026-04-02',
      '2026-04-03',
      '2026-05-01',
      '2026-05-30',
      '2026-08-15',
      '2026-10-12',
      '2026-11-02',
      '2026-12-08',
      '2026-12-25',
    ]);
    // Galicia (decree of the Xunta for 2026): own days 19 March, 24 June, 25 July.
    for (const date of ['2026-03-19', '2026-06-24', '2026-07-25'])
      expect(dates('ES-GA').has(date)).toBe(true);
  });

  it('gives every other region twelve holidays on days other than Sunday', () => {
    for (const region of REGIONS.filter((code) => code !== 'ES-CN')) {
      const count = [...dates(region)].filter((date) => Temporal.PlainDate.from(date).dayOfWeek !== 7).length;
      expect([region, count]).toEqual([region, 12]);
    }
  });
});

describe('the 2027 calendar where a decree was read', () => {
  it("lists the Comunitat Valenciana's twelve days and nothing else on a weekday", () => {
    const { national, regional } = shippedHolidays(2027, 'ES-VC');
    const days = [...national, ...regional]
      .map((holiday) => holiday.date)
      .filter((date) => Temporal.PlainDate.from(date).dayOfWeek !== 7)
      .sort();
    // The decree of the Consell for 2027.
    expect(days).toEqual([
      '2027-01-01',
      '2027-01-06',
      '2027-03-19',
      '2027-03-26',
      '2027-03-29',
      '2027-05-01',
      '2027-10-09',
      '2027-10-12',
      '2027-11-01',
      '2027-12-06',
      '2027-12-08',
      '2027-12-25',
    ]);
  });
});
