import type { Db } from '../db/database.ts';
import type { CheckInType, WorkMode } from '../db/schema.ts';
import { decideAbsence, requestAbsence } from '../modules/absences/absences.service.ts';
import { recordWorkerPunches } from '../modules/check-ins/check-ins.service.ts';
import { requestCorrection } from '../modules/corrections/corrections.service.ts';
import { createEmployee, type EmployeeView } from '../modules/employees/employees.service.ts';
import { createHoliday } from '../modules/holidays/holidays.service.ts';
import { createLocation, type LocationView } from '../modules/locations/locations.service.ts';
import type { ActingTenant } from '../platform/tenant.ts';
import type { Clock } from '../time/clock.ts';
import { localDate } from '../time/zones.ts';

/**
 * A realistic month for the demo company (issue 17), so that every screen shows something on the first start:
 * a dozen employees in two work centres, over the four weeks before this one and this week until now, each check-in recorded at
 * its own time (a clock replayed through the month, so nothing is marked late). Among them a night worker, a
 * part-timer, someone working remotely on Fridays, some overtime, a holiday, a vacation taken, a sick leave
 * covering today, two vacation requests waiting, and a worker's correction request waiting for the company.
 * Everything goes through the services, so the registry chain, the workdays and the events are as in real use.
 */

type Shape = 'day' | 'night' | 'part' | 'remote_fridays' | 'long_days';
type Person = {
  first: string;
  last: string;
  centre: 0 | 1;
  shape: Shape;
};

const PEOPLE: Person[] = [
  { first: 'Lucía', last: 'Martínez Soler', centre: 0, shape: 'day' },
  { first: 'Javier', last: 'Ortega Ruiz', centre: 0, shape: 'long_days' },
  { first: 'Carmen', last: 'Vidal Puig', centre: 0, shape: 'day' },
  { first: 'Andreu', last: 'Ferrer Camps', centre: 0, shape: 'night' },
  { first: 'Marta', last: 'Gil Navarro', centre: 0, shape: 'part' },
  { first: 'Pablo', last: 'Romero Díaz', centre: 0, shape: 'day' },
  { first: 'Nuria', last: 'Sanz Blasco', centre: 1, shape: 'remote_fridays' },
  { first: 'Diego', last: 'Herrero Molina', centre: 1, shape: 'day' },
  { first: 'Elena', last: 'Castro Iglesias', centre: 1, shape: 'long_days' },
  { first: 'Hugo', last: 'Prieto Lozano', centre: 1, shape: 'day' },
  { first: 'Sara', last: 'Méndez Pascual', centre: 1, shape: 'day' },
  { first: 'Álvaro', last: 'Nieto Cabrera', centre: 1, shape: 'day' },
];

const CENTRES = [
  {
    name: 'Obrador Valencia',
    address: 'Carrer de la Pau 12, 46002 València',
    ccc: socialSecurity(46, 1234567, 7),
  },
  { name: 'Tienda Madrid', address: 'Calle de Atocha 45, 28012 Madrid', ccc: socialSecurity(28, 7654321, 7) },
];

/** A Social Security number (CCC: 7 digits of number, NAF: 8) with its two control digits: the whole mod 97. */
function socialSecurity(province: number, number: number, digits: number): string {
  const base = `${String(province).padStart(2, '0')}${String(number).padStart(digits, '0')}`;
  return `${base}${String(Number(BigInt(base) % 97n)).padStart(2, '0')}`;
}

/** A DNI: eight digits and the letter of their remainder by 23. */
function dni(number: number): string {
  return `${String(number).padStart(8, '0')}${'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}`;
}

/** The demo's first day (and its tracking start): the Monday four weeks before this week's. */
export function demoStart(today: Temporal.PlainDate): Temporal.PlainDate {
  return today.subtract({ days: today.dayOfWeek - 1 }).subtract({ weeks: 4 });
}

/** A clock the seeding moves through the month: each write happens "at" its own time. */
class ReplayClock implements Clock {
  #at: Temporal.Instant;
  constructor(at: Temporal.Instant) {
    this.#at = at;
  }
  set(at: Temporal.Instant): void {
    this.#at = at;
  }
  now(): Temporal.Instant {
    return this.#at;
  }
}

