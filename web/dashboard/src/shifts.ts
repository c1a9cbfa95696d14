import type { CheckIn } from './types.ts';

export type DayEvent = CheckIn & { dayOffset: number };

/**
 * The check-ins of a day grouped by shift, as the registry counts them (a shift belongs to the date of its in):
 * the day's own check-ins, the rest of a shift that started that day (a night shift's out, marked +1), and,
 * marked as such, what ends a shift of the day before. Voided check-ins stay where they fall.
 */
export function shiftEvents(checkIns: readonly CheckIn[], date: string, zone: string): DayEvent[] {
  const localDate = new Intl.DateTimeFormat('en-CA', { timeZone: zone });
  const dayOf = (checkIn: CheckIn) => localDate.format(new Date(checkIn.timestamp));
  const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
  const sorted = [...checkIns].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  // Each active check-in's shift date: the date of the in that opened the shift it is in.
  const shiftDate = new Map<string, string>();
  let open: string | null = null;
  for (const checkIn of sorted) {
    if (checkIn.status !== 'active') continue;
    if (checkIn.type === 'in') open = dayOf(checkIn);
    shiftDate.set(checkIn.id, open ?? dayOf(checkIn));
    if (checkIn.type === 'out') open = null;
  }
  return sorted
    .filter((checkIn) => dayOf(checkIn) === date || shiftDate.get(checkIn.id) === date)
    .map((checkIn) => {
      const own = dayOf(checkIn);
      const shift = shiftDate.get(checkIn.id) ?? own;
      return { ...checkIn, dayOffset: shift === date ? days(date, own) : days(date, shift) };
    });
}
