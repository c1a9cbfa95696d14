/** The eight holidays every Spanish region keeps in 2026 (the BOE resolution of 28 October 2025). */
export const NATIONAL_2026 = [
  '2026-01-01',
  '2026-01-06',
  '2026-04-03',
  '2026-05-01',
  '2026-08-15',
  '2026-10-12',
  '2026-12-08',
  '2026-12-25',
];
