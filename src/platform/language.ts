/** The languages the service speaks to people (the dashboard, the portal, the documents): Spanish and English. */
export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The time zones of Spain: the peninsula and the Balearic Islands, the Canary Islands, Ceuta and Melilla. */
const SPANISH_ZONES = new Set(['Europe/Madrid', 'Atlantic/Canary', 'Africa/Ceuta']);

/** A company's language: Spanish for a company whose time zone is in Spain, English for any other. */
export const companyLanguage = (timezone: string): Language => (SPANISH_ZONES.has(timezone) ? 'es' : 'en');
