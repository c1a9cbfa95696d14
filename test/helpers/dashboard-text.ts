import i18next from 'i18next';
import { spanishDetail, spanishFieldMessage } from '../../web/shared/locales/messages.ts';
import { I18N_OPTIONS } from '../../web/shared/locales/options.ts';

/**
 * What the dashboard shows in a language, for the browser tests: a text by its key (the English source text),
 * with its variables and plural, and dates, months and the service's messages as the dashboard words them. It
 * reads the dashboard's own catalogues, so a test in Spanish finds the Spanish the screen shows, and fails if the
 * screen shows anything else.
 */
export type Language = 'es' | 'en';

export function dashboardText(language: Language) {
  const locale = language === 'es' ? 'es-ES' : 'en-GB';
  // The dashboard's own catalogues and options (dashboard/src/i18n.ts), in i18next as the dashboard runs it:
  // plurals, interpolation and number formats are resolved exactly as on the screen.
  const i18n = i18next.createInstance();
  void i18n.init({
    ...I18N_OPTIONS,
    lng: language,
    // A variable the test forgot is its mistake: said, not left as {{name}} in a selector.
    missingInterpolationHandler: (text, value) => {
      throw new Error(`"${text}" needs ${String((value as unknown as string[])[0])}`);
    },
  });

  const T = (key: string, vars: Record<string, string | number> = {}): string => {
    const plural = typeof vars.count === 'number' && /\{\{\s*count/.test(key);
    // A test in Spanish must find the Spanish: a key the catalogue lacks is the test's mistake, not a fallback.
    if (language === 'es' && !i18n.exists(plural ? `${key}_other` : key)) {
      throw new Error(`no ${language} text for "${key}"`);
    }
    return i18n.t(key, vars);
  };

  /** A text's beginning, up to where a variable goes (a label that ends with a time, a date…). */
  const prefix = (key: string, vars: Record<string, string | number>, open: string) =>
    T(key, { ...vars, [open]: '\u0000' }).split('\u0000')[0] as string;

  const dateFormat = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
  /** A calendar date as the dashboard shows it: `30 Nov 2026`, `30 nov 2026`. */
  const date = (value: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) =>
    dateFormat(options).format(new Date(`${value}T12:00:00Z`));
  /** A month by name: `October 2026`, `octubre de 2026`. */
  const month = (value: string) => date(`${value}-01`, { month: 'long', year: 'numeric' });

  /** A field's message as the dashboard shows it under the field: `Scopes needs…`, `Permisos: necesita…`. */
  const field = (label: string, englishMessage: string) =>
    language === 'es'
      ? `${label}: ${spanishFieldMessage(englishMessage) ?? englishMessage}.`
      : `${label} ${englishMessage}.`;

  /** A problem's detail as the dashboard shows it. */
  const detail = (english: string) => (language === 'es' ? (spanishDetail(english) ?? english) : english);

  return { T, prefix, date, month, field, detail, language };
}

/** A text as a regular expression that matches it literally. */
export const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
