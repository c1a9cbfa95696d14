import { dashboardJourneys, VARIANTS } from './dashboard-journeys.ts';

/**
 * The dashboard in Chromium, in English, at desktop and phone widths (dashboard-journeys.ts has the
 * journeys; a file per language lets the two run in parallel).
 */
dashboardJourneys(VARIANTS.filter((variant) => variant.language === 'en'));
