/**
 * `node scripts/holidays-data.ts 2026 2027`: writes data/holidays/es.json, the national and regional holidays
 * that Jornada applies to work centres by their region (docs/time-rules.md, "Holidays by region"). Its figures
 * come from the `date-holidays` package (its data for Spain and its regions), reduced to the working calendar:
 * only public holidays, and a holiday that falls on a Sunday and that the region moves to the Monday is listed
 * on the Monday only. A date every region shares is `national`; the others are `regional`. Check the output
 * against the year's resolution of the Dirección General de Trabajo in the BOE before committing it; a
 * correction is an entry in `corrections` below, with its source.
 */
import { writeFile } from 'node:fs/promises';
import Holidays from 'date-holidays';

const REGIONS = [
  'AN',
  'AR',
  'AS',
  'CB',
  'CE',
  'CL',
  'CM',
  'CN',
  'CT',
  'EX',
  'GA',
  'IB',
  'MC',
  'MD',
  'ML',
  'NC',
  'PV',
  'RI',
  'VC',
] as const;
/** The co-official language of a region, for the holiday's second name. */
const LANGUAGES: Partial<Record<(typeof REGIONS)[number], string>> = {
  CT: 'ca',
  IB: 'ca',
  VC: 'ca',
  GA: 'gl',
  PV: 'eu',
  NC: 'eu',
};

type Entry = { date: string; name: string; name_local?: string };

/**
 * Corrections to the package's data, each with the source that says so (the BOE resolution of the year, or the
 * region's decree): a date to drop from a region's list, and/or an entry to add. See docs/time-rules.md,
 * "Holidays by region", for the dates still to check.
 */
const CANTABRIA = 'Día de las Instituciones de Cantabria';
const MURCIA = 'Día de la Región de Murcia';
const VALENCIA = 'Día de la Comunitat Valenciana';
const VALENCIA_LOCAL = 'Dia de la Comunitat Valenciana';
const CORRECTIONS: Array<{ year: number; region: string; drop?: string; add?: Entry; source: string }> = [
  // The package dates Cantabria's day 28 June; it is 28 July (the Junta General of 1778), in every regional order.
  {
    year: 2026,
    region: 'ES-CB',
    drop: '2026-06-28',
    add: { date: '2026-07-28', name: CANTABRIA },
    source:
      'Orden of the Gobierno de Cantabria for 2026 (BOC, 11 December 2025): 2 Apr, 28 Jul, 15 Sep, 7 Dec.',
  },
  {
    year: 2027,
    region: 'ES-CB',
    drop: '2027-06-28',
    add: { date: '2027-07-28', name: CANTABRIA },
    source:
      'The same day every year (Día de las Instituciones, 28 July); the 2027 order is not yet published.',
  },
  // The package lacks Murcia's own day, 9 June (the Statute of Autonomy, Ley Orgánica 4/1982).
  {
    year: 2026,
    region: 'ES-MC',
    add: { date: '2026-06-09', name: MURCIA },
    source: 'Calendario laboral de la Región de Murcia 2026 (BORM): 19 Mar, 2 Apr, 9 Jun, 7 Dec.',
  },
  {
    year: 2027,
    region: 'ES-MC',
    add: { date: '2027-06-09', name: MURCIA },
    source: 'The region keeps 9 June every year; the 2027 calendar is not yet published.',
  },
  // Four weekday holidays of 2026 the package lacks, each in its region's decree (and in the BOE resolution of
  // 28 October 2025, as the press reported it: Easter Monday in IB, CM, CT, NC, PV, RI and VC; 24 June in CT, GA
  // and VC).
  {
    year: 2026,
    region: 'ES-VC',
    add: { date: '2026-10-09', name: VALENCIA, name_local: VALENCIA_LOCAL },
    source:
      'Decree of the Consell fixing the 2026 calendar (DOGV, July 2025): twelve days, among them 9 October, Friday.',
  },
  {
    year: 2027,
    region: 'ES-VC',
    add: { date: '2027-10-09', name: VALENCIA, name_local: VALENCIA_LOCAL },
    source:
      'Decree of the Consell fixing the 2027 calendar (2026): 19 Mar, 26 and 29 Mar, 9 Oct among its twelve days.',
  },
  {
    year: 2027,
    region: 'ES-VC',
    drop: '2027-06-24',
    source: 'The same decree for 2027: Saint John (24 June, a Thursday) is not among its twelve days.',
  },
  {
    year: 2026,
    region: 'ES-GA',
    add: { date: '2026-06-24', name: 'San Juan', name_local: 'San Xoán' },
    source:
      'Decree of the Xunta fixing the 2026 calendar (DOG, 20 June 2025): own days 19 March, 24 June and 25 July.',
  },
  {
    year: 2026,
    region: 'ES-IB',
    add: { date: '2026-12-26', name: 'Segunda fiesta de Navidad', name_local: 'Sant Esteve' },
    source:
      'Resolution of the Conselleria de Trabajo on the 2026 calendar (BOIB, October 2025): twelve days, among them Saturday 26 December.',
  },
  {
    year: 2026,
    region: 'ES-CM',
    add: { date: '2026-04-06', name: 'Lunes de Pascua' },
    source:
      'Decree of the Junta fixing the 2026 calendar (DOCM, 2025), with the BOE resolution of 28 October 2025: Easter Monday and Corpus Christi (4 June).',
  },
];

