/**
 * Spain's autonomous communities and cities by their ISO 3166-2 codes: the values of a work centre's `region`
 * and a company's `default_region`, which choose the regional holidays of their calendar (docs/time-rules.md).
 */
export const REGIONS = [
  'ES-AN',
  'ES-AR',
  'ES-AS',
  'ES-CB',
  'ES-CE',
  'ES-CL',
  'ES-CM',
  'ES-CN',
  'ES-CT',
  'ES-EX',
  'ES-GA',
  'ES-IB',
  'ES-MC',
  'ES-MD',
  'ES-ML',
  'ES-NC',
  'ES-PV',
  'ES-RI',
  'ES-VC',
] as const;

export type Region = (typeof REGIONS)[number];
