/** Spain's autonomous communities and cities by ISO 3166-2 code, named as they name themselves. */
export const REGION_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['ES-AN', 'Andalucía'],
  ['ES-AR', 'Aragón'],
  ['ES-AS', 'Asturias'],
  ['ES-IB', 'Illes Balears'],
  ['ES-CN', 'Canarias'],
  ['ES-CB', 'Cantabria'],
  ['ES-CL', 'Castilla y León'],
  ['ES-CM', 'Castilla-La Mancha'],
  ['ES-CT', 'Catalunya'],
  ['ES-CE', 'Ceuta'],
  ['ES-EX', 'Extremadura'],
  ['ES-GA', 'Galicia'],
  ['ES-RI', 'La Rioja'],
  ['ES-MD', 'Comunidad de Madrid'],
  ['ES-ML', 'Melilla'],
  ['ES-MC', 'Región de Murcia'],
  ['ES-NC', 'Navarra'],
  ['ES-PV', 'Euskadi'],
  ['ES-VC', 'Comunitat Valenciana'],
];

/** The regions as a select's items. */
export const REGIONS = REGION_NAMES.map(([id, name]) => ({ id, name }));

export const regionName = (code: string | null) =>
  code === null ? null : (REGION_NAMES.find(([key]) => key === code)?.[1] ?? code);
