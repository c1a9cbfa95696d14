import { i18next } from './i18n.ts';

/** Times and dates in the worker's own time zone and the page's language. */
export function timeOf(instant: string, zone: string): string {
  return new Intl.DateTimeFormat(i18next.language, {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
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

/** A moment as the worker reads it: its date and time in their zone and the page's language. */
export function dateTimeOf(instant: string, zone: string): string {
  return new Intl.DateTimeFormat(i18next.language, {
    timeZone: zone,
    dateStyle: 'long',
    timeStyle: 'short',
  }).format(new Date(instant));
}
