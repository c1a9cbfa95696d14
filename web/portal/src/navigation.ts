/** The day a correction request starts from (set by "ask to correct this day" and "add the missing clock-out"). */
export const CORRECTION_DAY_KEY = 'jornada.portal.correctionDay';

/** Opens the Corrections screen with its request form on `date`. */
export function askCorrection(date: string): void {
  sessionStorage.setItem(CORRECTION_DAY_KEY, date);
  window.location.hash = '#/corrections';
}
