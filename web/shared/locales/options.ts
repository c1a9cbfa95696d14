import { EN_PLURALS } from './en.ts';
import { es } from './es.ts';

/**
 * How the dashboard runs i18next, in one place for the app (i18n.ts) and the browser tests' text helper: the
 * catalogues, the English text as key (no key or namespace separators), no fallback language.
 */
export const I18N_OPTIONS = {
  resources: { es: { translation: es }, en: { translation: EN_PLURALS } },
  fallbackLng: false as const,
  keySeparator: false as const,
  nsSeparator: false as const,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
  initAsync: false,
};