type Event = { type: CheckInType; at: Temporal.ZonedDateTime; mode?: WorkMode };

const earliest = (a: Temporal.Instant, b: Temporal.Instant) => (Temporal.Instant.compare(a, b) <= 0 ? a : b);

/** A small deterministic generator (mulberry32), so every demo is the same month, shifted to its dates. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One person's clock events on a working date. */
function dayEvents(shape: Shape, date: Temporal.PlainDate, zone: string, jitter: () => number): Event[] {
  const at = (hour: number, minute: number) =>
    date.toZonedDateTime({ timeZone: zone, plainTime: { hour, minute: Math.max(0, Math.min(59, minute)) } });
  const wobble = () => Math.round(jitter() * 10) - 5;
  if (shape === 'night') {
    const start = at(22, 0 + Math.max(0, wobble()));
    return [
      { type: 'in', at: start },
      { type: 'out', at: start.add({ minutes: 480 + wobble() }) },
    ];
  }
  if (shape === 'part') {
    return [
      { type: 'in', at: at(9, 5 + wobble()) },
      { type: 'out', at: at(13, 5 + wobble()) },
    ];
  }
  const remote = shape === 'remote_fridays' && date.dayOfWeek === 5;
  const mode: WorkMode = remote ? 'remote' : 'on_site';
  // Long days: two hours more on Tuesdays and Thursdays (overtime).
  const extra = shape === 'long_days' && (date.dayOfWeek === 2 || date.dayOfWeek === 4) ? 2 : 0;
  return [
    { type: 'in', at: at(8, 55 + wobble()), mode },
    { type: 'break_start', at: at(14, 0 + Math.max(0, wobble())), mode },
    { type: 'break_end', at: at(14, 45 + wobble()), mode },
    { type: 'out', at: at(17 + extra, 50 + wobble()), mode },
  ];
}

/**
 * Fills one tenant (the live company or its sandbox) with the month. Each worker records their own check-ins in
 * the portal; the tenant's `actor` (the demo administrator) does the rest.
 */
