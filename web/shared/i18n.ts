import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { I18N_OPTIONS } from './locales/options.ts';

/**
 * The dashboard's two languages. The English text is the key (t of "Save"), so the source reads as the screen
 * does; `locales/es.ts` gives every key its Spanish (a test checks none is missing), and English needs a
 * catalogue only for plural forms.
 */
export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE_KEY = 'jornada.dashboard.lang';

/**
 * Before login the company is not known: the language last used in this browser, else the browser's own
 * preference (Spanish for any Spanish locale, English otherwise). After login the session's language rules.
 */
function languageBeforeLogin(): Language {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  if (stored === 'es' || stored === 'en') return stored;
  return typeof navigator !== 'undefined' && navigator.language.toLowerCase().startsWith('es') ? 'es' : 'en';
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({ ...I18N_OPTIONS, lng: languageBeforeLogin() });
document.documentElement.lang = i18n.language;

/** Switches the interface (and `<html lang>`), remembering it for the next login page in this browser. */
export function applyLanguage(language: Language): void {
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
  if (i18n.language !== language) void i18n.changeLanguage(language);
}

/**
 * For the workers' portal, which keeps its own words: the shared messages (a problem's sentences) follow the
 * portal's language, so a page speaks one language (issue 39), without touching the dashboard's stored choice.
 */
export function followLanguage(language: Language): void {
  if (i18n.language !== language) void i18n.changeLanguage(language);
}

/** The translation function of the current language; components re-render when the language changes. */
export function useT() {
  return useTranslation(undefined, { i18n }).t;
}

/** Translates outside a component (error messages, formatters). */
export const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);

/** The locale of numbers, dates and times: Spain's or Britain's conventions (24-hour clock, day first). */
export const locale = () => (i18n.language === 'es' ? 'es-ES' : 'en-GB');

/** The company's time zone: every date and time on the dashboard is shown in it, never the browser's. */
let displayZone = 'UTC';
export function setDisplayZone(timeZone: string): void {
  displayZone = timeZone;
}
export const companyZone = () => displayZone;

const formats = new Map<string, Intl.DateTimeFormat>();
/** One formatter per locale, zone and options (creating an Intl formatter is the costly part). */
function formatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale()}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale(), options);
    formats.set(key, format);
  }
  return format;
}

/**
 * An instant as a date and time in the company's zone, the zone's short name shown: `23 nov 2026, 19:41 CET`, and
 * `24 nov 2026, 00:01 CET` (the hour always in two digits: Spanish's short time style writes `0:01`).
 */
export const formatInstant = (value: string | null | undefined) =>
  value
    ? `${formatter({ year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: displayZone }).format(new Date(value))} ${zoneName(value)}`
    : '—';

/** The zone's short name at an instant (CET, CEST, WET…), so a time never reads as the browser's. */
export const zoneName = (instant: string | Date = new Date()) =>
  formatter({ timeZone: displayZone, timeZoneName: 'short' })
    .formatToParts(new Date(instant))
    .find((part) => part.type === 'timeZoneName')?.value ?? displayZone;

/** An instant's wall-clock time (HH:MM, 24-hour) in a zone (the company's unless another is given). */
export const formatTime = (instant: string | Date, timeZone = displayZone) =>
  formatter({ hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(instant));

/** A calendar date (YYYY-MM-DD) in the interface's language; it names a day, so no zone applies. */
export const formatDate = (date: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) =>
  formatter({ ...options, timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));

/** A month (YYYY-MM) by name: `noviembre de 2026`, `November 2026`. */
export const formatMonth = (month: string) => formatDate(`${month}-01`, { month: 'long', year: 'numeric' });

/** A number with the locale's grouping: 12.345 or 12,345. */
export const formatNumber = (value: number) => value.toLocaleString(locale());

/** Marks a text as a translation key where it is defined (a table of labels) and translated later with `t`. */
export const msg = (key: string) => key;

/** Two calendar dates, both included: `23 nov 2026 – 25 nov 2026`. */
export const formatDateRange = (from: string, to: string) =>
  from === to ? formatDate(from) : `${formatDate(from)} – ${formatDate(to)}`;
