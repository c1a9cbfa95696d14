import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One holiday of the shipped calendar: its date, its Spanish name and, in a region with one, its co-official. */
export type ShippedHoliday = { date: string; name: string; name_local?: string };

type CalendarFile = {
  source: string;
  years: Record<string, { national: ShippedHoliday[]; regions: Record<string, ShippedHoliday[]> }>;
};

let loaded: CalendarFile | undefined;

/** data/holidays/es.json, read once (scripts/holidays-data.ts writes it; docs/time-rules.md says from what). */
function calendarFile(): CalendarFile {
  loaded ??= JSON.parse(
    readFileSync(path.join(import.meta.dirname, '../../../data/holidays/es.json'), 'utf8'),
  ) as CalendarFile;
  return loaded;
}

/** The years the shipped calendar covers, ascending. */
export function shippedYears(): number[] {
  return Object.keys(calendarFile().years)
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * A year's national holidays and one region's own (regional) ones (none without a region); empty for a year not
 * shipped.
 */
export function shippedHolidays(
  year: number,
  region: string | null,
): { national: ShippedHoliday[]; regional: ShippedHoliday[] } {
  const entry = calendarFile().years[String(year)];
  return {
    national: entry?.national ?? [],
    regional: (region === null ? undefined : entry?.regions[region]) ?? [],
  };
}