export async function seedDemoMonth(
  db: Db,
  realClock: Clock,
  tenant: ActingTenant,
  options: { seed: number },
): Promise<void> {
  const now = realClock.now();
  const zone = tenant.timezone;
  const today = localDate(now, zone);
  const first = demoStart(today);
  const clock = new ReplayClock(first.toZonedDateTime(zone).toInstant().subtract({ hours: 1 }));
  const deps = { db, clock };
  const jitter = random(options.seed);

  const centres: LocationView[] = [];
  for (const centre of CENTRES) centres.push(await createLocation(deps, tenant, centre));
  // A local holiday of the Valencia workshop on the Monday two weeks into the month (Madrid works that day).
  const secondMonday = first.add({ weeks: 2 });
  await createHoliday(deps, tenant, {
    date: secondMonday.toString(),
    name: 'Fiesta local de València',
    location_id: (centres[0] as LocationView).id,
  });

  const employees: EmployeeView[] = [];
  for (const [index, person] of PEOPLE.entries()) {
    const schedule =
      person.shape === 'part'
        ? { mon: 240, tue: 240, wed: 240, thu: 240, fri: 240, sat: 0, sun: 0 }
        : { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 };
    employees.push(
      await createEmployee(deps, tenant, {
        first_name: person.first,
        last_name: person.last,
        email: `${person.first.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')}.${index + 1}@demo.jornada.test`,
        hire_date: first.subtract({ years: 1 + (index % 4) }).toString(),
        location_id: (centres[person.centre] as LocationView).id,
        work_schedule: schedule,
        vacation_days_per_year: 23,
        national_id: dni(20_000_000 + index * 1_234_567),
        social_security_number: socialSecurity(
          person.centre === 0 ? 46 : 28,
          10_000_000 + index * 7_654_321,
          8,
        ),
      }),
    );
  }
  const id = (first: string) =>
    (employees.find((employee) => employee.first_name === first) as EmployeeView).id;

  // Absences: a week of vacation the week before this one, a sick leave covering today, two requests waiting.
  const vacationStart = secondMonday.add({ days: 7 });
  const absences: Array<{
    who: string;
    type: string;
    from: Temporal.PlainDate;
    to: Temporal.PlainDate;
    approve: boolean;
  }> = [
    {
      who: 'Carmen',
      type: 'vacation',
      from: vacationStart,
      to: vacationStart.add({ days: 4 }),
      approve: true,
    },
    {
      who: 'Diego',
      type: 'sick_leave',
      from: today.subtract({ days: 1 }),
      to: today.add({ days: 2 }),
      approve: true,
    },
    {
      who: 'Hugo',
      type: 'vacation',
      from: today.add({ days: 21 }),
      to: today.add({ days: 25 }),
      approve: false,
    },
    {
      who: 'Sara',
      type: 'vacation',
      from: today.add({ days: 35 }),
      to: today.add({ days: 36 }),
      approve: false,
    },
  ];
  const away = new Map<string, Array<[string, string]>>();
  for (const absence of absences) {
    const request = await requestAbsence(deps, tenant, {
      employee_id: id(absence.who),
      type: absence.type,
      start_date: absence.from.toString(),
      end_date: absence.to.toString(),
    });
    if (absence.approve) {
      await decideAbsence(deps, tenant, request.id, 'approve');
      away.set(id(absence.who), [
        ...(away.get(id(absence.who)) ?? []),
        [absence.from.toString(), absence.to.toString()],
      ]);
    }
  }

  // Every event from the first day until now, in time order across the company.
  const events: Array<Event & { employeeId: string }> = [];
  for (
    let date = first.subtract({ days: 1 });
    Temporal.PlainDate.compare(date, today) <= 0;
    date = date.add({ days: 1 })
  ) {
    if (date.dayOfWeek > 5 || date.equals(secondMonday)) continue;
    for (const [index, person] of PEOPLE.entries()) {
      const employeeId = (employees[index] as EmployeeView).id;
      const text = date.toString();
      if ((away.get(employeeId) ?? []).some(([from, to]) => from <= text && text <= to)) continue;
      // The night shift of the day before the month shows as the month's first morning; the others start on the first.
      if (Temporal.PlainDate.compare(date, first) < 0 && person.shape !== 'night') continue;
      for (const event of dayEvents(person.shape, date, zone, jitter)) events.push({ ...event, employeeId });
    }
  }
  events.sort((a, b) => Temporal.Instant.compare(a.at.toInstant(), b.at.toInstant()));
  // Javier forgets to clock out one evening last week: his day stays incomplete until the correction below.
  const forgotten = events.find(
    (event) =>
      event.employeeId === id('Javier') &&
      event.type === 'out' &&
      Temporal.PlainDate.compare(event.at.toPlainDate(), today.subtract({ days: 7 })) >= 0,
  );
  // Each worker's month in one write of days, the workers side by side (issue 42: one write per punch, one worker
  // after the other, kept the first start waiting some 45 s). Each punch is recorded a few seconds after it
  // happened, in the portal by the worker: the registry's own records (docs/registry.md).
  const byWorker = Map.groupBy(
    events.filter((event) => event !== forgotten && Temporal.Instant.compare(event.at.toInstant(), now) <= 0),
    (event) => event.employeeId,
  );
  await Promise.all(
    [...byWorker].map(([employeeId, own]) =>
      recordWorkerPunches(
        { db, clock: realClock },
        { ...tenant, actor: { type: 'employee', id: employeeId } },
        employeeId,
        own.map((event) => {
          const timestamp = event.at.toInstant().round({ smallestUnit: 'second', roundingMode: 'trunc' });
          return {
            type: event.type,
            timestamp,
            ...(event.mode ? { work_mode: event.mode } : {}),
            recorded_at: earliest(timestamp.add({ seconds: 5 }), now),
          };
        }),
        'portal',
      ),
    ),
  );
  clock.set(now);
  if (forgotten) {
    await requestCorrection(
      deps,
      { ...tenant, actor: { type: 'employee', id: forgotten.employeeId } },
      {
        employee_id: forgotten.employeeId,
        reason: 'Olvidé fichar la salida al terminar la jornada.',
        add: [{ type: 'out', timestamp: forgotten.at.toInstant().toString({ smallestUnit: 'second' }) }],
      },
    );
  }
}
