import type { Executor } from '../../db/database.ts';
import { contractsOf } from '../../db/employees.ts';
import { absenceDaysCount, yearsOf } from '../../time/calendar.ts';
import { employedMinutes } from '../../time/contract.ts';
import { type PendingEvent, recordEvents } from '../events/events.service.ts';
import {
  type AbsenceDayScope,
  absencesOverlapping,
  addAbsenceDays,
  findHolidayDates,
} from './workdays.repo.ts';

export const VACATION = 'vacation';

/** A vacation absence changes the balance (pending or used days) of every year it touches. */
export function balanceEvents(row: {
  type_key: string;
  employee_id: string;
  start_date: string;
  end_date: string;
}): PendingEvent[] {
  if (row.type_key !== VACATION) return [];
  return yearsOf(row.start_date, row.end_date).map(
    (year): PendingEvent => ({
      type: 'vacation_balance.updated',
      data: { employee_id: row.employee_id, year },
    }),
  );
}

type Counted = { row: Awaited<ReturnType<typeof absencesOverlapping>>[number]; days: number };

/** The days each absence of the scope counts within the scope's dates, by the calendar as it is now. */
async function daysWithin(tx: Executor, companyId: string, scope: AbsenceDayScope) {
  const rows = await absencesOverlapping(tx, companyId, scope);
  const contracts = await contractsOf(tx, companyId, [...new Set(rows.map((row) => row.employee_id))]);
  const counted = new Map<string, Counted>();
  // One read per range and centre: a company holiday's absences all share its date.
  const calendars = new Map<string, Set<string>>();
  for (const row of rows) {
    const start = row.start_date > scope.from ? row.start_date : scope.from;
    const end = row.end_date < scope.to ? row.end_date : scope.to;
    const calendar = `${start}/${end}/${row.location_id}`;
    let holidays = calendars.get(calendar);
    if (holidays === undefined) {
      holidays = new Set(await findHolidayDates(tx, companyId, start, end, row.location_id));
      calendars.set(calendar, holidays);
    }
    const employee = { ...row, contract: contracts.get(row.employee_id) ?? [] };
    const days = absenceDaysCount(
      { start_date: start, end_date: end, half_day: row.half_day },
      (date) => employedMinutes(employee, date),
      holidays,
    );
    counted.set(row.id, { row, days });
  }
  return counted;
}

/**
 * Keeps absences' `days_count` true to a change of calendar (docs/time-rules.md, Holidays): called before a
 * holiday is added or removed, a contract period changes, an employee moves to another centre or their employment
 * dates change (a termination), with the dates that change (always in the open period). It counts the days each
 * requested or approved absence has within those dates; the function it returns, called after the change in the
 * same transaction, counts them again and adds the difference to `days_count`. Only the changed dates are recounted, so the days of an absence in a
 * closed month keep the count they were closed with. A changed absence gets a new `updated_at` (a client syncing
 * with `updated_since` sees it) and an `absence.updated` event with its new count, and a changed vacation its
 * `vacation_balance.updated` events.
 */
export async function recountAbsenceDays(
  tx: Executor,
  companyId: string,
  scope: AbsenceDayScope,
): Promise<(at: Date) => Promise<void>> {
  const before = await daysWithin(tx, companyId, scope);
  return async (at) => {
    const updated: PendingEvent[] = [];
    const balances = new Map<string, PendingEvent>();
    for (const [id, { row, days }] of await daysWithin(tx, companyId, scope)) {
      const delta = days - (before.get(id)?.days ?? days);
      if (delta === 0) continue;
      const count = await addAbsenceDays(tx, companyId, id, delta, at);
      updated.push({
        type: 'absence.updated',
        data: { absence_id: id, employee_id: row.employee_id, status: row.status, days_count: count },
      });
      for (const event of balanceEvents(row)) balances.set(JSON.stringify(event), event);
    }
    await recordEvents(tx, companyId, at, [...updated, ...balances.values()]);
  };
}
