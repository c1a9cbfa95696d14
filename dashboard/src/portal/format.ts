import { i18next } from './i18n.ts';

/** Times and dates in the worker's own time zone and the page's language. */
export function timeOf(instant: string, zone: string): string {
  return new Intl.DateTimeFormat(i18next.language, {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(instant));
}

export function dayOf(instant: string, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(instant));
}

export function longDate(date: string): string {
  return new Intl.DateTimeFormat(i18next.language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
}

export function monthName(month: string): string {
  return new Intl.DateTimeFormat(i18next.language, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${month}-15T12:00:00Z`));
}

/** Minutes as "7 h 30 min" (a sign for a balance). */
export function hoursOf(minutes: number): string {
  const sign = minutes < 0 ? '−' : '';
  const total = Math.abs(minutes);
  return `${sign}${i18next.t('minutes', { hours: Math.floor(total / 60), minutes: total % 60 })}`;
}

/** Today in a zone, YYYY-MM-DD. */
export const todayIn = (zone: string) => dayOf(new Date().toISOString(), zone);

/** The instant of a local date and time (HH:MM) in a zone, for a check-in a correction adds. */
export function instantOf(date: string, time: string, zone: string): string {
  // Find the UTC instant whose local rendering in the zone is date + time (DST-safe by one correction step).
  const guess = new Date(`${date}T${time}:00Z`);
  const local = (at: Date) =>
    new Date(
      `${dayOf(at.toISOString(), zone)}T${new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at)}:00Z`,
    );
  const offset = local(guess).getTime() - guess.getTime();
  let at = new Date(guess.getTime() - offset);
  const drift = local(at).getTime() - new Date(`${date}T${time}:00Z`).getTime();
  if (drift !== 0) at = new Date(at.getTime() - drift);
  return at.toISOString().replace('.000Z', 'Z');
}