function holidaysOf(region: (typeof REGIONS)[number], year: number): Entry[] {
  const spanish = new Holidays('ES', region, { types: ['public'], languages: ['es'] }).getHolidays(
    year,
    'es',
  );
  const language = LANGUAGES[region];
  const local = language
    ? new Map(
        new Holidays('ES', region, { types: ['public'], languages: [language] })
          .getHolidays(year, language)
          .map((holiday) => [holiday.date.slice(0, 10), holiday.name]),
      )
    : new Map<string, string>();
  const entries = spanish.map((holiday) => ({ date: holiday.date.slice(0, 10), name: holiday.name }));
  // A Sunday holiday the region moves to the Monday is a holiday on the Monday only.
  const substitutes = new Set(
    spanish.filter((holiday) => holiday.substitute).map((holiday) => holiday.name.replace(/ \(.*\)$/, '')),
  );
  const kept = entries.filter((entry, index) => {
    const holiday = spanish[index];
    return (
      holiday?.substitute === true ||
      !substitutes.has(entry.name) ||
      new Date(`${entry.date}T12:00:00Z`).getUTCDay() !== 0
    );
  });
  const byDate = new Map<string, Entry>();
  for (const entry of kept) {
    if (byDate.has(entry.date)) continue;
    const name = local.get(entry.date);
    byDate.set(entry.date, name && name !== entry.name ? { ...entry, name_local: name } : entry);
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

const years = process.argv.slice(2).map(Number);
if (years.length === 0 || years.some((year) => !Number.isInteger(year))) {
  process.stderr.write('usage: node scripts/holidays-data.ts YEAR...\n');
  process.exit(2);
}
const output: Record<string, { national: Entry[]; regions: Record<string, Entry[]> }> = {};
for (const year of years) {
  const lists = new Map(REGIONS.map((region) => [region, holidaysOf(region, year)]));
  const shared = [...(lists.get('MD') ?? [])].filter((entry) =>
    [...lists.values()].every((list) => list.some((other) => other.date === entry.date)),
  );
  const sharedDates = new Set(shared.map((entry) => entry.date));
  const regions: Record<string, Entry[]> = Object.fromEntries(
    REGIONS.map((region) => [
      `ES-${region}`,
      (lists.get(region) ?? []).filter((entry) => !sharedDates.has(entry.date)),
    ]),
  );
  for (const correction of CORRECTIONS.filter((item) => item.year === year)) {
    const list = (regions[correction.region] ?? []).filter((entry) => entry.date !== correction.drop);
    if (correction.add) list.push(correction.add);
    regions[correction.region] = list.sort((a, b) => a.date.localeCompare(b.date));
  }
  output[year] = { national: shared.map(({ date, name }) => ({ date, name })), regions };
}
const file = {
  description:
    'National and regional public holidays of Spain by region (ISO 3166-2), for Jornada’s calendars. Generated by scripts/holidays-data.ts.',
  source:
    'Yearly resolution of the Dirección General de Trabajo publishing the list of public holidays (BOE), and the decrees of the autonomous communities; taken from the date-holidays package (github.com/commenthol/date-holidays), data for ES.',
  years: output,
};
await writeFile('data/holidays/es.json', `${JSON.stringify(file, null, 2)}\n`);
process.stdout.write(`wrote data/holidays/es.json for ${years.join(', ')}\n`);
